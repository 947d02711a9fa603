// The account's sign-in methods (its identities): each with what it names and since when, with
// "Remove" (unlinkIdentity; never the last one), and a button to add each provider that is on and
// not linked yet (linkIdentity: the provider's sign-in, which comes back here with the identity
// added). The providers that are on are the ones the server names on <html data-providers>.
import type { UserIdentity } from "@supabase/supabase-js";
import { SIGN_IN_PROVIDERS, type SignInProvider } from "../../../common/site-build.ts";
import { signInMethods as copy } from "../../content/sign-in-methods.ts";
import { formatDateTime } from "../../lib/account.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { toast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";

/** The providers the server says are on (read from the page). */
function providersOn(): SignInProvider[] {
  const named = (document.documentElement.dataset.providers ?? "").split(" ");
  return SIGN_IN_PROVIDERS.filter((p) => named.includes(p));
}

/** What an identity names: its address, else its number. */
function detailOf(identity: UserIdentity): string {
  const data = identity.identity_data ?? {};
  return String(data.email ?? data.phone ?? "");
}

export function SignInMethods({
  identities,
  onChanged,
}: {
  identities: UserIdentity[];
  onChanged: () => void;
}) {
  const [busy, run] = useBusyAction();
  const linked = new Set(identities.map((i) => i.provider));
  const linkable = providersOn().filter((p) => !linked.has(p));

  const unlink = (identity: UserIdentity) =>
    run(async () => {
      const supabase = await getSupabase();
      const { error } = await supabase.auth.unlinkIdentity(identity);
      if (error) throw error;
      toast(copy.unlinked(copy.providerName(identity.provider)));
      onChanged();
    });

  const link = (provider: SignInProvider) =>
    run(async () => {
      const supabase = await getSupabase();
      const { error } = await supabase.auth.linkIdentity({
        provider,
        options: { redirectTo: `${window.location.origin}/account` },
      });
      if (error?.code === "manual_linking_disabled") throw new Error(copy.linkingOff);
      if (error) throw error;
    });

  return (
    <div className="grid gap-5">
      <ul
        className="divide-y divide-border rounded-xl border border-border"
        aria-label={copy.listLabel}
      >
        {identities.map((identity) => {
          const name = copy.providerName(identity.provider);
          const detail = detailOf(identity);
          return (
            <li
              key={identity.identity_id}
              className="flex flex-wrap items-start justify-between gap-3 p-4 text-sm leading-6 text-slate-700"
            >
              <div className="grid gap-1">
                <p className="font-semibold text-ink">{name}</p>
                {detail && <p className="break-all">{detail}</p>}
                {identity.created_at && <p>{copy.since(formatDateTime(identity.created_at))}</p>}
              </div>
              {identities.length > 1 && (
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  aria-disabled={busy}
                  aria-label={copy.unlinkLabel(name, detail)}
                  onClick={() => void unlink(identity)}
                >
                  {copy.unlink}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      {identities.length === 1 && <p className="text-sm text-slate-700">{copy.lastOne}</p>}
      {linkable.length > 0 && (
        <div className="grid gap-3">
          <h3 className="text-sm font-semibold text-ink">{copy.linkHeading}</h3>
          <div className="flex flex-wrap gap-3">
            {linkable.map((provider) => (
              <Button
                key={provider}
                type="button"
                variant="outline"
                aria-disabled={busy}
                onClick={() => void link(provider)}
              >
                {copy.link(provider)}
              </Button>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
