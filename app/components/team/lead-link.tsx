// A link to one lead's page in the workspace: a real link (its place in the URL's fragment), which
// opens the lead in place.
import type * as React from "react";
import { cn } from "../../lib/cn.ts";

export function LeadLink({
  id,
  onLead,
  className,
  children,
}: {
  id: string;
  onLead: (id: string) => void;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <a
      href={`#inbox/lead/${id}`}
      onClick={(e) => {
        e.preventDefault();
        onLead(id);
      }}
      className={cn("font-semibold text-primary underline-offset-4 hover:underline", className)}
    >
      {children}
    </a>
  );
}
