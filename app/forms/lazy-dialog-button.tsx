// A button that opens a dialog whose code (form, captcha…) loads on first use: fetched when the
// pointer or focus arrives, rendered on the first click.
import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from "react";
import { Button } from "../components/ui/button.tsx";

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

/** What the page may choose of a dialog's button (its props travel as JSON: an island's props). */
export type DialogButtonProps = Pick<
  React.ComponentProps<typeof Button>,
  "size" | "variant" | "className"
>;

export function LazyDialogButton({
  dialog,
  children,
  ...buttonProps
}: { dialog: LazyDialog; children: React.ReactNode } & DialogButtonProps) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const { Dialog, preload } = dialog;
  return (
    <>
      <Button
        {...buttonProps}
        aria-haspopup="dialog"
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        {children}
      </Button>
      {used && (
        <Suspense fallback={null}>
          <Dialog open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
