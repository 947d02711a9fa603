// "Request Access": opens the request-access dialog, whose code (form, captcha) loads on first use.
// Before the page's script runs it is a link to the /request-access page, which has the same form.
import { REQUEST_ACCESS_ROUTE } from "../../common/site-build.ts";
import { LazyDialogButton, lazyDialog } from "./lazy-dialog-button.tsx";

export const requestAccessDialog = lazyDialog(
  () => import("./request-access-dialog.tsx"),
  REQUEST_ACCESS_ROUTE,
);

export function RequestAccessButton({
  size = "default",
  variant = "default",
  className,
  onOpen,
}: {
  size?: "default" | "lg";
  variant?: "default" | "inverse" | "outline";
  className?: string;
  /** Opens a dialog kept by the caller (one that must outlive this button). */
  onOpen?: () => void;
}) {
  return (
    <LazyDialogButton
      dialog={requestAccessDialog}
      onOpen={onOpen}
      size={size}
      variant={variant}
      className={className}
    >
      Request Access
    </LazyDialogButton>
  );
}
