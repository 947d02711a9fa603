import { Container } from "../../components/layout/container.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import type { Point } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";
import { IconItem, ITEM_CARD } from "../icon-item.tsx";

/** Splits two phrases into the words they share at the start and the word(s) that differ. */
function split(before: string, after: string) {
  const a = before.split(" ");
  const b = after.split(" ");
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return { common: a.slice(0, n).join(" "), from: a.slice(n).join(" "), to: b.slice(n).join(" ") };
}

const POINT_ICONS = ["message", "check", "users"] as const;

/**
 * "Customer Relationship Management → Customer Relationship Memory": "Management" is struck out
 * and turns into "Memory", then the three things Revwise remembers.
 */
export function Memory({
  before,
  after,
  lead,
  points,
}: {
  before: string;
  after: string;
  lead: string;
  points: Point[];
}) {
  const { common, from, to } = split(before, after);
  return (
    <section
      aria-labelledby="memory-title"
      className="relative isolate overflow-hidden py-20 sm:py-28"
    >
      <div
        aria-hidden="true"
        className="absolute top-0 left-1/2 -z-10 h-80 w-[56rem] -translate-x-1/2 rounded-full bg-radial from-indigo-100/60 to-transparent to-70%"
      />
      <Container>
        <div className="mx-auto max-w-4xl text-center">
          <h2 id="memory-title" className="text-3xl font-bold tracking-tight text-ink sm:text-5xl">
            <span className="block">{common}</span>{" "}
            <span className="mt-2 flex flex-col items-center justify-center gap-x-4 gap-y-1 sm:mt-4 sm:flex-row">
              <s className="text-slate-500 decoration-rose-500/80 decoration-[3px]">{from}</s>{" "}
              <span className="sr-only">, now {common} </span>
              <Icon
                name="arrow-right"
                className="size-7 rotate-90 text-slate-500 sm:size-9 sm:rotate-0"
              />
              <span className="bg-gradient-to-r from-indigo-700 to-teal-700 bg-clip-text text-transparent">
                {to}
              </span>
            </span>
          </h2>
          <p className="mx-auto mt-8 max-w-2xl text-lg leading-8 text-slate-700">{lead}</p>
        </div>
        <ul className="mt-14 grid gap-6 lg:grid-cols-3">
          {points.map((point, i) => (
            <IconItem
              key={point.title}
              icon={POINT_ICONS[i % POINT_ICONS.length] ?? "check"}
              tone="solid"
              title={point.title}
              description={point.description}
              className={cn(ITEM_CARD, "bg-white/90 md:flex-row lg:flex-col")}
            />
          ))}
        </ul>
      </Container>
    </section>
  );
}
