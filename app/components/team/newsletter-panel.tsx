// The newsletter's issues: the list with each issue's figures (sent, delivered, failed,
// unsubscribed), and an issue opened to write it (subject and Markdown), preview it as the email
// a subscriber gets at 390 and 1280 px, send a test to oneself, schedule it or send it now, or
// take a scheduled one back to a draft. The server decides what may change (a sending or sent
// issue no longer does) and who may (members on aal2).
import { useState } from "react";
import { issueStatusLabels, newsletterCopy } from "../../content/team.ts";
import { formatDateTime } from "../../lib/account.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { number, readPage } from "../../lib/team-data.ts";
import { toast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";
import { Field } from "../ui/field.tsx";
import { Input } from "../ui/input.tsx";
import { Textarea } from "../ui/textarea.tsx";
import { DataTable, ListHeading, LoadState, Pager, statusColumn, useLoad } from "./data-table.tsx";

type IssueStatus = keyof typeof issueStatusLabels;

type Issue = {
  id: string;
  subject: string;
  body: string;
  status: IssueStatus;
  send_at: string | null;
  number: number | null;
  created_at: string;
  started_at: string | null;
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
  unsubscribed: number;
};

const COLUMNS =
  "id,subject,body,status,send_at,number,created_at,started_at,queued,sent,delivered,failed,unsubscribed";

const statusBadge = {
  draft: "outline",
  scheduled: "warning",
  sending: "accent",
  sent: "default",
} as const;

/** Throws the server's message, so the busy action shows it in a toast. */
function checked<T>(result: { data: T; error: { message: string } | null }): T {
  if (result.error) throw new Error(result.error.message);
  return result.data;
}

export function NewsletterPanel() {
  const [open, setOpen] = useState<string | "new" | null>(null);
  if (open) return <IssueEditor id={open} onClose={() => setOpen(null)} onSaved={setOpen} />;
  return <IssueList onOpen={setOpen} />;
}

function IssueList({ onOpen }: { onOpen: (id: string | "new") => void }) {
  const [page, setPage] = useState(0);
  const { state } = useLoad(
    () => readPage<Issue>("newsletter_issues", COLUMNS, page),
    `issues-${page}`,
  );
  return (
    <section aria-labelledby="issues-heading" className="grid gap-4">
      <ListHeading id="issues-heading" title={newsletterCopy.title} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" onClick={() => onOpen("new")}>
          {newsletterCopy.newIssue}
        </Button>
        <a href="/newsletter" className="text-sm text-primary underline underline-offset-2">
          {newsletterCopy.archive}
        </a>
      </div>
      <LoadState state={state} what="issues">
        {(read) => (
          <div className="grid gap-3">
            <Pager page={page} read={read} noun={["issue", "issues"]} onPage={setPage} />
            <DataTable
              caption={newsletterCopy.caption}
              rows={read.rows}
              rowKey={(r) => r.id}
              empty={newsletterCopy.empty}
              columns={[
                {
                  header: "Subject",
                  rowHeader: true,
                  text: true,
                  cell: (r) => (
                    <Button
                      type="button"
                      variant="link"
                      className="h-auto p-0 text-left whitespace-normal"
                      onClick={() => onOpen(r.id)}
                    >
                      {r.subject}
                    </Button>
                  ),
                },
                statusColumn(
                  (r: Issue) => r.status,
                  issueStatusLabels,
                  statusBadge,
                  "whitespace-nowrap",
                ),
                { header: "When", cell: (r) => whenOf(r) },
                { header: "Sent", cell: (r) => number(r.sent) },
                { header: "Delivered", cell: (r) => number(r.delivered) },
                { header: "Failed", cell: (r) => number(r.failed) },
                { header: "Unsubscribed", cell: (r) => number(r.unsubscribed) },
              ]}
            />
          </div>
        )}
      </LoadState>
    </section>
  );
}

function whenOf(issue: Issue): string {
  if (issue.started_at) return formatDateTime(issue.started_at);
  if (issue.send_at) return formatDateTime(issue.send_at);
  return "–";
}

/** A datetime-local value for now plus an hour, in the browser's time. */
function inAnHour(): string {
  const at = new Date(Date.now() + 3600_000);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

function IssueEditor({
  id,
  onClose,
  onSaved,
}: {
  id: string | "new";
  onClose: () => void;
  onSaved: (id: string) => void;
}) {
  const { state, reload } = useLoad(async (): Promise<Issue | null> => {
    if (id === "new") return null;
    const supabase = await getSupabase();
    return checked(
      await supabase.from("newsletter_issues").select(COLUMNS).eq("id", id).single<Issue>(),
    );
  }, id);
  return (
    <section aria-labelledby="issue-heading" className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="issue-heading" className="text-xl font-semibold text-ink">
          {id === "new" ? newsletterCopy.newIssue : newsletterCopy.issue}
        </h2>
        <Button type="button" variant="outline" onClick={onClose}>
          {newsletterCopy.back}
        </Button>
      </div>
      <LoadState state={state} what="the issue">
        {(issue) => (
          // One form for the issue as it loads again after each change (its state stays).
          <IssueForm issue={issue} onSaved={onSaved} reload={reload} />
        )}
      </LoadState>
    </section>
  );
}

function IssueForm({
  issue,
  onSaved,
  reload,
}: {
  issue: Issue | null;
  onSaved: (id: string) => void;
  reload: () => void;
}) {
  const [subject, setSubject] = useState(issue?.subject ?? "");
  const [body, setBody] = useState(issue?.body ?? "");
  const [sendAt, setSendAt] = useState(inAnHour);
  const [confirming, setConfirming] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, run] = useBusyAction();
  /** The issue as last saved: its id once it exists, and its text. */
  const [saved, setSaved] = useState({
    id: issue?.id ?? null,
    subject: issue?.subject,
    body: issue?.body,
  });
  const editable = !issue || issue.status === "draft";

  /** Saves the text (a new issue, or a draft's change) and answers the issue's id. */
  const save = async (): Promise<string> => {
    const supabase = await getSupabase();
    if (!saved.id) {
      const created = checked(
        await supabase
          .from("newsletter_issues")
          .insert({ subject, body })
          .select("id")
          .single<{ id: string }>(),
      )!;
      setSaved({ id: created.id, subject, body });
      onSaved(created.id);
      return created.id;
    }
    if (editable && (subject !== saved.subject || body !== saved.body)) {
      checked(
        await supabase.from("newsletter_issues").update({ subject, body }).eq("id", saved.id),
      );
      setSaved({ id: saved.id, subject, body });
    }
    return saved.id;
  };
  const act = (action: () => Promise<void>) => () => void run(action);

  const saveDraft = act(async () => {
    await save();
    toast(newsletterCopy.saved);
    reload();
  });
  const showPreview = act(async () => {
    const issueId = await save();
    const supabase = await getSupabase();
    const email = checked(await supabase.rpc("preview_issue", { issue_id: issueId })) as {
      html: string;
    } | null;
    setPreview(email?.html ?? null);
  });
  const sendTest = act(async () => {
    const issueId = await save();
    const supabase = await getSupabase();
    checked(await supabase.rpc("send_test_issue", { issue_id: issueId }));
    toast(newsletterCopy.testSent);
  });
  const schedule = (at: Date) =>
    act(async () => {
      const issueId = await save();
      const supabase = await getSupabase();
      checked(
        await supabase
          .from("newsletter_issues")
          .update({ status: "scheduled", send_at: at.toISOString() })
          .eq("id", issueId),
      );
      setConfirming(false);
      toast(at.getTime() <= Date.now() ? newsletterCopy.sending : newsletterCopy.scheduled);
      reload();
    });
  const unschedule = act(async () => {
    const supabase = await getSupabase();
    checked(
      await supabase.from("newsletter_issues").update({ status: "draft" }).eq("id", issue!.id),
    );
    toast(newsletterCopy.unscheduled);
    reload();
  });

  return (
    <div className="grid gap-6">
      {issue && issue.status !== "draft" && <IssueState issue={issue} />}
      <div className="grid gap-4 rounded-xl border border-border bg-white p-4">
        <Field label="Subject">
          {(p) => (
            <Input
              {...p}
              value={subject}
              maxLength={200}
              readOnly={!editable}
              onChange={(e) => setSubject(e.target.value)}
            />
          )}
        </Field>
        <Field label="Text (Markdown)" description={newsletterCopy.markdownHelp}>
          {(p) => (
            <Textarea
              {...p}
              value={body}
              rows={14}
              readOnly={!editable}
              className="font-mono text-sm"
              onChange={(e) => setBody(e.target.value)}
            />
          )}
        </Field>
        <div className="flex flex-wrap gap-3">
          {editable && (
            <Button type="button" aria-disabled={busy} onClick={saveDraft}>
              {newsletterCopy.save}
            </Button>
          )}
          <Button type="button" variant="outline" aria-disabled={busy} onClick={showPreview}>
            {newsletterCopy.preview}
          </Button>
          <Button type="button" variant="outline" aria-disabled={busy} onClick={sendTest}>
            {newsletterCopy.sendTest}
          </Button>
        </div>
      </div>
      {editable && (
        <div className="grid gap-4 rounded-xl border border-border bg-white p-4">
          <h3 className="text-base font-semibold text-ink">{newsletterCopy.sendHeading}</h3>
          <div className="flex flex-wrap items-end gap-3">
            <Field label="Send at (your time)">
              {(p) => (
                <Input
                  {...p}
                  type="datetime-local"
                  value={sendAt}
                  onChange={(e) => setSendAt(e.target.value)}
                />
              )}
            </Field>
            <Button
              type="button"
              variant="outline"
              aria-disabled={busy || !sendAt}
              onClick={sendAt ? schedule(new Date(sendAt)) : undefined}
            >
              {newsletterCopy.schedule}
            </Button>
          </div>
          {confirming ? (
            <div role="group" aria-label={newsletterCopy.confirmSend} className="grid gap-3">
              <p className="text-sm text-slate-700">{newsletterCopy.confirmSend}</p>
              <div className="flex flex-wrap gap-3">
                <Button type="button" aria-disabled={busy} onClick={schedule(new Date())}>
                  {newsletterCopy.sendNowConfirmed}
                </Button>
                <Button type="button" variant="outline" onClick={() => setConfirming(false)}>
                  {newsletterCopy.cancel}
                </Button>
              </div>
            </div>
          ) : (
            <div>
              <Button type="button" onClick={() => setConfirming(true)}>
                {newsletterCopy.sendNow}
              </Button>
            </div>
          )}
        </div>
      )}
      {issue?.status === "scheduled" && (
        <div>
          <Button type="button" variant="outline" aria-disabled={busy} onClick={unschedule}>
            {newsletterCopy.unschedule}
          </Button>
        </div>
      )}
      {preview !== null && <Preview html={preview} />}
    </div>
  );
}

/** Where a scheduled, sending or sent issue stands, with its figures. */
function IssueState({ issue }: { issue: Issue }) {
  const figures: [string, number][] = [
    ["Queued", issue.queued],
    ["Sent", issue.sent],
    ["Delivered", issue.delivered],
    ["Failed", issue.failed],
    ["Unsubscribed", issue.unsubscribed],
  ];
  return (
    <div className="grid gap-3 rounded-xl border border-indigo-100 bg-indigo-50 p-4 text-sm text-slate-700">
      <p>
        {issueStatusLabels[issue.status]}
        {issue.status === "scheduled" && issue.send_at
          ? ` for ${formatDateTime(issue.send_at)}`
          : ""}
        {issue.number !== null && (
          <>
            {" · "}
            <a href={`/newsletter/${issue.number}`} className="text-primary underline">
              {newsletterCopy.onTheSite}
            </a>
          </>
        )}
      </p>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-lg font-semibold text-ink">{number(value)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The email as a subscriber's mail app shows it, on a phone (390 px) or a desktop (1280 px). */
function Preview({ html }: { html: string }) {
  const [width, setWidth] = useState<390 | 1280>(390);
  return (
    <section aria-labelledby="preview-heading" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="preview-heading" className="text-base font-semibold text-ink">
          {newsletterCopy.previewHeading}
        </h3>
        <div role="group" aria-label="Preview width" className="flex gap-2">
          {([390, 1280] as const).map((w) => (
            <Button
              key={w}
              type="button"
              size="sm"
              variant={width === w ? "default" : "outline"}
              aria-pressed={width === w}
              onClick={() => setWidth(w)}
            >
              {w === 390 ? "Phone, 390 px" : "Desktop, 1280 px"}
            </Button>
          ))}
        </div>
      </div>
      {/* A focusable scroll region: the desktop width is wider than most screens. */}
      <div
        tabIndex={0}
        role="region"
        aria-label={`Preview, ${width} px wide`}
        className="overflow-x-auto rounded-xl border border-border bg-slate-100 p-2"
      >
        {/* The server's email: the Markdown's raw HTML is escaped there, and a srcdoc frame
            keeps this page's script policy, so nothing in it can run. */}
        <iframe
          title={`The email at ${width} px`}
          srcDoc={html}
          style={{ width }}
          className="h-[640px] max-w-none border-0 bg-white"
        />
      </div>
    </section>
  );
}
