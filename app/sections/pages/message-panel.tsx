import type * as React from "react";
import { Container } from "../../components/layout/container.tsx";
import { Icon, type IconName } from "../../components/ui/icon.tsx";

/** A centered message page (404s): an icon, an eyebrow, the page's h1, a sentence, then links. */
export function MessagePanel({
  icon,
  eyebrow,
  title,
  text,
  children,
}: {
  icon: IconName;
  eyebrow: string;
  title: string;
  text: string;
  children?: React.ReactNode;
}) {
  return (
    <section className="relative isolate overflow-hidden bg-gradient-to-b from-indigo-50/70 to-white">
      <div
        aria-hidden="true"
        className="absolute top-10 left-1/2 -z-10 size-[28rem] -translate-x-1/2 rounded-full bg-radial from-indigo-200/30 to-transparent to-70%"
      />
      <Container className="py-20 text-center sm:py-28">
        <span className="mx-auto grid size-16 place-items-center rounded-2xl bg-white text-primary shadow-md ring-1 ring-border">
          <Icon name={icon} className="size-7" />
        </span>
        <p className="mt-6 text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
        <h1 className="mt-3 text-4xl font-bold tracking-tight text-ink sm:text-5xl">{title}</h1>
        <p className="mx-auto mt-5 max-w-xl text-lg leading-8 text-slate-700">{text}</p>
        {children}
      </Container>
    </section>
  );
}

export type LinkCardProps = { href: string; icon: IconName; label: string; description: string };

/** The links under a message: a grid of cards, up to three in a row. */
export function LinkCards({ cards }: { cards: LinkCardProps[] }) {
  return (
    <Container className="pb-20 sm:pb-28">
      <ul role="list" className="mx-auto grid max-w-4xl gap-4 sm:grid-cols-3">
        {cards.map((card) => (
          <LinkCard key={card.href} {...card} />
        ))}
      </ul>
    </Container>
  );
}

/** A link shown as a card in a grid: icon, label (the link's name) and a line of description. */
export function LinkCard({ href, icon, label, description }: LinkCardProps) {
  return (
    <li className="group relative flex gap-4 rounded-2xl border border-border bg-white p-5 text-left shadow-sm transition hover:-translate-y-0.5 hover:border-indigo-200 hover:shadow-md">
      <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-secondary text-primary">
        <Icon name={icon} />
      </span>
      <span>
        <a
          href={href}
          className="font-semibold text-ink after:absolute after:inset-0 after:rounded-2xl after:content-[''] group-hover:text-primary"
        >
          {label}
        </a>
        <span className="mt-1 block text-sm leading-6 text-slate-600">{description}</span>
      </span>
    </li>
  );
}
