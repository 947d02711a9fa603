// The site's icons: 24×24 stroke glyphs drawn for Revwise (decorative unless given a label).
import type * as React from "react";
import type { IconName as ContentIconName } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";

const PATHS = {
  keyboard: "M3 7h18v10H3zM7 11h.01M11 11h.01M15 11h.01M7 14h10",
  refresh: "M20 11a8 8 0 0 0-14.3-4.9L4 8M4 4v4h4M4 13a8 8 0 0 0 14.3 4.9L20 16M20 20v-4h-4",
  clipboard: "M9 4h6v3H9zM7 5H5v15h14V5h-2M9 12h6M9 16h4",
  brain:
    "M9 4a3 3 0 0 0-3 3 3 3 0 0 0-2 5 3 3 0 0 0 2 5 3 3 0 0 0 6 0V4.5A2.5 2.5 0 0 0 9 4zM15 4a3 3 0 0 1 3 3 3 3 0 0 1 2 5 3 3 0 0 1-2 5 3 3 0 0 1-6 0",
  mic: "M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM5 11a7 7 0 0 0 14 0M12 18v3",
  sparkles:
    "M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8zM19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8zM5 3l.6 1.4L7 5l-1.4.6L5 7l-.6-1.4L3 5l1.4-.6z",
  chart: "M4 20V4M4 20h16M8 16v-4M12 16V8M16 16v-6M20 16V6",
  shield: "M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6zM9 12l2 2 4-4",
  users:
    "M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M16 3.5a4 4 0 0 1 0 7M22 21a7 7 0 0 0-4-6.3",
  calendar: "M4 6h16v14H4zM4 10h16M8 3v5M16 3v5M8 14h2M14 14h2M8 17h2",
  target:
    "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10zM12 13a1 1 0 1 0 0-2 1 1 0 0 0 0 2z",
  message: "M4 5h16v11H9l-5 4zM8 9h8M8 12h5",
  "chevron-left": "M15 18l-6-6 6-6",
  "chevron-right": "M9 6l6 6-6 6",
  "chevron-down": "M6 9l6 6 6-6",
  "arrow-right": "M5 12h14M13 6l6 6-6 6",
  x: "M6 6l12 12M18 6L6 18",
  check: "M5 12l5 5L20 7",
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0",
  mail: "M3 6h18v12H3zM3 7l9 6 9-6",
  phone:
    "M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z",
  "map-pin":
    "M12 21s-7-6.1-7-12a7 7 0 0 1 14 0c0 5.9-7 12-7 12zM12 12a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
  clock: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2",
  play: "M8 5v14l11-7z",
  send: "M4 12l16-8-6 16-2-7zM12 13l8-9",
  linkedin:
    "M4 9h4v11H4zM6 4a2 2 0 1 1 0 4 2 2 0 0 1 0-4zM10 9h4v1.6c.6-1 1.9-1.9 3.6-1.9 3 0 3.4 2 3.4 4.6V20h-4v-5.6c0-1.3 0-3-1.8-3s-2.2 1.4-2.2 2.9V20h-4z",
  quote:
    "M10 7H6a2 2 0 0 0-2 2v3a2 2 0 0 0 2 2h2v3l3-3V9a2 2 0 0 0-1-2zM20 7h-4a2 2 0 0 0-2 2v3a2 2 0 0 0 2 2h2v3l3-3V9a2 2 0 0 0-1-2z",
  loader: "M12 3a9 9 0 1 0 9 9",
  external: "M14 4h6v6M20 4l-9 9M18 14v6H4V6h6",
  zap: "M13 2L4 14h7l-1 8 9-12h-7z",
  star: "M12 3l2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3 6.4 20.2l1.1-6.2L3 9.6l6.2-.9z",
} as const;

export type IconName = keyof typeof PATHS;

// Every icon a content module can name exists here.
const _contentIconsExist: Record<ContentIconName, IconName> = {
  keyboard: "keyboard",
  refresh: "refresh",
  clipboard: "clipboard",
  brain: "brain",
  mic: "mic",
  sparkles: "sparkles",
  chart: "chart",
  shield: "shield",
  users: "users",
  calendar: "calendar",
  target: "target",
  message: "message",
};
void _contentIconsExist;

const FILLED = new Set<IconName>(["play", "linkedin", "star"]);

export function Icon({
  name,
  label,
  className,
  ...props
}: { name: IconName; label?: string } & React.ComponentProps<"svg">) {
  const filled = FILLED.has(name);
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill={filled ? "currentColor" : "none"}
      stroke={filled ? "none" : "currentColor"}
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
      className={cn("size-5 shrink-0", name === "loader" && "animate-spin", className)}
      {...props}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
