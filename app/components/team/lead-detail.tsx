// One lead: every field the form sent (the address and phone as links that write or call), where
// it came from (page, referrer, campaign), the team's work on it (status, with a reason when lost;
// owner; next step with its due date: saved as an upsert of `lead_states` of the parts the member
// changed, the server records who and when), its timeline (notes, calls and emails logged, added
// and never overwritten, with every change in words), and the emails and webhook deliveries the
// lead caused.
import { useEffect, useRef, useState } from "react";
import {
  followUpChange,
  LEAD_STATUSES,
  NOTE_TYPES,
  type LeadStatus,
  type NoteType,
  leadKindLabels,
  leadStatusLabels,
} from "../../../common/workspace.ts";
import {
  changeWords,
  emailStatusLabels,
  followUp,
  noteTypeLabels,
  peopleList,
  type LeadChange,
} from "../../content/team.ts";
import { formatDateTime } from "../../lib/account.ts";
import { formatDate } from "../../lib/dates.ts";
import { getSupabase } from "../../lib/supabase.ts";
import {
  LEAD_ROW_COLUMNS,
  neighboursOf,
  readMembers,
  rowsOf,
  type Lead,
  type LeadFilters,
  type LeadRow,
  type Member,
} from "../../lib/team-data.ts";
import { isConnectionFailure } from "../../lib/errors.ts";
import { toast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { Field } from "../ui/field.tsx";
import { Input } from "../ui/input.tsx";
import { Select } from "../ui/select.tsx";
import { Textarea } from "../ui/textarea.tsx";
import { DataTable, FreeText, LoadState, useLoad } from "./data-table.tsx";
import { DeliveryTable, type DeliveryRow } from "./webhooks-panel.tsx";
import { LeadLink } from "./lead-link.tsx";
import { ScriptForm } from "../../forms/script-form.tsx";

type Change = LeadChange & { id: string; changed_by_email: string | null; changed_at: string };

type Note = {
  id: string;
  type: NoteType;
  body: string;
  created_by_email: string | null;
  created_at: string;
};

/** One entry of a lead's timeline: who, when, what in words, and the note's text if any. */
type TimelineEntry = { id: string; at: string; who: string; what: string; body?: string };

/**
 * The notes and the changes of a lead as one timeline, newest first: each change says what it
 * changed in words, its status change from the status before it.
 */
function timelineOf(notes: Note[], changes: Change[]): TimelineEntry[] {
  const entries: TimelineEntry[] = notes.map((n) => ({
    id: n.id,
    at: n.created_at,
    who: n.created_by_email ?? "Someone",
    what:
      n.type === "call"
        ? "logged a call"
        : n.type === "email"
          ? "logged an email sent"
          : "added a note",
    body: n.body,
  }));
  let status = "new";
  for (const c of [...changes].sort((a, b) => a.changed_at.localeCompare(b.changed_at))) {
    const words = changeWords(c, status, formatDate);
    if (c.fields.includes("status")) status = c.status ?? status;
    entries.push({
      id: c.id,
      at: c.changed_at,
      who: c.changed_by_email ?? "Someone",
      what: words.join("; "),
    });
  }
  return entries.sort((a, b) => b.at.localeCompare(a.at));
}

type CausedEmail = {
  id: string;
  kind: string;
  subject: string;
  status: keyof typeof emailStatusLabels;
  created_at: string;
};

async function readLead(id: string): Promise<Lead> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.from("leads").select("*").eq("id", id).maybeSingle();
  if (error) throw new Error(error.message);
  if (!data) throw new Error("There is no such lead.");
  return data as Lead;
}

/** The person's other entries (the same address, any form), newest first. */
async function otherEntries(lead: Lead): Promise<LeadRow[]> {
  const supabase = await getSupabase();
  return rowsOf<LeadRow>(
    await supabase
      .from("leads")
      .select(LEAD_ROW_COLUMNS)
      .eq("person", lead.person)
      .neq("id", lead.id)
      .order("created_at", { ascending: false })
      .limit(50),
  ).rows;
}

