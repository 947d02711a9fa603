// Page analytics over a date range (the last 30 days unless chosen): each page's views, unique
// visitors, leads and conversion summed over the range; the sources (referring sites and UTM
// campaigns) with their views, visitors, leads of counted visitors and conversion; and views and
// leads per day as a chart with the per-day table as its text equivalent.
import { useId, useState } from "react";
import {
  conversionRate,
  countOf,
  lastDays,
  number,
  readPageStats,
  readSourceStats,
  totalsByDay,
  totalsByPath,
  type PathTotals,
} from "../../lib/team-data.ts";
import type { SourceStat } from "../../../common/workspace.ts";
import { sourcesCopy } from "../../content/team.ts";
import { DataTable, LoadState, useLoad, type Column } from "./data-table.tsx";
import { DayChart } from "./day-chart.tsx";
import { FilterDate, InvertedRange, isInverted } from "./filters.tsx";

export function AnalyticsPanel() {
  const [range, setRange] = useState(() => lastDays(30));
  const valid = range.from && range.to && !isInverted(range.from, range.to);
  return (
    <section aria-labelledby="analytics-heading" className="grid gap-4">
      <h2 id="analytics-heading" className="text-xl font-semibold text-ink">
        Analytics
      </h2>
      <p className="text-sm leading-6 text-slate-700">
        Counted without cookies: visitors are unique per day, from a salted hash that changes daily.
      </p>
      <div className="grid max-w-xl gap-3 sm:grid-cols-2">
        <FilterDate
          label="From"
          value={range.from}
          onChange={(from) => setRange((r) => ({ ...r, from }))}
        />
        <FilterDate
          label="To"
          value={range.to}
          onChange={(to) => setRange((r) => ({ ...r, to }))}
        />
      </div>
      {isInverted(range.from, range.to) ? (
        <InvertedRange />
      ) : !valid ? (
        <p role="alert" className="text-sm text-destructive">
          Choose a start date and an end date.
        </p>
      ) : (
        <Figures from={range.from} to={range.to} />
      )}
    </section>
  );
}

type Figures = { views: number; visitors: number; leads: number };

/**
 * A row's views, visitors, leads and conversion: the counted visitors who sent a form
 * (`converted`) over the visitors, so never above 100 %.
 */
const figureColumns = <T extends Figures>(converted: (row: T) => number): Column<T>[] => [
  { header: "Views", cell: (r) => number(r.views), className: "text-right" },
  { header: "Visitors", cell: (r) => number(r.visitors), className: "text-right" },
  { header: "Leads", cell: (r) => number(r.leads), className: "text-right" },
  {
    header: "Conversion",
    cell: (r) => conversionRate(converted(r), r.visitors),
    className: "text-right",
  },
];

/** The figures of a valid range: asked of the server only then. */
function Figures({ from, to }: { from: string; to: string }) {
  const { state } = useLoad(async () => {
    const [rows, sources] = await Promise.all([readPageStats(from, to), readSourceStats(from, to)]);
    return { paths: totalsByPath(rows), days: totalsByDay(rows, from, to), sources };
  }, `${from}-${to}`);
  const descriptionId = useId();
  return (
    <LoadState state={state} what="page analytics">
      {({ paths, days, sources }) => (
        <div className="grid gap-6">
          <p role="status" className="text-sm text-slate-700">
            {countOf(
              paths.reduce((s, p) => s + p.views, 0),
              ["view", "views"],
            )}{" "}
            and{" "}
            {countOf(
              paths.reduce((s, p) => s + p.leads, 0),
              ["lead", "leads"],
            )}{" "}
            on {countOf(paths.length, ["page", "pages"])}, {from} to {to}.
          </p>
          <DataTable
            caption="Pages by views over the range"
            rows={paths}
            rowKey={(r) => r.path}
            empty="No page views counted in this range."
            columns={[
              {
                header: "Page",
                cell: (r) => r.path || "Page not known",
                rowHeader: true,
                text: true,
              },
              ...figureColumns<PathTotals>((r) => r.converted),
            ]}
          />
          <p className="max-w-3xl text-sm leading-6 text-slate-700">{sourcesCopy.pages}</p>
          <h3 className="font-semibold text-ink">{sourcesCopy.title}</h3>
          <p className="max-w-3xl text-sm leading-6 text-slate-700">{sourcesCopy.intro}</p>
          <DataTable
            caption={sourcesCopy.caption}
            rows={sources}
            rowKey={(r) => [r.referrer, r.source, r.medium, r.campaign].join("\n")}
            empty={sourcesCopy.empty}
            columns={[
              {
                header: "Referring site",
                cell: (r) => r.referrer || sourcesCopy.noReferrer,
                rowHeader: true,
                text: true,
              },
              {
                header: "Campaign (source / medium / name)",
                cell: (r) =>
                  [r.source, r.medium, r.campaign].some(Boolean)
                    ? [r.source, r.medium, r.campaign].map((t) => t || "–").join(" / ")
                    : "–",
                text: true,
              },
              ...figureColumns<SourceStat>((r) => r.leads),
            ]}
          />
          <h3 className="font-semibold text-ink">Per day</h3>
          <DayChart days={days} descriptionId={descriptionId} />
          <p id={descriptionId} className="sr-only">
            The table after the chart lists the views and leads of every day it shows.
          </p>
          <details>
            <summary className="cursor-pointer text-sm font-semibold text-primary underline-offset-4 hover:underline">
              The figures per day, as a table
            </summary>
            <div className="mt-3">
              <DataTable
                caption="Views and leads per day"
                rows={days}
                rowKey={(r) => r.day}
                empty="No days in this range."
                columns={[
                  { header: "Day", cell: (r) => r.day, rowHeader: true },
                  { header: "Views", cell: (r) => number(r.views), className: "text-right" },
                  { header: "Leads", cell: (r) => number(r.leads), className: "text-right" },
                ]}
              />
            </div>
          </details>
        </div>
      )}
    </LoadState>
  );
}
