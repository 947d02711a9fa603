// Island "product-tour": the product tour's steps. Rendered at build time as an ordered list of
// every step (readable without JavaScript, each step reachable by its anchor); once hydrated it
// shows one step at a time as tabs with Previous and Next buttons. Arrow keys, Home and End move
// between the tabs; Previous and Next keep the focus and say which step is shown. The step's
// entrance animation stops for people who prefer reduced motion (app.css), and so does scrolling.
import { type KeyboardEvent, useId, useRef, useState, useSyncExternalStore } from "react";
import { cn } from "../../lib/cn.ts";
import { Button } from "../ui/button.tsx";
import { GlowFrame } from "../ui/glow-frame.tsx";
import { Icon } from "../ui/icon.tsx";
import { Mockup } from "../ui/mockup.tsx";
import { Tab } from "../ui/tabs.tsx";

type TourStepView = {
  id: string;
  title: string;
  summary: string;
  points: string[];
  image: { src: string; alt: string; width: number; height: number };
};

const stepLabel = (index: number, total: number) => `Step ${index + 1} of ${total}`;

/** The look shared by the step links (no JavaScript) and the tabs. */
const stepTab =
  "flex h-full w-full items-start gap-3 rounded-xl border px-3 py-3 text-left text-sm font-semibold leading-5 transition-colors";
const stepTabIdle =
  "border-border bg-white text-slate-700 hover:border-indigo-200 hover:bg-indigo-50";
const stepTabCurrent = "border-primary bg-primary text-white shadow-sm";
const stepTabs = "grid grid-cols-1 gap-2 sm:grid-cols-5";

function StepNumber({ index, current }: { index: number; current: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "grid size-6 shrink-0 place-items-center rounded-full text-xs font-bold",
        current ? "bg-white text-primary" : "bg-secondary text-primary",
      )}
    >
      {index + 1}
    </span>
  );
}

function StepBody({ step, index, total }: { step: TourStepView; index: number; total: number }) {
  return (
    <div className="grid items-center gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:gap-12">
      <div>
        <p className="text-sm font-semibold tracking-wide text-primary uppercase">
          {stepLabel(index, total)}
        </p>
        <h2 className="mt-2 text-2xl font-bold tracking-tight text-ink sm:text-3xl">
          {step.title}
        </h2>
        <p className="mt-4 text-base leading-7 text-slate-700 sm:text-lg sm:leading-8">
          {step.summary}
        </p>
        <ul className="mt-5 space-y-3">
          {step.points.map((point) => (
            <li key={point} className="flex gap-3 leading-7 text-slate-800">
              <Icon name="check" className="mt-1 size-5 shrink-0 text-accent" />
              <span>{point}</span>
            </li>
          ))}
        </ul>
      </div>
      <GlowFrame asChild>
        <figure>
          <Mockup
            image={step.image}
            loading={index === 0 ? "eager" : "lazy"}
            decoding={index === 0 ? undefined : "async"}
            className="block aspect-[779/484] h-auto w-full rounded-lg bg-indigo-50 object-contain"
          />
        </figure>
      </GlowFrame>
    </div>
  );
}

/** Without JavaScript: links to every step, then every step in order. */
function TourList({ steps }: { steps: TourStepView[] }) {
  return (
    <>
      <nav aria-label="Tour steps">
        <ol className={stepTabs}>
          {steps.map((step, index) => (
            <li key={step.id}>
              <a href={`#step-${step.id}`} className={cn(stepTab, stepTabIdle)}>
                <StepNumber index={index} current={false} />
                {step.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <ol className="mt-8 space-y-16 sm:mt-10">
        {steps.map((step, index) => (
          <li key={step.id} id={`step-${step.id}`}>
            <StepBody step={step} index={index} total={steps.length} />
          </li>
        ))}
      </ol>
    </>
  );
}

const noSubscription = () => () => {};

export function ProductTour({ steps }: { steps: TourStepView[] }) {
  // False while the build's HTML is hydrated, true right after: the list the page was built with
  // stays until the tour's code runs, then the tabs take over.
  const enhanced = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  // A link to a step (#step-<id>) opens that step.
  const hash = useSyncExternalStore(
    noSubscription,
    () => window.location.hash,
    () => "",
  );
  const [chosen, setChosen] = useState<number | null>(null);
  const [announced, setAnnounced] = useState("");
  const rootRef = useRef<HTMLDivElement>(null);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const id = useId();
  const total = steps.length;
  const current =
    chosen ??
    Math.max(
      0,
      steps.findIndex((s) => `#step-${s.id}` === hash),
    );

  const step = steps[current];
  if (!enhanced || !step) {
    return (
      <div ref={rootRef}>
        <TourList steps={steps} />
      </div>
    );
  }

  /** Shows step `index`; `focusTab` moves the focus to its tab (arrow keys in the tab list). */
  function show(index: number, { focusTab = false } = {}) {
    const next = (index + total) % total;
    setChosen(next);
    if (focusTab) tabRefs.current[next]?.focus();
    else setAnnounced(`${stepLabel(next, total)}: ${steps[next]!.title}`);
    // Bring the tour's top back into view when it scrolled away (the CSS scroll behaviour is
    // smooth, and instant for reduced motion).
    const top = rootRef.current?.getBoundingClientRect().top ?? 0;
    if (top < 0) rootRef.current?.scrollIntoView({ block: "start" });
  }

  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const moves: Record<string, number> = {
      ArrowRight: current + 1,
      ArrowDown: current + 1,
      ArrowLeft: current - 1,
      ArrowUp: current - 1,
      Home: 0,
      End: total - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    show(target, { focusTab: true });
  }

  const atStart = current === 0;
  const atEnd = current === total - 1;
  const tabId = (i: number) => `${id}-tab-${i}`;
  const panelId = `${id}-panel`;

  return (
    <div ref={rootRef} data-tour-enhanced="">
      <div role="tablist" aria-label="Tour steps" className={stepTabs}>
        {steps.map((s, index) => {
          const selected = index === current;
          return (
            <Tab
              key={s.id}
              ref={(el) => {
                tabRefs.current[index] = el;
              }}
              selected={selected}
              panelId={panelId}
              id={tabId(index)}
              onClick={() => show(index)}
              onKeyDown={onTabKeyDown}
              className={cn(stepTab, selected ? stepTabCurrent : stepTabIdle)}
            >
              <StepNumber index={index} current={selected} />
              {s.title}
            </Tab>
          );
        })}
      </div>
      <div
        key={step.id}
        role="tabpanel"
        id={panelId}
        aria-labelledby={tabId(current)}
        tabIndex={0}
        className="mt-8 animate-tour-step rounded-2xl sm:mt-10"
      >
        <StepBody step={step} index={current} total={total} />
      </div>
      <div className="mt-8 flex items-center justify-between gap-4">
        <Button
          type="button"
          variant="outline"
          size="lg"
          aria-disabled={atStart}
          onClick={() => !atStart && show(current - 1)}
          className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
        >
          <Icon name="chevron-left" />
          <span>
            Previous<span className="sr-only"> step</span>
          </span>
        </Button>
        <Button
          type="button"
          size="lg"
          aria-disabled={atEnd}
          onClick={() => !atEnd && show(current + 1)}
          className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
        >
          <span>
            Next<span className="sr-only"> step</span>
          </span>
          <Icon name="chevron-right" />
        </Button>
      </div>
      <p role="status" className="sr-only">
        {announced}
      </p>
    </div>
  );
}
