// "Watch Demo": opens the demo dialog (business email → the demo video by email), loaded on first use.
import { lazy, Suspense, useState } from "react";
import { Button } from "../components/ui/button.tsx";
import { Icon } from "../components/ui/icon.tsx";

const loadDialog = () => import("./demo-dialog.tsx");
const DemoDialog = lazy(loadDialog);

export function WatchDemoButton({
  size = "lg",
  variant = "outline",
  className,
}: {
  size?: "default" | "lg";
  variant?: "default" | "outline" | "inverse";
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  return (
    <>
      <Button
        size={size}
        variant={variant}
        className={className}
        aria-haspopup="dialog"
        onPointerEnter={loadDialog}
        onFocus={loadDialog}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <Icon name="play" />
        Watch Demo
      </Button>
      {used && (
        <Suspense fallback={null}>
          <DemoDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
