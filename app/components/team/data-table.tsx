// What every list of the workspace shares: loading what it shows (and again on demand), the
// loading, error (the server's message, or that the connection failed) and empty states, a table
// with a caption and column headers that scrolls sideways on a phone (free text wraps within its
// column), and paging with "1–50 of N" read out when it changes.
import type * as React from "react";
import { useCallback, useEffect, useState } from "react";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { cn } from "../../lib/cn.ts";
import { readableError } from "../../lib/errors.ts";
import { PAGE_SIZE, rangeLabel, type Noun, type Page } from "../../lib/team-data.ts";
import { Badge, type badgeVariants } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";

type Loaded<T> =
  { status: "loading" } | { status: "error"; message: string } | { status: "ready"; data: T };

/**
 * Runs `load` now and whenever `key` changes; `reload` runs it again. What was shown stays until
 * the new answer replaces it (no flash of "Loading"); an answer to an older key is dropped.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  key: string,
): { state: Loaded<T>; reload: () => void } {
  const [state, setState] = useState<Loaded<T>>({ status: "loading" });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ status: "ready", data }),
      (err: unknown) => live && setState({ status: "error", message: readableError(err) }),
    );
    return () => {
      live = false;
    };
    // `load` is a new function each render; `key` says when what it loads changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { state, reload };
}

/** The loading line or the error of a load, else what it loaded. */
export function LoadState<T>({
  state,
  what,
  children,
}: {
  state: Loaded<T>;
  /** "leads", "emails"…: "Loading leads..." */
  what: string;
  children: (data: T) => React.ReactNode;
}) {
  if (state.status === "loading")
    return (
      <p role="status" className="py-6 text-sm text-slate-700">
        Loading {what}...
      </p>
    );
  if (state.status === "error")
    return (
      <p
        role="alert"
        className="rounded-lg border border-rose-200 bg-rose-50 p-4 text-sm text-rose-900"
      >
        Couldn't load {what}: {state.message}
      </p>
    );
  return <>{children(state.data)}</>;
}

export type Column<T> = {
  header: string;
  cell: (row: T) => React.ReactNode;
  /** The row's header cell (its name or address), read out with each cell of the row. */
  rowHeader?: boolean;
  /**
   * Free text (a visitor's name, a subject, a URL): wrapped anywhere within a capped width, so a
   * long value cannot push the other columns and the row's actions out of view, and isolated
   * from the text around it (a right-to-left name does not reorder its neighbours).
   */
  text?: boolean;
  className?: string;
};

/** A cell's content, as its column asks for it. */
function cellOf<T>(column: Column<T>, row: T): React.ReactNode {
  const content = column.cell(row);
  return column.text ? <FreeText className="max-w-xs min-w-24">{content}</FreeText> : content;
}

/** Visitor-supplied text: isolated for bidi, and broken anywhere rather than overflowing. */
export function FreeText({ className, ...props }: React.ComponentProps<"bdi">) {
  return <bdi className={cn("block wrap-anywhere", className)} {...props} />;
}

type BadgeVariant = NonNullable<Parameters<typeof badgeVariants>[0]>["variant"];

/** A "Status" column: each row's status as a badge, named by `labels`, coloured by `badges`. */
export function statusColumn<T, S extends string>(
  status: (row: T) => S,
  labels: Record<S, string>,
  badges: Record<S, BadgeVariant>,
  className?: string,
): Column<T> {
  return {
    header: "Status",
    cell: (r) => <Badge variant={badges[status(r)]}>{labels[status(r)] ?? status(r)}</Badge>,
    className,
  };
}

export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** Said instead of the table when there are no rows. */
  empty: string;
}) {
  if (rows.length === 0)
    return (
      <p className="rounded-lg border border-dashed border-border p-6 text-center text-sm text-slate-700">
        {empty}
      </p>
    );
  return (
    // The wrapper scrolls a wide table on a phone; it is focusable so the keyboard scrolls it too.
    <div
      className="overflow-x-auto rounded-xl border border-border bg-white"
      role="region"
      aria-label={caption}
      tabIndex={0}
    >
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted text-xs font-semibold tracking-wide text-slate-700 uppercase">
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={`px-3 py-2.5 ${c.className ?? ""}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {rows.map((row) => (
            <tr key={rowKey(row)} className="align-top">
              {columns.map((c) =>
                c.rowHeader ? (
                  <th
                    key={c.header}
                    scope="row"
                    className={`px-3 py-2.5 font-medium text-ink ${c.className ?? ""}`}
                  >
                    {cellOf(c, row)}
                  </th>
                ) : (
                  <td key={c.header} className={`px-3 py-2.5 text-slate-700 ${c.className ?? ""}`}>
                    {cellOf(c, row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * "1–50 of 123 leads" (a live region: read out when a filter or page changes), previous, next.
 * The last page is the one that ends the count, or one shorter than a page (an estimated count).
 */
export function Pager<T>({
  page,
  read,
  noun,
  onPage,
}: {
  page: number;
  read: Page<T>;
  noun: Noun;
  onPage: (page: number) => void;
}) {
  const { rows, count, estimated } = read;
  const atEnd = rows.length < PAGE_SIZE || (page + 1) * PAGE_SIZE >= count;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <p role="status" className="text-sm text-slate-700">
        {rangeLabel(page, rows.length, count, estimated, noun)}
      </p>
      {(page > 0 || !atEnd) && (
        <div className="flex gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            aria-disabled={page === 0}
            onClick={() => onPage(page - 1)}
          >
            Previous page
          </Button>
          <Button
            type="button"
            variant="outline"
            size="sm"
            aria-disabled={atEnd}
            onClick={() => onPage(page + 1)}
          >
            Next page
          </Button>
        </div>
      )}
    </div>
  );
}

/** A list's heading, and its "Export CSV" button when it can be exported (busy while it runs). */
export function ListHeading({
  id,
  title,
  exportCsv,
}: {
  id: string;
  title: string;
  exportCsv?: () => Promise<void>;
}) {
  const [exporting, run] = useBusyAction();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      {/* Focusable by script: a view that closes (a lead's detail) hands the focus back here. */}
      <h2 id={id} tabIndex={-1} className="text-xl font-semibold text-ink outline-none">
        {title}
      </h2>
      {exportCsv && (
        <Button
          type="button"
          variant="outline"
          aria-disabled={exporting}
          aria-busy={exporting}
          onClick={() => void run(exportCsv)}
        >
          {exporting ? "Exporting..." : "Export CSV"}
        </Button>
      )}
    </div>
  );
}
