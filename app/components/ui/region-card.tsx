import type * as React from "react";
import { useEffect, useId, useRef } from "react";
import { cn } from "../../lib/cn.ts";
import { Card } from "./card.tsx";

/**
 * A card that is a landmark region named by its heading, with an optional line under the heading.
 * With `takeFocus`, the heading takes the focus when the card appears, so a step that replaces
 * another is announced and the keyboard starts there.
 */
export function RegionCard({
  title,
  description,
  takeFocus = false,
  className,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  takeFocus?: boolean;
  className?: string;
  children?: React.ReactNode;
}) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) heading.current?.focus();
  }, [takeFocus]);
  return (
    <Card
      data-slot="region-card"
      role="region"
      aria-labelledby={id}
      className={cn("grid gap-5 p-5 sm:p-8", className)}
    >
      <div>
        <h2
          id={id}
          ref={heading}
          tabIndex={takeFocus ? -1 : undefined}
          className="text-lg font-semibold text-ink outline-none"
        >
          {title}
        </h2>
        {description ? (
          <p className="mt-1 text-sm leading-6 text-slate-700">{description}</p>
        ) : null}
      </div>
      {children}
    </Card>
  );
}
