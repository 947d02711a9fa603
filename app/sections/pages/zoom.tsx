import { Icon } from "../../components/ui/icon.tsx";
import type { ZoomGuide } from "../../content/zoom.ts";
import { IconItem, ITEM_CARD } from "../icon-item.tsx";

/** The connection steps: a numbered list with large step numbers joined by a line. */
export function ZoomSteps({ steps }: { steps: ZoomGuide["steps"] }) {
  return (
    <section aria-labelledby="steps-title">
      <h2 id="steps-title" className="text-3xl font-bold tracking-tight text-ink">
        Connect in {steps.length} steps
      </h2>
      <ol role="list" className="mt-8">
        {steps.map((step, i) => (
          <li key={step.title} className="relative flex gap-5 pb-10 last:pb-0 sm:gap-6">
            {i < steps.length - 1 && (
              <span
                aria-hidden="true"
                className="absolute top-14 bottom-0 left-7 w-px -translate-x-1/2 bg-indigo-200"
              />
            )}
            <span
              aria-hidden="true"
              className="relative grid size-14 shrink-0 place-items-center rounded-2xl bg-primary text-2xl font-bold text-white shadow-md shadow-indigo-900/20"
            >
              {i + 1}
            </span>
            <div className="pt-1">
              <h3 className="text-xl font-bold text-ink">
                <span className="sr-only">Step {i + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-2 max-w-2xl leading-7 text-slate-700">{step.description}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function ZoomTroubleshooting({ items }: { items: ZoomGuide["troubleshooting"] }) {
  return (
    <section aria-labelledby="troubleshooting-title" className="mt-16">
      <h2 id="troubleshooting-title" className="text-3xl font-bold tracking-tight text-ink">
        Troubleshooting
      </h2>
      <ul role="list" className="mt-8 grid gap-4">
        {items.map((item) => (
          <IconItem
            key={item.title}
            icon="zap"
            tone="warning"
            layout="row"
            title={item.title}
            description={item.description}
            className={ITEM_CARD}
          />
        ))}
      </ul>
    </section>
  );
}

/** The side column: what you need before you start, and where to read more. */
export function ZoomAside() {
  const link =
    "inline-flex min-h-9 items-center gap-1.5 rounded-lg font-semibold text-primary hover:text-indigo-900";
  return (
    <aside
      aria-labelledby="before-title"
      className="lg:sticky lg:top-24 lg:col-start-2 lg:row-start-1 lg:self-start"
    >
      <div className="rounded-2xl border border-border bg-slate-50 p-6">
        <h2 id="before-title" className="text-lg font-bold text-ink">
          Before you start
        </h2>
        <ul role="list" className="mt-4 space-y-3 text-slate-700">
          {[
            "A Revwise account (use Request Access or Book Demo if your team has none yet)",
            "The Zoom account you use for customer meetings",
            "Your Zoom admin's approval, if your company restricts Zoom apps",
          ].map((item) => (
            <li key={item} className="flex gap-3">
              <Icon name="check" className="mt-0.5 size-5 text-accent" />
              <span className="leading-6">{item}</span>
            </li>
          ))}
        </ul>
        <div className="mt-6 border-t border-border pt-5">
          <p className="text-sm font-semibold text-slate-600">Read more</p>
          <ul role="list" className="mt-2 space-y-1">
            <li>
              <a href="/documentation" className={link}>
                Revwise documentation
                <Icon name="arrow-right" className="size-4" />
              </a>
            </li>
            <li>
              <a href="/resources/integrations" className={link}>
                All integrations
                <Icon name="arrow-right" className="size-4" />
              </a>
            </li>
          </ul>
        </div>
      </div>
    </aside>
  );
}
