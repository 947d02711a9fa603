// Where the person is signed in (GET /functions/v1/sessions): each session's device, address,
// start and last activity, this one marked, each with its own "Sign out" (another device's ends
// that session on the server; this device's signs out here); "Sign out other devices" ends all the
// others. After a device is signed out the line that counts them takes the focus, so the keyboard
// does not fall back to the top of the page with the button that is gone.
import { useEffect, useRef, useState } from "react";
import type { AccountSession } from "../../../common/accounts.ts";
import { sessionList as copy } from "../../content/account-sessions.ts";
import { describeDevice, endSession, formatDateTime, listSessions } from "../../lib/account.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { flashToast, toast, withErrorToast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";

export function SessionList() {
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const [busy, run] = useBusyAction();
  const summary = useRef<HTMLParagraphElement>(null);
  const load = () => withErrorToast(async () => setSessions(await listSessions()));
  useEffect(() => void load(), []);

  const signOutOthers = () =>
    run(async () => {
      const supabase = await getSupabase();
      const { error } = await supabase.auth.signOut({ scope: "others" });
      if (error) throw error;
      toast(copy.othersSignedOut);
      await load();
    });

  const signOutOne = (session: AccountSession) =>
    run(async () => {
      if (session.current) {
        // This device: its session ends here and on the server, as Logout's would for it alone.
        const supabase = await getSupabase();
        const { error } = await supabase.auth.signOut({ scope: "local" });
        if (error) throw error;
        flashToast(copy.thisSignedOut);
        return window.location.assign("/");
      }
      await endSession(session.id);
      toast(copy.oneSignedOut(describeDevice(session.user_agent)));
      await load();
      summary.current?.focus();
    });

  if (!sessions)
    return (
      <p role="status" className="text-sm text-slate-700">
        {copy.loading}
      </p>
    );
  const others = sessions.filter((s) => !s.current).length;
  return (
    <div className="grid gap-5">
      <ul className="divide-y divide-border rounded-xl border border-border" aria-label="Sessions">
        {sessions.map((s) => {
          const device = describeDevice(s.user_agent);
          const since = formatDateTime(s.created_at);
          return (
            <li
              key={s.id}
              className="flex flex-wrap items-start justify-between gap-3 p-4 text-sm leading-6 text-slate-700"
            >
              <div className="grid gap-1">
                <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
                  {device}
                  {s.current && <Badge variant="accent">{copy.thisDevice}</Badge>}
                </p>
                <p>
                  Signed in {since}
                  {s.ip && <> from {s.ip}</>}
                </p>
                <p>Last active {formatDateTime(s.refreshed_at ?? s.updated_at)}</p>
              </div>
              {/* Its name says which device: the visible "Sign out", then the device and time. */}
              <Button
                type="button"
                variant="outline"
                size="sm"
                aria-disabled={busy}
                aria-label={copy.signOutLabel(device, since, s.current)}
                onClick={() => void signOutOne(s)}
              >
                {copy.signOut}
              </Button>
            </li>
          );
        })}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        {/* Keeps the focus while it works and once it is done (nothing left to sign out). */}
        <Button
          type="button"
          variant="outline"
          aria-disabled={busy || others === 0}
          aria-busy={busy}
          onClick={() => void signOutOthers()}
        >
          {copy.signOutOthers}
        </Button>
        <p
          ref={summary}
          tabIndex={-1}
          className="text-sm text-slate-700 outline-none"
          aria-live="polite"
        >
          {copy.count(others)}
        </p>
      </div>
    </div>
  );
}
