// The site's "icon tile, heading, text" item (features, pains, values, reasons, what to expect,
// troubleshooting tips): one tile size, one heading size and weight everywhere. The section
// chooses the tile's colour, whether the tile sits above the text or beside it, and the frame.
import type * as React from "react";
import { Icon, type IconName } from "../components/ui/icon.tsx";
import { cn } from "../lib/cn.ts";

const TONES = {
  soft: "bg-secondary text-primary",
  solid: "bg-primary text-white",
  accent: "bg-teal-50 text-accent",
  "accent-solid": "bg-accent text-white",
  warning: "bg-amber-50 text-amber-800",
} as const;

type IconItemProps = {
  icon: IconName;
  title: string;
  description: React.ReactNode;
  tone?: keyof typeof TONES;
  /** Tile above the text, or beside it; responsive classes (`md:flex-col`) switch it per width. */
  layout?: "stacked" | "row";
  as?: "li" | "div";
  /** The frame (card border, padding, background) and layout changes per width. */
  className?: string;
};

export function IconItem({
  icon,
  title,
  description,
  tone = "soft",
  layout = "stacked",
  as: Tag = "li",
  className,
}: IconItemProps) {
  return (
    <Tag className={cn("flex gap-5", layout === "stacked" ? "flex-col" : "flex-row", className)}>
      <span
        aria-hidden="true"
        className={cn("grid size-11 shrink-0 place-items-center rounded-xl", TONES[tone])}
      >
        <Icon name={icon} />
      </span>
      <div>
        <h3 className="text-lg font-semibold text-ink">{title}</h3>
        <p className="mt-2 leading-7 text-slate-700">{description}</p>
      </div>
    </Tag>
  );
}

/** The frame most items sit in: a white card. */
export const ITEM_CARD = "rounded-2xl border border-border bg-white p-6 shadow-sm";
