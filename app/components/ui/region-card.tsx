import type * as React from "react";
import { useEffect, useId, useRef } from "react";
import { cn } from "../../lib/cn.ts";
import { Card } from "./card.tsx";

/**
 * A step's heading, with an optional line under it. With `takeFocus`, the heading takes the focus
 * when it appears, so a step that replaces another is announced and the keyboard starts there.
 */
export function StepHeading({
  title,
  description,
  takeFocus = false,
  id,
  descriptionId,
}: {
  title: string;
  description?: React.ReactNode;
  takeFocus?: boolean;
  /** The heading's id, for what it names. */
  id?: string;
  /** The line's id, for what it describes. */
  descriptionId?: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) heading.current?.focus();
  }, [takeFocus]);
  return (
    <div data-slot="step-heading">
      <h2
        id={id}
        ref={heading}
        tabIndex={takeFocus ? -1 : undefined}
        className="text-lg font-semibold text-ink outline-none"
      >
        {title}
      </h2>
      {description ? (
        <p id={descriptionId} className="mt-1 text-sm leading-6 text-slate-700">
          {description}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A card that is a landmark region named by its heading (a StepHeading: an optional line under
 * it, and with `takeFocus` the focus when the card appears).
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
  return (
    <Card
      data-slot="region-card"
      role="region"
      aria-labelledby={id}
      className={cn("grid gap-5 p-5 sm:p-8", className)}
    >
      <StepHeading id={id} title={title} description={description} takeFocus={takeFocus} />
      {children}
    </Card>
  );
}
