// What the sign-in page shows someone already signed in: who they are, their account page and
// Logout. Its heading takes the focus, so it is announced and the keyboard starts there.
import type { User } from "@supabase/supabase-js";
import { useEffect, useRef } from "react";
import { signedInView as copy } from "../../content/sign-in.ts";
import { nameOf } from "../../lib/account.ts";
import { AddressLine } from "../ui/address.tsx";
import { Button } from "../ui/button.tsx";
import { SiteAndLogout } from "./site-and-logout.tsx";

export function SignedInCard({ user }: { user: User }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="grid gap-5">
      <div className="rounded-xl border border-indigo-100 bg-indigo-50 p-5 text-sm leading-6 text-slate-700">
        <h2 ref={heading} tabIndex={-1} className="font-semibold text-ink outline-none">
          {copy.title}
        </h2>
        <p className="mt-1">
          <AddressLine line={copy.signedInAs(nameOf(user))} address={user.email ?? ""} />
        </p>
      </div>
      <div className="grid gap-3">
        <Button asChild size="lg">
          <a href="/account">{copy.account}</a>
        </Button>
        <SiteAndLogout size="lg" />
      </div>
    </div>
  );
}
