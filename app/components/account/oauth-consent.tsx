// The OAuth consent page's island (/oauth/consent?authorization_id=…): the prerendered page holds
// no personal data; this reads the session in the browser (someone without one, or whose sign-in
// still owes its second step, goes to the sign-in page, which comes back here), reads the request
// as auth-js's oauth.getAuthorizationDetails answers it, and shows who asks, for what and on whose
// account, with Allow and Deny. Either answer (or a request already allowed before, which the
// server answers at once) takes the browser back to the app's redirect URI.
import { useEffect, useState } from "react";
import { consentPage as copy, scopeInWords } from "../../content/oauth-apps.ts";
import { currentUser, needsSecondFactor, signInHref } from "../../lib/account.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";
import { RegionCard } from "../ui/region-card.tsx";

type Details = {
  authorization_id: string;
  client: { id: string; name?: string; uri?: string };
  user: { id: string; email?: string };
  scope: string;
};

type State =
  | { step: "loading" }
  | { step: "missing" }
  | { step: "gone" }
  | { step: "signing-in" }
  | { step: "leaving" }
  | { step: "asking"; details: Details };

/** The request's id, from the page's address. */
const authorizationId = () => new URLSearchParams(window.location.search).get("authorization_id");

async function load(): Promise<State | { redirect: string }> {
  const id = authorizationId();
  if (!id) return { step: "missing" };
  const user = await currentUser();
  const supabase = await getSupabase();
  if (!user || (await needsSecondFactor(supabase)))
    return { redirect: signInHref(window.location.pathname + window.location.search) };
  const { data, error } = await supabase.auth.oauth.getAuthorizationDetails(id);
  if (error || !data) return { step: "gone" };
  // Scopes this person already allowed this app: the server answered it already.
  if ("redirect_url" in data && data.redirect_url) return { redirect: data.redirect_url };
  return { step: "asking", details: data as Details };
}

export function OAuthConsent() {
  const [state, setState] = useState<State>({ step: "loading" });
  const [busy, run] = useBusyAction();
  const [answer, setAnswer] = useState<"approve" | "deny" | null>(null);

  useEffect(() => {
    void load().then((found) => {
      if ("redirect" in found) {
        setState({ step: found.redirect.startsWith("/auth") ? "signing-in" : "leaving" });
        window.location.replace(found.redirect);
      } else setState(found);
    });
  }, []);

  const decide = (action: "approve" | "deny", id: string) =>
    run(async () => {
      setAnswer(action);
      const supabase = await getSupabase();
      const options = { skipBrowserRedirect: true };
      const { data, error } =
        action === "approve"
          ? await supabase.auth.oauth.approveAuthorization(id, options)
          : await supabase.auth.oauth.denyAuthorization(id, options);
      if (error) {
        setAnswer(null);
        throw error;
      }
      setState({ step: "leaving" });
      window.location.assign(data.redirect_url);
    });

  switch (state.step) {
    case "loading":
    case "leaving":
    case "signing-in":
      return (
        <p role="status" className="text-slate-700 noscript:hidden">
          {state.step === "loading"
            ? copy.loading
            : state.step === "leaving"
              ? copy.leaving
              : copy.signIn.description}
        </p>
      );
    case "missing":
      return <RegionCard title={copy.missing.title} description={copy.missing.description} />;
    case "gone":
      return <RegionCard title={copy.gone.title} description={copy.gone.description} />;
  }
  const { details } = state;
  const app = details.client.name || copy.unnamedApp;
  const scopes = details.scope.split(" ").filter(Boolean);
  return (
    <RegionCard title={copy.title(app)} className="max-w-2xl">
      <div className="grid gap-4 text-sm leading-6 text-slate-700">
        {details.client.uri && (
          <p>
            {copy.from}{" "}
            <a
              href={details.client.uri}
              rel="noopener noreferrer"
              className="font-semibold break-all text-primary underline underline-offset-2"
            >
              {details.client.uri}
            </a>
          </p>
        )}
        <p>
          {copy.account}{" "}
          <strong className="font-semibold break-all text-ink">{details.user.email}</strong>
        </p>
        <div>
          <p className="font-semibold text-ink">{copy.asks}</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {scopes.map((scope) => (
              <li key={scope}>{scopeInWords(scope)}</li>
            ))}
          </ul>
        </div>
        <p>{copy.note}</p>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button
          type="button"
          aria-disabled={busy}
          aria-busy={busy && answer === "approve"}
          onClick={() => void decide("approve", details.authorization_id)}
        >
          {busy && answer === "approve" ? copy.approving : copy.approve}
        </Button>
        <Button
          type="button"
          variant="outline"
          aria-disabled={busy}
          aria-busy={busy && answer === "deny"}
          onClick={() => void decide("deny", details.authorization_id)}
        >
          {busy && answer === "deny" ? copy.denying : copy.deny}
        </Button>
      </div>
    </RegionCard>
  );
}
