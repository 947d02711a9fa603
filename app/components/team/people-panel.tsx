// The team's people: one row per address (whatever its case), their latest activity first, with
// how many form entries they sent, the latest one's form and status, and the name and company
// their entries gave; searched by a part of the address. A person opens their latest entry, whose
// page lists the others.
import { useState } from "react";
import { peopleList } from "../../content/team.ts";
import {
  leadKindLabels,
  leadStatusLabels,
  type LeadKindName,
  type LeadStatus,
} from "../../../common/workspace.ts";
import { formatDateTime } from "../../lib/account.ts";
import { number, readPage, searched } from "../../lib/team-data.ts";
import { ListHeading, useLoad } from "./data-table.tsx";
import { FilteredPages } from "./filtered-pages.tsx";
import { SearchBox } from "./filters.tsx";
import { LeadLink } from "./lead-link.tsx";

type PersonRow = {
  id: string;
  person: string;
  created_at: string;
  entries: number;
  lead_id: string;
  kind: LeadKindName;
  status: LeadStatus;
  name: string | null;
  company: string | null;
};

const NO_RANGE = { from: "", to: "" };

export function PeoplePanel({ onLead }: { onLead: (id: string) => void }) {
  const [page, setPage] = useState(0);
  const [q, setQ] = useState("");
  const { state } = useLoad(
    async () => {
      const read = await readPage<Omit<PersonRow, "id">>(
        "people",
        "person,created_at,entries,lead_id,kind,status,name,company",
        page,
        (query) => searched(query, "person", q),
        "estimated",
        "person",
      );
      return { ...read, rows: read.rows.map((r) => ({ ...r, id: r.person })) };
    },
    JSON.stringify([q, page]),
  );
  return (
    <section aria-labelledby="people-heading" className="grid gap-4">
      <ListHeading id="people-heading" title={peopleList.title} />
      <SearchBox
        label={peopleList.search}
        value={q}
        onSearch={(text) => {
          setQ(text);
          setPage(0);
        }}
      />
      <FilteredPages<PersonRow>
        range={NO_RANGE}
        list={{ state, page, onPage: setPage }}
        words={peopleList}
        columns={[
          {
            header: "Person",
            rowHeader: true,
            text: true,
            cell: (r) => (
              <LeadLink id={r.lead_id} onLead={onLead}>
                {r.name || r.person}
              </LeadLink>
            ),
          },
          { header: "Email", cell: (r) => r.person, text: true },
          { header: "Company", cell: (r) => r.company ?? "–", text: true },
          { header: peopleList.entries, cell: (r) => number(r.entries) },
          {
            header: peopleList.latest,
            cell: (r) =>
              `${leadKindLabels[r.kind] ?? r.kind} · ${leadStatusLabels[r.status] ?? r.status}`,
            className: "whitespace-nowrap",
          },
          {
            header: peopleList.when,
            cell: (r) => formatDateTime(r.created_at),
            className: "whitespace-nowrap",
          },
        ]}
      />
    </section>
  );
}
