// "Request Access": opens the request-access dialog, whose code (form, captcha) loads on first use.
import { LazyDialogButton, lazyDialog } from "./lazy-dialog-button.tsx";

const requestAccessDialog = lazyDialog(() => import("./request-access-dialog.tsx"));

export function RequestAccessButton({
  size = "default",
  variant = "default",
  className,
}: {
  size?: "default" | "lg";
  variant?: "default" | "inverse" | "outline";
  className?: string;
}) {
  return (
    <LazyDialogButton
      dialog={requestAccessDialog}
      size={size}
      variant={variant}
      className={className}
    >
      Request Access
    </LazyDialogButton>
  );
}
