// "Request Access": opens the request-access dialog, whose code (form, captcha) loads on first use.
import { LazyDialogButton, lazyDialog, type DialogButtonProps } from "./lazy-dialog-button.tsx";

const requestAccessDialog = lazyDialog(() => import("./request-access-dialog.tsx"));

export function RequestAccessButton(props: DialogButtonProps) {
  return (
    <LazyDialogButton dialog={requestAccessDialog} {...props}>
      Request Access
    </LazyDialogButton>
  );
}
