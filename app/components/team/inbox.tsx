// The inbox: every lead of the five forms, newest first, 50 a page with the exact count; filters
// by form, status and date, a search over name, email and company, and a CSV download of exactly
// what the filters select. A lead opens its detail in place; its id and the filters live in the
// URL's fragment (lib/team.ts), so a reload or a shared link keeps both.
import { useEffect, useRef, useState } from "react";
import { inboxList, inboxWords, leadCsvColumns, optionsOf } from "../../content/team.ts";
import { formatDate } from "../../lib/dates.ts";
import { formatDateTime } from "../../lib/account.ts";
import {
  csvName,
  downloadCsv,
  filterLeads,
  LEAD_ROW_COLUMNS,
  readMembers,
  readPage,
  type LeadFilters,
  type LeadRow,
} from "../../lib/team-data.ts";
import { ListHeading, statusColumn, useLoad } from "./data-table.tsx";
import { FilteredPages } from "./filtered-pages.tsx";
import { ListFilters } from "./filters.tsx";
import { LeadDetail } from "./lead-detail.tsx";
import { LeadLink } from "./lead-link.tsx";
import { useArrivals } from "../../lib/new-leads.ts";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { leadKindLabels, leadStatusLabels } from "../../../common/workspace.ts";

/** A new lead stands out; the others are worked on or done. */
const statusBadge = {
  new: "warning",
  contacted: "default",
  qualified: "default",
  won: "accent",
  lost: "outline",
  junk: "outline",
} as const;

/** Today in the browser's calendar, as an ISO day: a next step due before it is overdue. */
const today = () => new Date().toLocaleDateString("en-CA");

export function Inbox({
  me,
  lead,
  filters,
  onLead,
  onFilters,
}: {
  /** The signed-in member's id: "My leads" are theirs. */
  me: string;
  lead: string | undefined;
  filters: LeadFilters;
  onLead: (lead: string | undefined) => void;
  onFilters: (filters: LeadFilters) => void;
}) {
  const [page, setPage] = useState(0);
  // When the list was read: the leads that arrived since are offered in the bar above it.
  const [since, setSince] = useState(() => new Date().toISOString());
  const arrived = useArrivals(filters, since);
  // Back from a lead's detail, the focus returns to the inbox (not to the top of the page).
  const wasOpen = useRef(false);
  useEffect(() => {
    if (wasOpen.current && !lead) document.getElementById("inbox-heading")?.focus();
    wasOpen.current = Boolean(lead);
  }, [lead]);
  const { state } = useLoad(
    () =>
      readPage<LeadRow>(
        "leads",
        LEAD_ROW_COLUMNS,
        page,
        (q) => filterLeads(q, filters),
        "estimated",
      ),
    JSON.stringify([filters, page, lead, since]),
  );
  const members = useLoad(readMembers, "members");
  const others = members.state.status === "ready" ? members.state.data : [];
  const filter = (patch: Partial<LeadFilters>) => {
    onFilters({ ...filters, ...patch });
    setPage(0);
    setSince(new Date().toISOString());
  };

  if (lead)
    return (
      <LeadDetail id={lead} filters={filters} onLead={onLead} onBack={() => onLead(undefined)} />
    );
  return (
    <section aria-labelledby="inbox-heading" className="grid gap-4">
      <ListHeading
        id="inbox-heading"
        title="Inbox"
        exportCsv={() =>
          downloadCsv("leads", (q) => filterLeads(q, filters), csvName("leads"), leadCsvColumns)
        }
      />
      <ListFilters
        search={{
          label: "Search name, email or company",
          value: filters.q,
          onSearch: (q) => filter({ q }),
        }}
        selects={[
          {
            label: "Form",
            value: filters.kind,
            options: optionsOf(leadKindLabels),
            all: "All forms",
            onChange: (kind) => filter({ kind }),
          },
          {
            label: "Status",
            value: filters.status,
            options: optionsOf(leadStatusLabels),
            all: inboxWords.anyStatus,
            onChange: (status) => filter({ status }),
          },
          {
            label: inboxWords.owner,
            value: filters.owner,
            options: [
              { value: me, label: inboxWords.mine },
              ...others.filter((m) => m.id !== me).map((m) => ({ value: m.id, label: m.email })),
            ],
            all: inboxWords.anyOwner,
            onChange: (owner) => filter({ owner }),
          },
        ]}
        range={filters}
        onRange={filter}
      />
      <div role="status" aria-live="polite">
        {arrived > 0 && (
          <p className="flex flex-wrap items-center gap-3 rounded-xl border border-indigo-200 bg-indigo-50 p-3 text-sm text-ink">
            {inboxWords.arrived(arrived)}
            <Button
              type="button"
              variant="secondary"
              onClick={() => {
                setPage(0);
                setSince(new Date().toISOString());
              }}
            >
              {inboxWords.showArrived}
            </Button>
          </p>
        )}
      </div>
      {/* A backwards range selects nothing: say why rather than "No leads match". */}
      <FilteredPages
        range={filters}
        list={{ state, page, onPage: setPage }}
        words={inboxList}
        card={(r) => (
          <div className="grid gap-1">
            <LeadLink id={r.id} onLead={onLead} className="wrap-anywhere">
              {r.name || r.email}
            </LeadLink>
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-slate-700">
              <span>{leadKindLabels[r.kind] ?? r.kind}</span>
              <Badge variant={statusBadge[r.status] ?? "default"}>
                {leadStatusLabels[r.status] ?? r.status}
              </Badge>
              <time dateTime={r.created_at}>{formatDateTime(r.created_at)}</time>
            </p>
          </div>
        )}
        columns={[
          {
            header: "Lead",
            rowHeader: true,
            text: true,
            cell: (r) => (
              <LeadLink id={r.id} onLead={onLead}>
                {r.name || r.email}
              </LeadLink>
            ),
          },
          { header: "Email", cell: (r) => r.email, text: true },
          { header: "Company", cell: (r) => r.company ?? "–", text: true },
          {
            header: "Form",
            cell: (r) => leadKindLabels[r.kind] ?? r.kind,
            className: "whitespace-nowrap",
          },
          statusColumn((r: LeadRow) => r.status, leadStatusLabels, statusBadge),
          { header: inboxWords.owner, cell: (r) => r.owner_email ?? "–", text: true },
          {
            header: inboxWords.due,
            cell: (r) =>
              r.due_on ? (
                <span className={r.due_on < today() ? "font-semibold text-destructive" : undefined}>
                  {formatDate(r.due_on)}
                  {r.due_on < today() && ` (${inboxWords.overdue})`}
                </span>
              ) : (
                "–"
              ),
            className: "whitespace-nowrap",
          },
          {
            header: "Received",
            cell: (r) => formatDateTime(r.created_at),
            className: "whitespace-nowrap",
          },
        ]}
      />
    </section>
  );
}
