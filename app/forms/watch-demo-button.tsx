// "Watch Demo": opens the demo dialog (business email → the demo video by email), loaded on first use.
// Before the page's script runs it is a link to the page the demo email leads to.
import { Icon } from "../components/ui/icon.tsx";
import { DEMO_PAGE_ROUTE } from "../../common/site-build.ts";
import { LazyDialogButton, lazyDialog } from "./lazy-dialog-button.tsx";

const demoDialog = lazyDialog(() => import("./demo-dialog.tsx"), DEMO_PAGE_ROUTE);

export function WatchDemoButton({
  size = "lg",
  variant = "outline",
  className,
}: {
  size?: "default" | "lg";
  variant?: "default" | "outline" | "inverse";
  className?: string;
}) {
  return (
    <LazyDialogButton dialog={demoDialog} size={size} variant={variant} className={className}>
      <Icon name="play" />
      Watch Demo
    </LazyDialogButton>
  );
}
