import { Container } from "../../components/layout/container.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import type { Integration } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";

/** Extra links some tools carry (the Zoom card points to its setup guide). */
const GUIDES: Partial<Record<string, { href: string; label: string }>> = {
  Zoom: { href: "/zoom-documentation", label: "Read the Zoom setup guide" },
};

function IntegrationCard({ tool, lazy }: { tool: Integration; lazy: boolean }) {
  const guide = GUIDES[tool.name];
  return (
    <li className="flex flex-col rounded-2xl border border-border bg-white p-6 shadow-sm transition hover:border-indigo-200 hover:shadow-md">
      <div className="flex items-center gap-4">
        <span className="grid size-14 shrink-0 place-items-center rounded-xl border border-border bg-white shadow-xs">
          <img
            src={tool.logo}
            alt=""
            width={64}
            height={64}
            {...(lazy ? { loading: "lazy" as const, decoding: "async" as const } : {})}
            className="size-10"
          />
        </span>
        <h3 className="text-lg font-bold text-ink">{tool.name}</h3>
      </div>
      <p className="mt-4 flex-1 leading-7 text-slate-700">{tool.description}</p>
      {guide && (
        <a
          href={guide.href}
          className="mt-4 inline-flex min-h-9 items-center gap-1.5 self-start rounded-lg font-semibold text-primary hover:text-indigo-900"
        >
          {guide.label}
          <Icon name="arrow-right" className="size-4" />
        </a>
      )}
    </li>
  );
}

/** One group of integrations (CRM; Calendar and meetings) with a heading and a lead. */
export function IntegrationGroup({
  id,
  title,
  lead,
  tools,
  columns,
  lazy,
  className,
}: {
  id: string;
  title: string;
  lead: string;
  tools: Integration[];
  columns: 3 | 4;
  lazy: boolean;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <Container className="py-14 sm:py-16">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
          <div className="max-w-2xl">
            <h2 id={id} className="text-3xl font-bold tracking-tight text-ink">
              {title}
            </h2>
            <p className="mt-3 text-lg leading-8 text-slate-700">{lead}</p>
          </div>
          <p className="text-sm font-semibold text-slate-600">
            {tools.length} {tools.length === 1 ? "integration" : "integrations"}
          </p>
        </div>
        <ul
          role="list"
          className={cn(
            "mt-8 grid gap-6 sm:grid-cols-2",
            columns === 3 ? "lg:grid-cols-3" : "lg:grid-cols-4",
          )}
        >
          {tools.map((tool) => (
            <IntegrationCard key={tool.name} tool={tool} lazy={lazy} />
          ))}
        </ul>
      </Container>
    </section>
  );
}
