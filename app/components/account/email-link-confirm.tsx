// The page an account email's link opens (/auth/confirm): what the link is for and one button
// that uses it. Opening the page uses nothing (a mail scanner opens links too); the press does,
// then goes on where the link leads (the sign-in page, which asks for an authenticator app's code
// when the account has one; the new-password page; the account page), saying what happened. A
// link used already or past its hour, or the first of an email change's two links, is said in
// the page, under the button, and announced.
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { emailLinkPage as copy } from "../../content/email-link.ts";
import { readEmailLink, verifyEmailLink, type EmailLink } from "../../lib/email-link.ts";
import { flashToast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";

type Shown =
  | { state: "pending" }
  | { state: "ready"; link: EmailLink }
  | { state: "incomplete" }
  | { state: "said"; words: string; askAgain: boolean };

const noSubscription = () => () => {};

export function EmailLinkConfirm() {
  // The query, once the page runs: the prerendered page (hydrated as built) knows no link.
  const search = useSyncExternalStore(
    noSubscription,
    () => window.location.search,
    () => null,
  );
  const read = useMemo<Shown>(() => {
    if (search === null) return { state: "pending" };
    const link = readEmailLink(search);
    return link ? { state: "ready", link } : { state: "incomplete" };
  }, [search]);
  const [outcome, setShown] = useState<Shown | null>(null);
  const shown = outcome ?? read;
  const [busy, run] = useBusyAction();
  const said = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (shown.state === "said" || shown.state === "incomplete") said.current?.focus();
  }, [shown.state]);

  const use = (link: EmailLink) =>
    run(async () => {
      const outcome = await verifyEmailLink(link);
      switch (outcome.kind) {
        case "signed-in":
          if (link.type === "signup" || link.type === "invite") flashToast(copy.confirmed);
          if (link.type === "email_change") flashToast(copy.emailChanged);
          return window.location.assign(link.next);
        case "other-link":
          return setShown({ state: "said", words: copy.otherLink, askAgain: false });
        case "expired":
          return setShown({ state: "said", words: copy.expired, askAgain: true });
        case "failed":
          return setShown({ state: "said", words: outcome.message, askAgain: true });
      }
    });

  const kind = shown.state === "ready" ? copy.kinds[shown.link.type] : copy.pending;
  if (shown.state === "incomplete" || shown.state === "said")
    return (
      <div className="grid gap-5">
        <p
          ref={said}
          tabIndex={-1}
          role={shown.state === "said" && !shown.askAgain ? "status" : "alert"}
          className="rounded-xl border border-indigo-100 bg-indigo-50 p-5 text-sm leading-6 text-slate-700 outline-none"
        >
          {shown.state === "incomplete" ? copy.incomplete : shown.words}
        </p>
        {(shown.state === "incomplete" || shown.askAgain) && (
          <Button asChild size="lg" variant="outline">
            <a href={copy.askAgain.href}>{copy.askAgain.label}</a>
          </Button>
        )}
      </div>
    );
  return (
    <div className="grid gap-5">
      <p className="text-center text-slate-700">{kind.description}</p>
      <Button
        size="lg"
        aria-disabled={busy || shown.state === "pending"}
        onClick={() => {
          if (shown.state === "ready" && !busy) void use(shown.link);
        }}
      >
        {kind.action}
      </Button>
    </div>
  );
}
