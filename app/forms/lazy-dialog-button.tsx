// A link that opens a dialog whose code (form, captcha…) loads on first use: fetched when the
// pointer or focus arrives, rendered on the first click. Until the page's script runs (or without
// JavaScript) it is a plain link to `href`, a page that does the same job.
import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from "react";
import { Button } from "../components/ui/button.tsx";
import { opensElsewhere } from "../lib/link-clicks.ts";

export type DialogProps = { open: boolean; onOpenChange: (open: boolean) => void };
export type LazyDialog = {
  preload: () => Promise<unknown>;
  Dialog: LazyExoticComponent<ComponentType<DialogProps>>;
};

/** Declared once per dialog at module level (lazy() must not run during render). */
export function lazyDialog(
  load: () => Promise<{ default: ComponentType<DialogProps> }>,
): LazyDialog {
  return { preload: load, Dialog: lazy(load) };
}

/** A dialog's open state, and the dialog itself once it has been opened (kept for its exit). */
export function useLazyDialog(dialog: LazyDialog) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const { Dialog } = dialog;
  const show = () => {
    setUsed(true);
    setOpen(true);
  };
  const element = used && (
    <Suspense fallback={null}>
      <Dialog open={open} onOpenChange={setOpen} />
    </Suspense>
  );
  return { show, element };
}

export function LazyDialogButton({
  dialog,
  href,
  onOpen,
  children,
  ...buttonProps
}: {
  dialog: LazyDialog;
  /** The page that does the dialog's job, for visitors whose script is not running. */
  href: string;
  /** Opens the dialog somewhere else (a dialog that must outlive this button); else here. */
  onOpen?: () => void;
  children: React.ReactNode;
} & Pick<React.ComponentProps<typeof Button>, "size" | "variant" | "className">) {
  const own = useLazyDialog(dialog);
  return (
    <>
      <Button {...buttonProps} asChild>
        <a
          href={href}
          aria-haspopup="dialog"
          onPointerEnter={dialog.preload}
          onFocus={dialog.preload}
          onClick={(event) => {
            if (opensElsewhere(event)) return;
            event.preventDefault();
            (onOpen ?? own.show)();
          }}
        >
          {children}
        </a>
      </Button>
      {own.element}
    </>
  );
}
