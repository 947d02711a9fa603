// The "contacts" mock-up of the product overview: a CRM-like card listing contacts with their
// company, deal stage, sentiment and last touch. Static.
import { Badge } from "../../components/ui/badge.tsx";
import type { OverviewContact } from "../../content/products.ts";
import { cn } from "../../lib/cn.ts";
import { WindowDots } from "./window-dots.tsx";

const SENTIMENT = {
  positive: { label: "Positive", variant: "accent", dot: "bg-teal-600" },
  neutral: { label: "Neutral", variant: "outline", dot: "bg-slate-400" },
  "at risk": { label: "At risk", variant: "danger", dot: "bg-rose-600" },
} as const;

const initials = (name: string) =>
  name
    .split(" ")
    .map((part) => part[0])
    .join("")
    .slice(0, 2);

const AVATAR_TONES = [
  "bg-indigo-100 text-indigo-800",
  "bg-teal-100 text-teal-800",
  "bg-amber-100 text-amber-900",
  "bg-sky-100 text-sky-900",
];

export function ContactsCard({
  contacts,
  className,
}: {
  contacts: OverviewContact[];
  className?: string;
}) {
  return (
    <div
      className={cn(
        "overflow-hidden rounded-2xl border border-border bg-white shadow-xl shadow-indigo-950/10",
        className,
      )}
    >
      <div className="flex items-center justify-between gap-3 border-b border-border px-5 py-4">
        <div>
          <h3 className="text-base font-semibold text-ink">Contacts</h3>
          <p className="text-xs text-slate-600">
            {contacts.length} contacts · updated from every conversation
          </p>
        </div>
        <WindowDots />
      </div>
      <ul className="divide-y divide-border">
        {contacts.map((contact, i) => {
          const sentiment = SENTIMENT[contact.sentiment];
          return (
            <li key={contact.name} className="flex gap-3 px-5 py-4">
              <span
                aria-hidden="true"
                className={cn(
                  "grid size-10 shrink-0 place-items-center rounded-full text-sm font-semibold",
                  AVATAR_TONES[i % AVATAR_TONES.length],
                )}
              >
                {initials(contact.name)}
              </span>
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
                  <p className="font-semibold text-ink">{contact.name}</p>
                  <Badge variant={sentiment.variant} className="gap-1.5">
                    <span
                      aria-hidden="true"
                      className={cn("size-1.5 rounded-full", sentiment.dot)}
                    />
                    <span className="sr-only">Sentiment: </span>
                    {sentiment.label}
                  </Badge>
                </div>
                <p className="text-sm text-slate-700">
                  {contact.title}, {contact.company}
                </p>
                <dl className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600">
                  <div className="flex items-center gap-1.5">
                    <dt className="sr-only">Stage</dt>
                    <dd className="rounded-md bg-secondary px-2 py-0.5 font-medium text-secondary-foreground">
                      {contact.stage}
                    </dd>
                  </div>
                  <div className="flex items-center gap-1">
                    <dt>Last touch:</dt>
                    <dd>{contact.lastTouch}</dd>
                  </div>
                </dl>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
