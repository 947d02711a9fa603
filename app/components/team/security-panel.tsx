// The Security tab (admins only): the audit log, newest first, 50 a page, filtered by kind of
// event, dates and person, and exported as CSV with the same filters. The server answers it to
// team admins who passed their second factor, and refuses everyone else.
import { useState } from "react";
import { logTypeLabels, optionsOf, securityLog } from "../../content/team.ts";
import { formatDateTime } from "../../lib/account.ts";
import {
  actionLabel,
  actorLabel,
  AUDIT_COLUMNS,
  eventDetail,
  filterAudit,
  NO_AUDIT_FILTERS,
  type AuditFilters,
  type AuditRow,
} from "../../lib/security-log.ts";
import { csvName, downloadCsv, readPage } from "../../lib/team-data.ts";
import { FreeText, ListHeading, useLoad } from "./data-table.tsx";
import { FilteredPages } from "./filtered-pages.tsx";
import { ListFilters } from "./filters.tsx";

export function SecurityPanel() {
  const [filters, setFilters] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const [page, setPage] = useState(0);
  const { state } = useLoad(
    () =>
      readPage<AuditRow>(
        "audit_log",
        AUDIT_COLUMNS,
        page,
        (q) => filterAudit(q, filters),
        "exact",
        // Entries of one request can share a millisecond: the order they were written in.
        "seq",
      ),
    JSON.stringify([filters, page]),
  );
  const filter = (patch: Partial<AuditFilters>) => {
    setFilters({ ...filters, ...patch });
    setPage(0);
  };
  return (
    <section aria-labelledby="security-heading" className="grid gap-4">
      <ListHeading
        id="security-heading"
        title={securityLog.title}
        exportCsv={() =>
          downloadCsv("audit_log", (q) => filterAudit(q, filters), csvName("security-log"))
        }
      />
      <p className="max-w-3xl text-sm leading-6 text-slate-700">{securityLog.intro}</p>
      <ListFilters
        search={{
          label: securityLog.search,
          value: filters.person,
          onSearch: (person) => filter({ person }),
        }}
        selects={[
          {
            label: "Kind of event",
            value: filters.type,
            options: optionsOf(logTypeLabels),
            all: "All events",
            onChange: (type) => filter({ type }),
          },
        ]}
        range={filters}
        onRange={filter}
      />
      <FilteredPages
        range={filters}
        list={{ state, page, onPage: setPage }}
        words={securityLog}
        columns={[
          {
            header: "Event",
            rowHeader: true,
            cell: (r) => <span className="font-semibold">{actionLabel(r.action)}</span>,
          },
          { header: "Details", cell: (r) => eventDetail(r) || "–", text: true },
          { header: "Who", cell: (r) => actorLabel(r.actor), text: true },
          {
            header: "When",
            cell: (r) => formatDateTime(r.created_at),
            className: "whitespace-nowrap",
          },
          { header: "IP address", cell: (r) => r.ip_address || "–" },
          {
            header: "Browser",
            // Wide enough that a browser's long name wraps over a few lines, not a dozen.
            cell: (r) => <FreeText className="max-w-sm min-w-56">{r.user_agent || "–"}</FreeText>,
          },
        ]}
      />
    </section>
  );
}
