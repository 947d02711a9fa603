import type * as React from "react";
import { Card } from "../../components/ui/card.tsx";
import { cn } from "../../lib/cn.ts";

/** The frame of a form island: a raised card with an accent edge, a heading and a short lead. */
export function FormCard({
  title,
  lead,
  titleId,
  children,
  className,
}: {
  title: string;
  lead?: string;
  titleId: string;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <Card
      className={cn(
        "relative overflow-hidden p-6 shadow-xl shadow-indigo-950/5 sm:p-8",
        "before:absolute before:inset-x-0 before:top-0 before:h-1 before:bg-gradient-to-r before:from-primary before:to-accent",
        className,
      )}
    >
      <section aria-labelledby={titleId}>
        <h2 id={titleId} className="text-2xl font-bold tracking-tight text-ink">
          {title}
        </h2>
        {lead && <p className="mt-2 text-slate-700">{lead}</p>}
        <div className="mt-6">{children}</div>
      </section>
    </Card>
  );
}
