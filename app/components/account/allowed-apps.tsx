// The account page's "Apps you allowed" (auth-js's oauth.listGrants and revokeGrant): each app
// the person let use their account, what it can do and since when, each with its own "Remove"
// (which ends the app's sessions on the server). Shown only where the server offers OAuth apps
// (it names them on <html data-providers>), else never asked for. After a
// removal the line that counts the apps takes the focus, as the session list's does.
import { useEffect, useRef, useState } from "react";
import { OAUTH_APPS } from "../../../common/site-build.ts";
import { allowedApps as copy, scopeInWords } from "../../content/oauth-apps.ts";
import { formatDateTime } from "../../lib/account.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { toast, withErrorToast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";
import { RegionCard } from "../ui/region-card.tsx";

type Grant = {
  client: { id: string; name: string; uri: string };
  scopes: string[];
  granted_at: string;
};

/** The grants, or null where the server has no OAuth apps (or could not say). */
async function listGrants(): Promise<Grant[] | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.oauth.listGrants();
  return error || !data ? null : (data as Grant[]);
}

/**
 * Whether the server offers OAuth apps: it names them on the page's <html> (read in the browser
 * only; the section shows once the account is read).
 */
const offered = () =>
  (document.documentElement.dataset.providers ?? "").split(" ").includes(OAUTH_APPS);

export function AllowedApps() {
  const [grants, setGrants] = useState<Grant[] | null | "none">(null);
  const [busy, run] = useBusyAction();
  const summary = useRef<HTMLParagraphElement>(null);
  const load = () =>
    withErrorToast(async () => {
      if (offered()) setGrants((await listGrants()) ?? "none");
    });
  useEffect(() => void load(), []);

  if (!offered() || grants === "none") return null;

  const remove = (grant: Grant, app: string) =>
    run(async () => {
      const supabase = await getSupabase();
      const { error } = await supabase.auth.oauth.revokeGrant({ clientId: grant.client.id });
      if (error) throw error;
      toast(copy.removed(app));
      await load();
      summary.current?.focus();
    });

  return (
    <RegionCard title={copy.title} description={copy.description}>
      {grants === null ? (
        <p role="status" className="text-sm text-slate-700">
          {copy.loading}
        </p>
      ) : (
        <>
          {grants.length > 0 && (
            <ul
              className="divide-y divide-border rounded-xl border border-border"
              aria-label={copy.title}
            >
              {grants.map((grant) => {
                const app = grant.client.name || grant.client.uri || grant.client.id;
                return (
                  <li
                    key={grant.client.id}
                    className="flex flex-wrap items-start justify-between gap-3 p-4 text-sm leading-6 text-slate-700"
                  >
                    <div className="grid gap-1">
                      <p className="font-semibold break-all text-ink">{app}</p>
                      <p>{copy.since(formatDateTime(grant.granted_at))}</p>
                      <p>
                        {copy.can} {grant.scopes.map(scopeInWords).join("; ")}
                      </p>
                    </div>
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      aria-disabled={busy}
                      aria-label={copy.removeLabel(app)}
                      onClick={() => void remove(grant, app)}
                    >
                      {copy.remove}
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
          <p
            ref={summary}
            tabIndex={-1}
            className="text-sm text-slate-700 outline-none"
            aria-live="polite"
          >
            {grants.length === 0 ? copy.none : copy.count(grants.length)}
          </p>
        </>
      )}
    </RegionCard>
  );
}
