// The sign-in page's provider buttons: "Continue with Google", … Each is a plain link to
// GET /auth/v1/authorize, so it works before (and without) the page's script; the provider sends
// the browser back to the page the link was on (its Referer: /auth?next=…), where the session it
// brings is kept and the visitor goes on. "Sign in with SSO" is a plain form too: the server finds
// the company's identity provider by the work email's domain and sends the browser there. Every
// button is in the page; CSS shows those whose provider the server says is on (<html
// data-providers>), so nothing moves once painted.
import { SIGN_IN_PROVIDERS } from "../../../common/site-build.ts";
import { providerSignIn, ssoSignIn } from "../../content/sign-in.ts";
import { buttonVariants } from "../ui/button.tsx";
import { Input } from "../ui/input.tsx";
import { Label } from "../ui/label.tsx";

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
      <form
        method="post"
        action="/auth/v1/sso/email"
        aria-label={ssoSignIn.formLabel}
        data-provider-button="sso"
        className="mt-3"
      >
        <Label htmlFor="sso-email">{ssoSignIn.email.label}</Label>
        <div className="mt-1.5 flex gap-2">
          <Input
            id="sso-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            placeholder={ssoSignIn.email.placeholder}
          />
          <button
            type="submit"
            className={buttonVariants({ variant: "outline", className: "h-10 shrink-0" })}
          >
            {ssoSignIn.submit}
          </button>
        </div>
      </form>
      <p className="mt-6 flex items-center gap-3 text-xs font-medium text-slate-600 uppercase before:h-px before:flex-1 before:bg-border after:h-px after:flex-1 after:bg-border">
        {providerSignIn.or}
      </p>
    </div>
  );
}
