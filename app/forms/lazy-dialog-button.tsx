// A link that opens a dialog whose code (form, captcha…) loads on first use: fetched when the
// pointer or focus arrives, rendered on the first click. Until the page's script runs (or without
// JavaScript), and when the dialog's code cannot load, it is a plain link to a page that does the
// same job. Closing the dialog gives the focus back to the control that opened it.
import { useRef, useState, type ComponentType, type RefObject } from "react";
import { Button } from "../components/ui/button.tsx";
import { opensElsewhere } from "../lib/link-clicks.ts";

export type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Gets the focus back when the dialog closes (it has no Radix Dialog.Trigger to give it to). */
  opener: RefObject<HTMLElement | null>;
};
type LazyDialog = {
  load: () => Promise<{ default: ComponentType<DialogProps> }>;
  /** The page that does the dialog's job, for visitors whose script or dialog cannot run. */
  page: string;
};

/** Declared once per dialog at module level. */
export function lazyDialog(
  load: () => Promise<{ default: ComponentType<DialogProps> }>,
  page: string,
): LazyDialog {
  return { load, page };
}

/** Fetches a dialog's code ahead of its first use; a failure is met when it is opened. */
const preload = (dialog: LazyDialog) => void dialog.load().catch(() => {});

/**
 * A dialog's open state, and the dialog itself once it has been opened (kept for its exit).
 * `show(opener)` opens it once its code has loaded (at once, usually: it was fetched as the
 * pointer or the focus arrived); if the code cannot load, the visitor goes to the dialog's page.
 */
export function useLazyDialog(dialog: LazyDialog) {
  const [open, setOpen] = useState(false);
  const [Dialog, setDialog] = useState<ComponentType<DialogProps> | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const show = (from: HTMLElement | null) => {
    opener.current = from;
    dialog.load().then(
      (loaded) => {
        setDialog(() => loaded.default);
        setOpen(true);
      },
      () => window.location.assign(dialog.page),
    );
  };
  const element = Dialog && <Dialog open={open} onOpenChange={setOpen} opener={opener} />;
  return { show, element };
}

export function LazyDialogButton({
  dialog,
  onOpen,
  children,
  ...buttonProps
}: {
  dialog: LazyDialog;
  /** Opens the dialog somewhere else (a dialog that must outlive this button); else here. */
  onOpen?: () => void;
  children: React.ReactNode;
} & Pick<React.ComponentProps<typeof Button>, "size" | "variant" | "className">) {
  const own = useLazyDialog(dialog);
  return (
    <>
      <Button {...buttonProps} asChild>
        <a
          href={dialog.page}
          aria-haspopup="dialog"
          onPointerEnter={() => preload(dialog)}
          onFocus={() => preload(dialog)}
          onClick={(event) => {
            if (opensElsewhere(event)) return;
            event.preventDefault();
            if (onOpen) onOpen();
            else own.show(event.currentTarget);
          }}
        >
          {children}
        </a>
      </Button>
      {own.element}
    </>
  );
}
