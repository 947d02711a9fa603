// The sign-in page's provider buttons: "Continue with Google", … Each is a plain link to
// GET /auth/v1/authorize, so it works before (and without) the page's script; the provider sends
// the browser back to the page the link was on (its Referer: /auth?next=…), where the session it
// brings is kept and the visitor goes on. Every button is in the page; CSS shows those whose
// provider the server says is on (<html data-providers>), so nothing moves once painted.
import { SIGN_IN_PROVIDERS } from "../../../common/site-build.ts";
import { providerSignIn } from "../../content/sign-in.ts";
import { buttonVariants } from "../ui/button.tsx";

export function ProviderButtons() {
  return (
    <div data-provider-buttons className="mb-6">
      <ul aria-label={providerSignIn.label} className="flex flex-col gap-3">
        {SIGN_IN_PROVIDERS.map((provider) => (
          <li key={provider} data-provider-button={provider}>
            <a
              href={`/auth/v1/authorize?provider=${provider}`}
              className={buttonVariants({ variant: "outline", size: "lg", className: "w-full" })}
            >
              {providerSignIn.buttons[provider]}
            </a>
          </li>
        ))}
      </ul>
      <p className="mt-6 flex items-center gap-3 text-xs font-medium text-slate-600 uppercase before:h-px before:flex-1 before:bg-border after:h-px after:flex-1 after:bg-border">
        {providerSignIn.or}
      </p>
    </div>
  );
}
