// What a page for signed-in people shows a visitor without a session: why, and a link to the
// sign-in page that comes back to it (shown in place: no redirect, nothing moves).
import type * as React from "react";
import { signInHref } from "../../lib/account.ts";
import { Button } from "../ui/button.tsx";
import { RegionCard } from "../ui/region-card.tsx";

export function SignInPrompt({
  title,
  path,
  takeFocus = false,
  children,
}: {
  title: string;
  /** The page to come back to once signed in. */
  path: string;
  /** It replaced what a signed-in person saw (signed out meanwhile): its heading takes the focus. */
  takeFocus?: boolean;
  /** Why this page needs a sign-in. */
  children: React.ReactNode;
}) {
  return (
    <RegionCard title={title} description={children} takeFocus={takeFocus} className="max-w-2xl">
      <Button asChild className="justify-self-start">
        <a href={signInHref(path)}>Sign in</a>
      </Button>
    </RegionCard>
  );
}

/**
 * What such a page shows while it checks who is signed in: a status line in the place of the
 * prompt it will most often show (`prompt`, kept invisible), so the page does not move when
 * the prompt appears. Without JavaScript nothing checks: neither shows, the page's notice
 * (NoScriptNotice) stands alone.
 */
export function CheckingInPlaceOf({ status, prompt }: { status: string; prompt: React.ReactNode }) {
  return (
    <div className="relative noscript:hidden">
      <p role="status" className="absolute inset-x-0 top-0 text-slate-700">
        {status}
      </p>
      <div aria-hidden="true" className="invisible">
        {prompt}
      </div>
    </div>
  );
}
