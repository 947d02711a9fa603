// Views and leads per day as an inline SVG (no chart library): views as bars, leads as a line on
// their own scale. The picture is named and described for screen readers; the table beside it
// (the per-day figures) is the accessible equivalent.
import type { DayTotals } from "../../lib/team-data.ts";

const W = 720;
const H = 220;
const PAD = { top: 16, right: 40, bottom: 28, left: 40 };

/** A round top for an axis: 1, 2, 5 × 10^n at or above the largest value. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].find((m) => m * power >= value) ?? 10) * power;
}

export function DayChart({ days, descriptionId }: { days: DayTotals[]; descriptionId: string }) {
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const maxViews = niceMax(Math.max(0, ...days.map((d) => d.views)));
  const maxLeads = niceMax(Math.max(0, ...days.map((d) => d.leads)));
  const step = innerW / Math.max(1, days.length);
  const barW = Math.max(1, step * 0.7);
  const y = (v: number, max: number) => PAD.top + innerH - (v / max) * innerH;
  const x = (i: number) => PAD.left + i * step + step / 2;
  const line = days.map((d, i) => `${i === 0 ? "M" : "L"}${x(i)},${y(d.leads, maxLeads)}`).join("");
  const labelEvery = Math.max(1, Math.ceil(days.length / 6));
  return (
    <figure className="grid gap-2">
      {/* On a phone the chart keeps a readable size and scrolls sideways (by keyboard too). */}
      <div
        className="overflow-x-auto rounded-xl border border-border bg-white"
        role="region"
        aria-label="Chart of views and leads per day"
        tabIndex={0}
      >
        <svg
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-label="Views and leads per day"
          aria-describedby={descriptionId}
          className="h-auto w-full min-w-[36rem]"
        >
          {[0, 0.5, 1].map((f) => (
            <g key={f}>
              <line
                x1={PAD.left}
                x2={W - PAD.right}
                y1={y(f * maxViews, maxViews)}
                y2={y(f * maxViews, maxViews)}
                stroke="#e2e8f0"
              />
              <text
                x={PAD.left - 6}
                y={y(f * maxViews, maxViews) + 4}
                textAnchor="end"
                fontSize="11"
                fill="#475569"
              >
                {f * maxViews}
              </text>
              <text
                x={W - PAD.right + 6}
                y={y(f * maxLeads, maxLeads) + 4}
                fontSize="11"
                fill="#0f766e"
              >
                {f * maxLeads}
              </text>
            </g>
          ))}
          {days.map((d, i) => (
            <rect
              key={d.day}
              x={x(i) - barW / 2}
              y={y(d.views, maxViews)}
              width={barW}
              height={PAD.top + innerH - y(d.views, maxViews)}
              fill="#818cf8"
            />
          ))}
          {days.length > 0 && <path d={line} fill="none" stroke="#0f766e" strokeWidth="2" />}
          {days.map((d, i) =>
            i % labelEvery === 0 ? (
              <text key={d.day} x={x(i)} y={H - 8} textAnchor="middle" fontSize="11" fill="#475569">
                {d.day.slice(5)}
              </text>
            ) : null,
          )}
        </svg>
      </div>
      <figcaption className="flex flex-wrap gap-4 text-sm text-slate-700">
        <span className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-indigo-400" /> Views
          (left scale)
        </span>
        <span className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-0.5 w-4 bg-teal-700" /> Leads (right
          scale)
        </span>
      </figcaption>
    </figure>
  );
}
