// "Watch Demo": opens the demo dialog (business email → the demo video by email), loaded on first use.
import { Icon } from "../components/ui/icon.tsx";
import { LazyDialogButton, lazyDialog, type DialogButtonProps } from "./lazy-dialog-button.tsx";

const demoDialog = lazyDialog(() => import("./demo-dialog.tsx"));

export function WatchDemoButton({
  size = "lg",
  variant = "outline",
  className,
}: DialogButtonProps) {
  return (
    <LazyDialogButton dialog={demoDialog} size={size} variant={variant} className={className}>
      <Icon name="play" />
      Watch Demo
    </LazyDialogButton>
  );
}
