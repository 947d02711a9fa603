import { ExternalLink } from "../../components/layout/external-link.tsx";
import type { IconName } from "../../components/ui/icon.tsx";
import { bookDemoUrl } from "../../content/site.ts";
import { IconItem } from "../icon-item.tsx";

const EXPECT: { icon: IconName; title: string; description: string }[] = [
  {
    icon: "calendar",
    title: "A 30-minute walkthrough on your own process",
    description:
      "We connect a calendar and a sandbox CRM and capture a real call, so you see Revwise on your own sales process rather than a scripted tour.",
  },
  {
    icon: "users",
    title: "Answers for the whole team",
    description:
      "Bring your sales manager or RevOps lead: we cover CRM field mapping, permissions, recording consent and security.",
  },
  {
    icon: "clock",
    title: "A reply within one business day",
    description:
      "A person on our Seattle team reads your request and confirms a time that suits you, usually within one business day.",
  },
];

/** The Request Demo page's side column: what the demo looks like. */
export function WhatToExpect() {
  return (
    <section aria-labelledby="expect-title">
      <h2 id="expect-title" className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">
        What to expect
      </h2>
      <ol role="list" className="mt-8 space-y-8">
        {EXPECT.map((point) => (
          <IconItem key={point.title} layout="row" {...point} />
        ))}
      </ol>
      <div className="mt-10 rounded-2xl border border-border bg-slate-50 p-5 text-slate-700">
        <p className="font-semibold text-ink">Prefer to pick a time yourself?</p>
        <p className="mt-1 text-sm leading-6">
          Choose a slot on our scheduling page and skip the form.{" "}
          <ExternalLink
            href={bookDemoUrl}
            className="inline-flex items-center gap-1 font-semibold text-primary underline underline-offset-4 hover:text-indigo-900"
          >
            Book Demo
          </ExternalLink>
        </p>
      </div>
    </section>
  );
}
