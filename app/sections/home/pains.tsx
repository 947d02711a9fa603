import { Container } from "../../components/layout/container.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import type { Pain } from "../../content/types.ts";
import { SectionHeading } from "../section-heading.tsx";

/** "Sell like it's 2025": the four chores Revwise takes away, as a grid of cards. */
export function Pains({ title, lead, pains }: { title: string; lead: string; pains: Pain[] }) {
  return (
    <section aria-labelledby="pains-title" className="py-20 sm:py-28">
      <Container>
        <SectionHeading
          id="pains-title"
          title={title}
          lead={lead}
          className="[&_h2]:text-balance"
        />
        <ul className="mx-auto mt-14 grid max-w-5xl gap-6 md:grid-cols-2">
          {pains.map((pain) => (
            <li key={pain.title} className="flex">
              <Card className="flex w-full flex-col gap-4 transition-shadow hover:shadow-md sm:flex-row sm:gap-5">
                <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-secondary text-primary ring-1 ring-indigo-100">
                  <Icon name={pain.icon} className="size-6" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-ink">{pain.title}</h3>
                  <p className="mt-2 leading-7 text-slate-700">{pain.description}</p>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
