// A relation listed newest first, 50 a page with its exact count, filtered by status and
// optionally searched, optionally exported as CSV: the outbox, the subscribers and the webhook
// delivery log are each one of these.
import { useState } from "react";
import {
  csvName,
  downloadCsv,
  readPage,
  searched,
  type Noun,
  type Query,
} from "../../lib/team-data.ts";
import { DataTable, ListHeading, LoadState, Pager, useLoad, type Column } from "./data-table.tsx";
import { FilterBar, FilterSelect, SearchBox } from "./filters.tsx";
import { optionsOf } from "../../content/team.ts";

export function PagedList<T extends { id: string }>({
  title,
  relation,
  select,
  noun,
  statusLabels,
  columns,
  exportAs,
  empty,
  search,
}: {
  title: string;
  relation: string;
  select: string;
  /** ["email", "emails"]: "1–50 of 80 emails", "1–1 of 1 email", "Loading emails...". */
  noun: Noun;
  statusLabels: Record<string, string>;
  /** The columns; `reload` shows the list again after a row's action. */
  columns: (reload: () => void) => Column<T>[];
  /** The CSV file's subject ("subscribers"), when the list can be exported. */
  exportAs?: string;
  empty: string;
  /** A search box over one column ("Search email" over `email`). */
  search?: { label: string; column: string };
}) {
  const [status, setStatus] = useState("");
  const [words, setWords] = useState("");
  const [page, setPage] = useState(0);
  const byStatus = (q: Query) => {
    const filtered = status ? q.eq("status", status) : q;
    return search ? searched(filtered, search.column, words) : filtered;
  };
  const { state, reload } = useLoad(
    () => readPage<T>(relation, select, page, byStatus),
    `${status}-${words}-${page}`,
  );
  const headingId = `${relation}-heading`;
  return (
    <section aria-labelledby={headingId} className="grid gap-4">
      <ListHeading
        id={headingId}
        title={title}
        exportCsv={exportAs ? () => downloadCsv(relation, byStatus, csvName(exportAs)) : undefined}
      />
      {search && (
        <SearchBox
          label={search.label}
          value={words}
          onSearch={(q) => {
            setWords(q);
            setPage(0);
          }}
        />
      )}
      <FilterBar>
        <FilterSelect
          label="Status"
          value={status}
          options={optionsOf(statusLabels)}
          all="Any status"
          onChange={(s) => {
            setStatus(s);
            setPage(0);
          }}
        />
      </FilterBar>
      <LoadState state={state} what={noun[1]}>
        {(read) => (
          <div className="grid gap-3">
            <Pager page={page} read={read} noun={noun} onPage={setPage} />
            <DataTable
              caption={`${title}, newest first`}
              rows={read.rows}
              rowKey={(r) => r.id}
              empty={empty}
              columns={columns(reload)}
            />
          </div>
        )}
      </LoadState>
    </section>
  );
}
