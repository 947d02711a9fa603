import type * as React from "react";
import { Container } from "../../components/layout/container.tsx";

/**
 * The frame of the signed-in pages: their h1 and lead over a single column of settings (the
 * account page), or over the full width of the container (`wide`: the team's tables).
 */
export function AccountFrame({
  title,
  lead,
  wide = false,
  children,
}: {
  title: string;
  lead: string;
  wide?: boolean;
  children: React.ReactNode;
}) {
  return (
    <section className="bg-gradient-to-b from-indigo-50/80 via-white to-white">
      <Container className={wide ? "py-10 sm:py-14" : "max-w-3xl py-10 sm:py-16"}>
        <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">{title}</h1>
        <p className="mt-3 text-lg leading-8 text-slate-700">{lead}</p>
        <div className="mt-8">{children}</div>
      </Container>
    </section>
  );
}