/** The rows of a relation that name this lead, newest first. */
async function causedBy<T>(relation: string, columns: string, id: string, order: string) {
  const supabase = await getSupabase();
  return rowsOf<T>(
    await supabase
      .from(relation)
      .select(columns)
      .eq("lead_id", id)
      .order(order, { ascending: false }),
  ).rows;
}

/** "utm_campaign" → "Utm campaign", "company_size" → "Company size". */
const fieldLabel = (key: string) =>
  (key.charAt(0).toUpperCase() + key.slice(1)).replaceAll("_", " ");

const show = (value: unknown) =>
  value === null || value === undefined || value === ""
    ? "–"
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value as string | number | boolean);

function Facts({ title, facts }: { title: string; facts: [string, unknown][] }) {
  return (
    <Card className="grid content-start gap-3 p-5">
      <h3 className="font-semibold text-ink">{title}</h3>
      {/* minmax(0, 1fr): a long value without spaces wraps inside the card, not past the page. */}
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
        {facts.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium text-slate-700">{k}</dt>
            <dd className="min-w-0 text-ink">
              <FreeText>{show(v)}</FreeText>
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** The address as a link that writes to it, the phone (if the form asked) as one that calls. */
function ContactLinks({ lead }: { lead: Lead }) {
  const phone = typeof lead.details?.phone === "string" ? lead.details.phone : "";
  const link = "font-medium text-primary underline underline-offset-4";
  return (
    <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
      <a href={`mailto:${lead.email}`} className={link}>
        <FreeText>{lead.email}</FreeText>
      </a>
      {phone && (
        <a href={`tel:${phone.replace(/[^\d+]/g, "")}`} className={link}>
          {phone}
        </a>
      )}
    </p>
  );
}

export function LeadDetail({
  id,
  filters,
  onLead,
  onBack,
}: {
  id: string;
  /** The inbox's filters: the previous and next leads are among those they select. */
  filters: LeadFilters;
  onLead: (id: string) => void;
  onBack: () => void;
}) {
  const [round, setRound] = useState(0);
  const again = () => setRound((n) => n + 1);
  const lead = useLoad(() => readLead(id), `${id}-${round}`);
  // Where the lead stands among others: the inbox's previous and next, the person's other entries.
  const around = useLoad(
    async () => {
      const l = await readLead(id);
      const [neighbours, others] = await Promise.all([neighboursOf(l, filters), otherEntries(l)]);
      return { of: id, neighbours, others };
    },
    JSON.stringify([id, filters]),
  );
  // Until this lead's are read, the previous lead's neighbours and entries are not shown as its own.
  const aroundState =
    around.state.status === "ready" && around.state.data.of !== id
      ? ({ status: "loading" } as const)
      : around.state;
  const neighbours =
    aroundState.status === "ready" ? aroundState.data.neighbours : { previous: null, next: null };
  const members = useLoad(readMembers, "members");
  const history = useLoad(
    async () =>
      timelineOf(
        await causedBy<Note>(
          "lead_notes",
          "id,type,body,created_by_email,created_at",
          id,
          "created_at",
        ),
        await causedBy<Change>(
          "lead_state_changes",
          "id,fields,status,lost_reason,owner_email,next_step,due_on,note,changed_by_email,changed_at",
          id,
          "changed_at",
        ),
      ),
    `${id}-${round}`,
  );
  const emails = useLoad(
    () => causedBy<CausedEmail>("emails", "id,kind,subject,status,created_at", id, "created_at"),
    id,
  );
  const deliveries = useLoad(
    () =>
      causedBy<DeliveryRow>(
        "webhook_deliveries",
        "id,endpoint_url,created_at,attempts,last_status,last_error,status",
        id,
        "created_at",
      ),
    id,
  );
  const heading = useRef<HTMLHeadingElement>(null);
  // The detail replaces the inbox: its heading takes the focus once the lead is there to name.
  const loaded = lead.state.status === "ready";
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);

  return (
    <section aria-labelledby="lead-heading" className="grid gap-4">
      <nav
        aria-label={followUp.leadNavigation}
        className="flex flex-wrap items-center gap-x-6 gap-y-2"
      >
        <Button type="button" variant="link" className="h-auto px-0" onClick={onBack}>
          ← Back to the inbox
        </Button>
        <span className="flex gap-4">
          <NeighbourLink id={neighbours.previous} onLead={onLead}>
            {followUp.previousLead}
          </NeighbourLink>
          <NeighbourLink id={neighbours.next} onLead={onLead}>
            {followUp.nextLead}
          </NeighbourLink>
        </span>
      </nav>
      <LoadState state={lead.state} what="the lead">
        {(l) => (
          <div className="grid gap-4">
            <div>
              <h2
                id="lead-heading"
                ref={heading}
                tabIndex={-1}
                className="text-xl font-semibold text-ink outline-none"
              >
                <FreeText>{l.name || l.email}</FreeText>
              </h2>
              <p className="mt-1 text-sm text-slate-700">
                {leadKindLabels[l.kind] ?? l.kind} · received {formatDateTime(l.created_at)}
              </p>
              <ContactLinks lead={l} />
            </div>
            {/* Saved, the lead is read again: the form starts over from what is stored now. */}
            <FollowUpForm
              key={l.status_updated_at ?? ""}
              lead={l}
              members={members.state.status === "ready" ? members.state.data : []}
              onSaved={again}
            />
            <div className="grid gap-4 lg:grid-cols-2">
              <Facts
                title="What they sent"
                facts={[
                  ["Email", l.email],
                  ["Name", l.name],
                  ["Company", l.company],
                  ...Object.entries(l.details ?? {}).map(
                    ([k, v]) => [fieldLabel(k), v] as [string, unknown],
                  ),
                ]}
              />
              <Facts
                title="Where it came from"
                facts={[
                  ["Page", l.page],
                  ["Referrer", l.referrer],
                  ["UTM source", l.utm_source],
                  ["UTM medium", l.utm_medium],
                  ["UTM campaign", l.utm_campaign],
                ]}
              />
            </div>
            <AddToTimeline lead={l} onAdded={again} />
          </div>
        )}
      </LoadState>
      <h3 className="mt-2 font-semibold text-ink">{peopleList.others}</h3>
      <LoadState state={aroundState} what="the person's other entries">
        {({ others }) => (
          <DataTable
            caption={peopleList.others}
            rows={others}
            rowKey={(r) => r.id}
            empty={peopleList.noOthers}
            columns={[
              {
                header: "Form",
                rowHeader: true,
                cell: (r) => (
                  <LeadLink id={r.id} onLead={onLead}>
                    {leadKindLabels[r.kind] ?? r.kind}
                  </LeadLink>
                ),
              },
              { header: "Status", cell: (r) => leadStatusLabels[r.status] ?? r.status },
              { header: "Received", cell: (r) => formatDateTime(r.created_at) },
            ]}
          />
        )}
      </LoadState>
      <h3 id="timeline-heading" className="mt-2 font-semibold text-ink">
        {followUp.timeline}
      </h3>
      <LoadState state={history.state} what="the timeline">
        {(entries) => <Timeline entries={entries} />}
      </LoadState>
      <h3 className="mt-2 font-semibold text-ink">Emails this lead caused</h3>
      <LoadState state={emails.state} what="the lead's emails">
        {(rows) => (
          <DataTable
            caption="Emails this lead caused"
            rows={rows}
            rowKey={(r) => r.id}
            empty="This lead caused no email."
            columns={[
              { header: "Subject", cell: (r) => r.subject, rowHeader: true, text: true },
              { header: "Kind", cell: (r) => r.kind },
              { header: "Status", cell: (r) => emailStatusLabels[r.status] ?? r.status },
              { header: "Queued", cell: (r) => formatDateTime(r.created_at) },
            ]}
          />
        )}
      </LoadState>
      <h3 className="mt-2 font-semibold text-ink">Webhook deliveries</h3>
      <LoadState state={deliveries.state} what="the lead's webhook deliveries">
        {(rows) => <DeliveryTable rows={rows} empty="No webhook delivery for this lead." />}
      </LoadState>
    </section>
  );
}

/** A link to the previous or next lead, or its words alone at an end of the list. */
function NeighbourLink({
  id,
  onLead,
  children,
}: {
  id: string | null;
  onLead: (id: string) => void;
  children: string;
}) {
  if (!id) return <span className="text-sm text-slate-600">{children}</span>;
  return (
    <LeadLink id={id} onLead={onLead} className="text-sm">
      {children}
    </LeadLink>
  );
}

function Timeline({ entries }: { entries: TimelineEntry[] }) {
  if (!entries.length)
    return (
      <p role="status" className="text-sm text-slate-700">
        {followUp.emptyTimeline}
      </p>
    );
  return (
    <ol aria-label={followUp.timelineCaption} className="grid gap-3">
      {entries.map((e) => (
        <li key={e.id} className="rounded-lg border border-border bg-white p-4 text-sm">
          <p className="wrap-anywhere text-slate-700">
            <FreeText className="inline font-semibold text-ink">{e.who}</FreeText>{" "}
            <FreeText className="inline">{e.what}</FreeText> ·{" "}
            <time dateTime={e.at}>{formatDateTime(e.at)}</time>
          </p>
          {e.body && (
            <p className="mt-2 whitespace-pre-line text-ink">
              <FreeText>{e.body}</FreeText>
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

/** Saves through `save`; the server's refusal shows on the form, a failed connection as a toast. */
function useSave(onDone: () => void) {
  const [saving, run] = useBusyAction();
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (save: () => PromiseLike<{ error: { message: string } | null }>) => {
    setProblem(null);
    void run(async () => {
      const { error } = await save();
      if (error && isConnectionFailure(error.message)) throw new Error(error.message);
      if (error) return setProblem(error.message);
      onDone();
    });
  };
  return { saving, problem, setProblem, submit };
}

function FollowUpForm({
  lead,
  members,
  onSaved,
}: {
  lead: Lead;
  members: Member[];
  onSaved: () => void;
}) {
  const [edited, setEdited] = useState({
    status: lead.status,
    lost_reason: lead.lost_reason ?? "",
    owner_id: lead.owner_id ?? "",
    next_step: lead.next_step ?? "",
    due_on: lead.due_on ?? "",
  });
  const set = (patch: Partial<typeof edited>) => setEdited((e) => ({ ...e, ...patch }));
  const { saving, problem, setProblem, submit } = useSave(() => {
    toast({ title: followUp.saved, description: `Status: ${leadStatusLabels[edited.status]}.` });
    onSaved();
  });
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    // Only what this member changed is sent: a part someone else saved meanwhile stays theirs.
    const change = followUpChange(lead, edited);
    if (!change) return toast(followUp.nothing);
    if (Boolean(change.next_step) !== Boolean(change.due_on) && "next_step" in change)
      return setProblem(followUp.nextStepNeedsDate);
    submit(async () =>
      (await getSupabase()).from("lead_states").upsert(change, { onConflict: "kind,lead_id" }),
    );
  };
  const who = lead.status_updated_by_email;
  // An owner who left the team still shows, by address, until someone else is chosen.
  const owners =
    lead.owner_id && !members.some((m) => m.id === lead.owner_id)
      ? [...members, { id: lead.owner_id, email: lead.owner_email ?? lead.owner_id }]
      : members;
  return (
    <Card className="p-5">
      <ScriptForm label={followUp.title} noValidate={false} onSubmit={save} className="grid gap-4">
        <h3 className="font-semibold text-ink">{followUp.title}</h3>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={followUp.status}>
            {(p) => (
              <Select
                {...p}
                value={edited.status}
                onChange={(e) => set({ status: e.target.value as LeadStatus })}
              >
                {LEAD_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {leadStatusLabels[s]}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label={followUp.owner}>
            {(p) => (
              <Select
                {...p}
                value={edited.owner_id}
                onChange={(e) => set({ owner_id: e.target.value })}
              >
                <option value="">{followUp.noOwner}</option>
                {owners.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.email}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          {edited.status === "lost" && (
            <Field
              label={followUp.lostReason}
              description={followUp.lostReasonHint}
              className="sm:col-span-2"
            >
              {(p) => (
                <Input
                  {...p}
                  required
                  maxLength={500}
                  value={edited.lost_reason}
                  onChange={(e) => set({ lost_reason: e.target.value })}
                />
              )}
            </Field>
          )}
          <Field label={followUp.nextStep} description={followUp.nextStepHint} optional>
            {(p) => (
              <Input
                {...p}
                maxLength={500}
                value={edited.next_step}
                onChange={(e) => set({ next_step: e.target.value })}
              />
            )}
          </Field>
          <Field label={followUp.dueOn} optional error={problem ?? undefined}>
            {(p) => (
              <Input
                {...p}
                type="date"
                required={Boolean(edited.next_step.trim())}
                value={edited.due_on}
                onChange={(e) => set({ due_on: e.target.value })}
              />
            )}
          </Field>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" aria-disabled={saving} aria-busy={saving}>
            {saving ? "Saving..." : followUp.save}
          </Button>
          <p className="text-sm text-slate-700">
            {lead.status_updated_at
              ? `Last changed ${formatDateTime(lead.status_updated_at)}${who ? ` by ${who}` : ""}.`
              : "Not changed yet."}
          </p>
        </div>
      </ScriptForm>
    </Card>
  );
}

function AddToTimeline({ lead, onAdded }: { lead: Lead; onAdded: () => void }) {
  const [type, setType] = useState<NoteType>("note");
  const [body, setBody] = useState("");
  const { saving, problem, submit } = useSave(() => {
    toast({ title: followUp.added, description: noteTypeLabels[type] });
    // The form starts over: a note, empty.
    setType("note");
    setBody("");
    onAdded();
  });
  const add = (e: React.FormEvent) => {
    e.preventDefault();
    submit(async () =>
      (await getSupabase())
        .from("lead_notes")
        .insert({ kind: lead.kind, lead_id: lead.id, type, body: body.trim() }),
    );
  };
  return (
    <Card className="p-5">
      <ScriptForm
        label={followUp.addTitle}
        noValidate={false}
        onSubmit={add}
        className="grid gap-4"
      >
        <h3 className="font-semibold text-ink">{followUp.addTitle}</h3>
        <Field label={followUp.addType} className="max-w-xs">
          {(p) => (
            <Select {...p} value={type} onChange={(e) => setType(e.target.value as NoteType)}>
              {NOTE_TYPES.map((t) => (
                <option key={t} value={t}>
                  {noteTypeLabels[t]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field
          label={followUp.addBody}
          description={followUp.addBodyHint}
          error={problem ?? undefined}
        >
          {(p) => (
            <Textarea
              {...p}
              required
              value={body}
              maxLength={5000}
              onChange={(e) => setBody(e.target.value)}
              className="min-h-24"
            />
          )}
        </Field>
        <div>
          <Button type="submit" aria-disabled={saving} aria-busy={saving}>
            {saving ? "Adding..." : followUp.add}
          </Button>
        </div>
      </ScriptForm>
    </Card>
  );
}
