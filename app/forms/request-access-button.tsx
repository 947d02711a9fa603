// "Request Access": opens the request-access dialog, whose code (form, captcha) loads on first use.
import { lazy, Suspense, useState } from "react";
import { Button } from "../components/ui/button.tsx";

const loadDialog = () => import("./request-access-dialog.tsx");
const RequestAccessDialog = lazy(loadDialog);

export function RequestAccessButton({
  size = "default",
  variant = "default",
  className,
}: {
  size?: "default" | "lg";
  variant?: "default" | "inverse" | "outline";
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
        Request Access
      </Button>
      {used && (
        <Suspense fallback={null}>
          <RequestAccessDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
