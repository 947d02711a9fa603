// One lead: every field the form sent, where it came from (page, referrer, campaign), the team's
// status and internal note (saved as an upsert of `lead_states` of the fields the member changed;
// the server records who and when), the history of those changes, and the emails and webhook deliveries the lead caused.
import { useEffect, useRef, useState } from "react";
import { followUpChange, LEAD_STATUSES, type LeadStatus } from "../../../common/workspace.ts";
import { emailStatusLabels, leadKindLabels, leadStatusLabels } from "../../content/team.ts";
import { formatDateTime } from "../../lib/account.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { rowsOf, type Lead } from "../../lib/team-data.ts";
import { isConnectionFailure } from "../../lib/errors.ts";
import { toast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { Field } from "../ui/field.tsx";
import { Select } from "../ui/select.tsx";
import { Textarea } from "../ui/textarea.tsx";
import { DataTable, FreeText, LoadState, useLoad } from "./data-table.tsx";
import { DeliveryTable, type DeliveryRow } from "./webhooks-panel.tsx";
import { ScriptForm } from "../../forms/script-form.tsx";

type Change = {
  id: string;
  status: string | null;
  note: string | null;
  changed_by_email: string | null;
  changed_at: string;
};

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

export function LeadDetail({ id, onBack }: { id: string; onBack: () => void }) {
  const [round, setRound] = useState(0);
  const lead = useLoad(() => readLead(id), `${id}-${round}`);
  const history = useLoad(
    () =>
      causedBy<Change>(
        "lead_state_changes",
        "id,status,note,changed_by_email,changed_at",
        id,
        "changed_at",
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
      <div>
        <Button type="button" variant="link" className="h-auto px-0" onClick={onBack}>
          ← Back to the inbox
        </Button>
      </div>
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
            </div>
            {/* Saved, the lead is read again: the form starts over from what is stored now. */}
            <StatusForm
              key={l.status_updated_at ?? ""}
              lead={l}
              onSaved={() => setRound((n) => n + 1)}
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
          </div>
        )}
      </LoadState>
      <h3 className="mt-2 font-semibold text-ink">Status history</h3>
      <LoadState state={history.state} what="the status history">
        {(rows) => (
          <DataTable
            caption="Status and note changes, newest first"
            rows={rows}
            rowKey={(r) => r.id}
            empty="Nobody has changed this lead's status or note yet."
            columns={[
              { header: "When", cell: (r) => formatDateTime(r.changed_at), rowHeader: true },
              { header: "Who", cell: (r) => r.changed_by_email ?? "–", text: true },
              {
                header: "Status",
                cell: (r) =>
                  r.status ? (leadStatusLabels[r.status as LeadStatus] ?? r.status) : "–",
              },
              {
                header: "Note",
                cell: (r) => (r.note === "" ? "Removed" : (r.note ?? "–")),
                text: true,
              },
            ]}
          />
        )}
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

function StatusForm({ lead, onSaved }: { lead: Lead; onSaved: () => void }) {
  const [status, setStatus] = useState<LeadStatus>(lead.status);
  const [note, setNote] = useState(lead.note ?? "");
  // What the server holds as far as this form knows: the lead as loaded, then each save.
  const [saved, setSaved] = useState({ status: lead.status, note: lead.note });
  const [saving, run] = useBusyAction();
  const [problem, setProblem] = useState<string | null>(null);
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    setProblem(null);
    // Only what this member changed is sent: a field someone else saved meanwhile stays theirs.
    const change = followUpChange({ ...lead, ...saved }, { status, note });
    if (!change) {
      toast({ title: "Nothing to save", description: "The status and note are unchanged." });
      return;
    }
    void run(async () => {
      const supabase = await getSupabase();
      const { error } = await supabase
        .from("lead_states")
        .upsert(change, { onConflict: "kind,lead_id" });
      // The server's refusal of the note shows under it; a failed connection is not the note's
      // fault (it is the error toast).
      if (error && isConnectionFailure(error.message)) throw new Error(error.message);
      if (error) return setProblem(error.message);
      setSaved({ status, note: note.trim() || null });
      toast({ title: "Lead saved", description: `Status: ${leadStatusLabels[status]}.` });
      onSaved();
    });
  };
  const who = lead.status_updated_by_email;
  return (
    <Card className="p-5">
      <ScriptForm label="Follow-up" noValidate={false} onSubmit={save} className="grid gap-4">
        <h3 className="font-semibold text-ink">Follow-up</h3>
        <Field label="Status" className="max-w-xs">
          {(p) => (
            <Select {...p} value={status} onChange={(e) => setStatus(e.target.value as LeadStatus)}>
              {LEAD_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {leadStatusLabels[s]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field
          label="Internal note"
          description="Only the team sees it."
          error={problem ?? undefined}
        >
          {(p) => (
            <Textarea
              {...p}
              value={note}
              maxLength={5000}
              onChange={(e) => setNote(e.target.value)}
              className="min-h-24"
            />
          )}
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" aria-disabled={saving} aria-busy={saving}>
            {saving ? "Saving..." : "Save"}
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
