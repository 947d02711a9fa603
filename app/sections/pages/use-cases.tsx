import { Container } from "../../components/layout/container.tsx";
import { Icon, type IconName } from "../../components/ui/icon.tsx";
import type { UseCase } from "../../content/use-cases.ts";
import { BeforeAfterColumn } from "../products/before-after.tsx";

const PERSONA_ICONS: IconName[] = ["target", "users", "chart", "clipboard"];

/** Chips under the hero that jump to each persona on the page. */
export function UseCaseNav({ useCases }: { useCases: UseCase[] }) {
  return (
    <nav aria-label="Use cases on this page" className="mt-8">
      <ul role="list" className="flex flex-wrap gap-2">
        {useCases.map((uc, i) => (
          <li key={uc.id}>
            <a
              href={`#${uc.id}`}
              className="inline-flex h-10 items-center gap-2 rounded-full border border-border bg-white px-4 text-sm font-semibold text-slate-700 shadow-xs hover:border-indigo-200 hover:text-primary"
            >
              <Icon
                name={PERSONA_ICONS[i % PERSONA_ICONS.length]!}
                className="size-4 text-primary"
              />
              {uc.persona}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** One persona: what the week looks like before Revwise, with it, and the outcome. */
function UseCaseCard({ useCase, index }: { useCase: UseCase; index: number }) {
  const titleId = `${useCase.id}-title`;
  return (
    <section
      id={useCase.id}
      aria-labelledby={titleId}
      className="scroll-mt-24 rounded-3xl border border-border bg-white p-5 shadow-sm sm:p-10"
    >
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.6fr)] lg:gap-12">
        <div>
          <p className="inline-flex items-center gap-2 text-sm font-semibold tracking-wide text-primary uppercase">
            <span className="grid size-9 place-items-center rounded-xl bg-secondary">
              <Icon name={PERSONA_ICONS[index % PERSONA_ICONS.length]!} className="size-5" />
            </span>
            {useCase.persona}
          </p>
          <h2 id={titleId} className="mt-4 text-3xl font-bold tracking-tight text-ink">
            {useCase.title}
          </h2>
          <p className="mt-4 text-lg leading-8 text-slate-700">{useCase.summary}</p>
        </div>
        <div>
          <div className="grid gap-4 md:grid-cols-2">
            <BeforeAfterColumn title="Before Revwise" items={useCase.before} tone="before" />
            <BeforeAfterColumn title="With Revwise" items={useCase.withRevwise} tone="after" />
          </div>
          <div className="mt-4 flex gap-4 rounded-2xl border border-indigo-100 bg-indigo-50 p-5 sm:p-6">
            <span className="hidden size-9 shrink-0 place-items-center rounded-xl bg-primary text-white sm:grid">
              <Icon name="star" className="size-4" />
            </span>
            <p className="leading-7 text-slate-700">
              <strong className="font-semibold text-ink">The outcome: </strong>
              {useCase.outcome}
            </p>
          </div>
        </div>
      </div>
    </section>
  );
}

export function UseCaseList({ useCases }: { useCases: UseCase[] }) {
  return (
    <Container className="space-y-8 py-12 sm:py-16">
      {useCases.map((uc, i) => (
        <UseCaseCard key={uc.id} useCase={uc} index={i} />
      ))}
    </Container>
  );
}
