// The workspace's filter controls: each a labelled native control (ui/field.tsx) that reports its
// new value at once; a search box that reports when submitted (Enter or its button).
import type * as React from "react";
import { useState } from "react";
import { Button } from "../ui/button.tsx";
import { Field } from "../ui/field.tsx";
import { Input } from "../ui/input.tsx";
import { Select, SelectOptions } from "../ui/select.tsx";
import { ScriptForm } from "../../forms/script-form.tsx";

type Option = { value: string; label: string };

export function FilterSelect({
  label,
  value,
  options,
  all,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly Option[];
  /** The choice that filters nothing ("All forms"). */
  all: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label}>
      {(p) => (
        <Select {...p} value={value} onChange={(e) => onChange(e.target.value)}>
          <SelectOptions placeholder={all} options={options} />
        </Select>
      )}
    </Field>
  );
}

export function FilterDate({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label}>
      {(p) => <Input {...p} type="date" value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

export function SearchBox({
  label,
  value,
  onSearch,
}: {
  label: string;
  value: string;
  onSearch: (q: string) => void;
}) {
  const [text, setText] = useState(value);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    onSearch(text);
  };
  return (
    <ScriptForm role="search" label={label} onSubmit={submit} className="flex items-end gap-2">
      <Field label={label} className="min-w-0 flex-1">
        {(p) => (
          <Input {...p} type="search" value={text} onChange={(e) => setText(e.target.value)} />
        )}
      </Field>
      <Button type="submit" variant="secondary">
        Search
      </Button>
    </ScriptForm>
  );
}

/** A row of filters that wraps on a phone. */
export function FilterBar({ children }: { children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-2 gap-3 rounded-xl border border-border bg-white p-4 lg:grid-cols-4">
      {children}
    </div>
  );
}

/** Whether a From–To range runs backwards (both dates chosen, From after To). */
export const isInverted = (from: string, to: string) => Boolean(from && to && from > to);

/** Said in place of a backwards range's results: what is wrong, and what to choose. */
export function InvertedRange() {
  return (
    <p role="alert" className="text-sm text-destructive">
      The From date is after the To date. Choose a From date on or before the To date.
    </p>
  );
}

type SelectFilter = React.ComponentProps<typeof FilterSelect>;

/**
 * A list's filters: its search box, then its choices and its From–To dates in one row. Each
 * reports its new value at once (the search when submitted).
 */
export function ListFilters({
  search,
  selects,
  range,
  onRange,
}: {
  search: React.ComponentProps<typeof SearchBox>;
  selects: SelectFilter[];
  range: { from: string; to: string };
  onRange: (patch: { from?: string; to?: string }) => void;
}) {
  return (
    <>
      <SearchBox {...search} />
      <FilterBar>
        {selects.map((select) => (
          <FilterSelect key={select.label} {...select} />
        ))}
        <FilterDate label="From" value={range.from} onChange={(from) => onRange({ from })} />
        <FilterDate label="To" value={range.to} onChange={(to) => onRange({ to })} />
      </FilterBar>
    </>
  );
}
