// "Watch Demo": opens the demo dialog (business email → the demo video by email).
import { Button } from "../components/ui/button.tsx";
import { Icon } from "../components/ui/icon.tsx";

export function WatchDemoButton({ size = "lg", variant = "outline", className }: { size?: "default" | "lg"; variant?: "default" | "outline" | "inverse"; className?: string }) {
  return (
    <Button size={size} variant={variant} className={className}>
      <Icon name="play" />
      Watch Demo
    </Button>
  );
}
