// Where the person is signed in (GET /functions/v1/sessions): each session's device, address,
// start and last activity, this one marked; "Sign out other devices" ends all the others.
import { useEffect, useState } from "react";
import type { AccountSession } from "../../../common/accounts.ts";
import { describeDevice, formatDateTime, listSessions } from "../../lib/account.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { toast, withErrorToast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";

export function SessionList() {
  const [sessions, setSessions] = useState<AccountSession[] | null>(null);
  const [busy, run] = useBusyAction();
  const load = () => withErrorToast(async () => setSessions(await listSessions()));
  useEffect(() => void load(), []);

  const signOutOthers = () =>
    run(async () => {
      const supabase = await getSupabase();
      const { error } = await supabase.auth.signOut({ scope: "others" });
      if (error) throw error;
      toast({
        title: "Signed out of other devices",
        description: "Only this device is still signed in.",
      });
      await load();
    });

  if (!sessions)
    return (
      <p role="status" className="text-sm text-slate-700">
        Loading your sessions...
      </p>
    );
  const others = sessions.filter((s) => !s.current).length;
  return (
    <div className="grid gap-5">
      <ul className="divide-y divide-border rounded-xl border border-border" aria-label="Sessions">
        {sessions.map((s) => (
          <li key={s.id} className="grid gap-1 p-4 text-sm leading-6 text-slate-700">
            <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
              {describeDevice(s.user_agent)}
              {s.current && <Badge variant="accent">This device</Badge>}
            </p>
            <p>
              Signed in {formatDateTime(s.created_at)}
              {s.ip && <> from {s.ip}</>}
            </p>
            <p>Last active {formatDateTime(s.refreshed_at ?? s.updated_at)}</p>
          </li>
        ))}
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
          Sign out other devices
        </Button>
        <p className="text-sm text-slate-700" aria-live="polite">
          {others === 0
            ? "You're signed in on this device only."
            : `Signed in on ${others} other ${others === 1 ? "device" : "devices"}.`}
        </p>
      </div>
    </div>
  );
}
