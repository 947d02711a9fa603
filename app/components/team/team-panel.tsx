// The Team tab (admins only): who is on the team, with their role, whether they accepted their
// invitation (and until when it works), who invited them and why, and whether they set up an
// authenticator app; an invitation form (checked with the server's schema); and, on every row
// but the admin's own, a change of role, a reset of the member's two-step verification and a
// removal from the team, each asked about first where it cannot be undone by a click; and the
// team's time zone (time-zone-form.tsx). The server answers all of it to admins who passed their
// second factor only, and logs every change.
import { useState } from "react";
import { INVITE_NOTE_MAX, teamInviteSchema, type TeamRole } from "../../../common/workspace.ts";
import { optionsOf, teamRoleLabels, teamTab } from "../../content/team.ts";
import { formatDateTime } from "../../lib/account.ts";
import { readableMessage } from "../../lib/errors.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { rowsOf } from "../../lib/team-data.ts";
import { toast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { ScriptForm } from "../../forms/script-form.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { Field } from "../ui/field.tsx";
import { Input } from "../ui/input.tsx";
import { Select } from "../ui/select.tsx";
import { Textarea } from "../ui/textarea.tsx";
import { ConfirmAction } from "./confirm-action.tsx";
import { DataTable, FreeText, LoadState, useLoad, type Column } from "./data-table.tsx";
import { TimeZoneForm } from "./time-zone-form.tsx";

type Member = {
  id: string;
  email: string;
  role: TeamRole;
  active: boolean;
  invited_by: string | null;
  invite_note: string | null;
  invite_expires_at: string | null;
  two_step: boolean;
};

async function readTeam(): Promise<Member[]> {
  const supabase = await getSupabase();
  return rowsOf<Member>(
    await supabase
      .from("team_accounts")
      .select("id,email,role,active,invited_by,invite_note,invite_expires_at,two_step")
      .order("email"),
  ).rows;
}

/** A change of the team; its error, when the server refuses it, thrown in the server's words. */
async function changeMember(
  id: string,
  change: { role: TeamRole } | "remove" | "reset",
): Promise<void> {
  const supabase = await getSupabase();
  const { error } =
    change === "reset"
      ? await supabase.rpc("reset_member_factors", { user_id: id })
      : change === "remove"
        ? await supabase.from("team_accounts").delete().eq("id", id)
        : await supabase.from("team_accounts").update(change).eq("id", id);
  if (error) throw new Error(readableMessage(error.message));
}

function status(m: Member): string {
  if (m.active) return teamTab.active;
  if (m.invite_expires_at) return `${teamTab.invitedUntil} ${formatDateTime(m.invite_expires_at)}`;
  return teamTab.expired;
}

export function TeamPanel({ self }: { self: string }) {
  const { state, reload } = useLoad(readTeam, "team");
  const columns: Column<Member>[] = [
    {
      header: "Email",
      cell: (m) => (
        <FreeText>
          {m.email} {m.email === self && teamTab.you}
        </FreeText>
      ),
      rowHeader: true,
      className: "min-w-52",
    },
    {
      header: "Role",
      cell: (m) => (
        <Badge variant={m.role === "admin" ? "accent" : "default"}>{teamRoleLabels[m.role]}</Badge>
      ),
    },
    {
      header: "Status",
      className: "min-w-40",
      cell: (m) => (
        <span className="grid gap-1">
          <span>{status(m)}</span>
          <span className="text-xs text-slate-700">
            {m.two_step ? teamTab.twoStepOn : teamTab.twoStepOff}
          </span>
        </span>
      ),
    },
    {
      header: "Invited by",
      cell: (m) =>
        m.invited_by ? (
          <span className="grid gap-1">
            <FreeText>{m.invited_by}</FreeText>
            {m.invite_note && <FreeText className="text-xs">“{m.invite_note}”</FreeText>}
          </span>
        ) : (
          "–"
        ),
      className: "min-w-48",
    },
    {
      header: "Actions",
      cell: (m) => (m.email === self ? "–" : <MemberActions member={m} onChanged={reload} />),
    },
  ];
  return (
    <section aria-labelledby="team-heading" className="grid gap-4">
      {/* Focusable by script: a removed member's row goes, and the focus comes here. */}
      <h2 id="team-heading" tabIndex={-1} className="text-xl font-semibold text-ink outline-none">
        {teamTab.title}
      </h2>
      <p className="max-w-3xl text-sm leading-6 text-slate-700">{teamTab.intro}</p>
      <TimeZoneForm />
      <InviteForm onInvited={reload} />
      <LoadState state={state} what="the team">
        {(rows) => (
          <>
            <p role="status" className="text-sm text-slate-700">
              {teamTab.count(rows.length, rows.filter((m) => !m.active).length)}
            </p>
            <DataTable
              caption={teamTab.caption}
              rows={rows}
              rowKey={(m) => m.id}
              empty={teamTab.empty}
              columns={columns}
            />
          </>
        )}
      </LoadState>
    </section>
  );
}

function MemberActions({ member, onChanged }: { member: Member; onChanged: () => void }) {
  const [busy, run] = useBusyAction();
  const other: TeamRole = member.role === "admin" ? "member" : "admin";
  /** Makes the change, says so in a toast naming the member, and reloads the list. */
  const change = async (what: Parameters<typeof changeMember>[1], title: string, said: string) => {
    await changeMember(member.id, what);
    toast({ title, description: `${member.email}${said}` });
    onChanged();
  };
  return (
    <span className="flex flex-wrap gap-2">
      <Button
        type="button"
        size="sm"
        variant="outline"
        aria-disabled={busy}
        // The visible words first, so speech input finds the button by them.
        aria-label={`Make ${other}: ${member.email}`}
        onClick={() =>
          void run(() => change({ role: other }, teamTab.roleChanged, `: ${teamRoleLabels[other]}`))
        }
      >
        Make {other}
      </Button>
      {member.active && (
        <ConfirmAction
          label="Reset two-step"
          name={`Reset two-step: ${member.email}`}
          yes="Yes, reset"
          onConfirm={async () => {
            await change("reset", teamTab.resetDone, ` ${teamTab.resetDoneDetail}`);
            return false;
          }}
        />
      )}
      <ConfirmAction
        label="Remove"
        name={`Remove: ${member.email}`}
        yes="Yes, remove"
        onConfirm={async () => {
          await change("remove", teamTab.removed, ` ${teamTab.removedDetail}`);
          // The row (and the button that had the focus) goes with the member.
          document.getElementById("team-heading")?.focus();
          return true;
        }}
      />
    </span>
  );
}

type InviteErrors = Partial<Record<"email" | "role" | "note", string>>;

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const copy = teamTab.invite;
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<TeamRole>("member");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<InviteErrors>({});
  const [busy, run] = useBusyAction();
  const send = async () => {
    const parsed = teamInviteSchema.safeParse({ email, role, note });
    if (!parsed.success) {
      const found: InviteErrors = {};
      for (const issue of parsed.error.issues)
        found[String(issue.path[0]) as keyof InviteErrors] ??= issue.message;
      return setErrors(found);
    }
    const supabase = await getSupabase();
    const { error } = await supabase.from("team_accounts").insert(parsed.data);
    if (error?.code === "23505")
      return setErrors({ email: `${parsed.data.email} ${copy.already}` });
    if (error) throw new Error(readableMessage(error.details ?? error.message));
    toast({ title: copy.sent, description: parsed.data.email });
    setEmail("");
    setNote("");
    setRole("member");
    onInvited();
  };
  return (
    <Card className="grid gap-4 p-5">
      <ScriptForm
        label={copy.title}
        onSubmit={(e) => {
          e.preventDefault();
          void run(send);
        }}
        className="grid gap-4"
      >
        <h3 className="font-semibold text-ink">{copy.title}</h3>
        <div className="grid items-start gap-4 md:grid-cols-2">
          <Field label={copy.email} error={errors.email}>
            {(p) => (
              <Input
                {...p}
                type="email"
                autoComplete="off"
                value={email}
                onChange={(e) => {
                  setEmail(e.target.value);
                  setErrors({ ...errors, email: undefined });
                }}
                placeholder="colleague@revwise.example"
              />
            )}
          </Field>
          <Field label={copy.role} description={copy.roleHelp} error={errors.role}>
            {(p) => (
              <Select {...p} value={role} onChange={(e) => setRole(e.target.value as TeamRole)}>
                {optionsOf(teamRoleLabels).map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        </div>
        <Field label={copy.note} description={copy.noteHelp} error={errors.note} optional>
          {(p) => (
            <Textarea
              {...p}
              className="min-h-20"
              maxLength={INVITE_NOTE_MAX}
              value={note}
              onChange={(e) => {
                setNote(e.target.value);
                setErrors({ ...errors, note: undefined });
              }}
            />
          )}
        </Field>
        <Button type="submit" className="justify-self-start" aria-disabled={busy}>
          {busy ? copy.sending : copy.submit}
        </Button>
      </ScriptForm>
    </Card>
  );
}
