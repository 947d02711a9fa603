// A filtered list's results: a backwards date range said in words instead of "nothing matches",
// else the loading and error states, the pager ("1–50 of N") and the table of the page.
import type * as React from "react";
import type { Noun, Page } from "../../lib/team-data.ts";
import { DataTable, LoadState, Pager, type Column } from "./data-table.tsx";
import { InvertedRange, isInverted } from "./filters.tsx";

export function FilteredPages<T extends { id: string }>({
  range,
  list: { state, page, onPage },
  words: { noun, caption, empty },
  columns,
  card,
}: {
  /** The From and To dates the filters chose ("" when none). */
  range: { from: string; to: string };
  /** What was read of the page shown, and how to show another. */
  list: {
    state: Parameters<typeof LoadState<Page<T>>>[0]["state"];
    page: number;
    onPage: (page: number) => void;
  };
  /** The list's words: its things' names, the table's caption, what it says when empty. */
  words: { noun: Noun; caption: string; empty: string };
  columns: Column<T>[];
  /**
   * Each row as a card, shown on a phone in place of the table (whose columns would scroll
   * sideways there); without it the table shows at every width.
   */
  card?: (row: T) => React.ReactNode;
}) {
  if (isInverted(range.from, range.to)) return <InvertedRange />;
  return (
    <LoadState state={state} what={noun[1]}>
      {(read) => (
        <div className="grid gap-3">
          <Pager page={page} read={read} noun={noun} onPage={onPage} />
          {card && read.rows.length > 0 && (
            <ul aria-label={caption} className="grid gap-3 sm:hidden">
              {read.rows.map((r) => (
                <li key={r.id} className="rounded-xl border border-border bg-white p-4 text-sm">
                  {card(r)}
                </li>
              ))}
            </ul>
          )}
          <div className={card && read.rows.length > 0 ? "hidden sm:block" : undefined}>
            <DataTable
              caption={caption}
              rows={read.rows}
              rowKey={(r) => r.id}
              empty={empty}
              columns={columns}
            />
          </div>
        </div>
      )}
    </LoadState>
  );
}
