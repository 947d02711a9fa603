import { Icon } from "../components/ui/icon.tsx";
import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { AuthFrame } from "../sections/pages/auth-frame.tsx";

export const meta = () => pageMeta(pages.resetPassword, { noindex: true });

export default function Page() {
  return (
    <AuthFrame
      title="Choose a new password"
      subtitle="Set a new password for your Revwise account, so you can sign in again."
      footer={
        <p>
          Remembered it after all?{" "}
          <a
            href={pages.auth.path}
            className="font-semibold text-primary underline-offset-4 hover:underline"
          >
            Back to sign in
          </a>
        </p>
      }
    >
      {/* The new-password form (an island) goes here once the accounts work adds it. */}
      <div className="flex gap-4 rounded-xl border border-indigo-100 bg-indigo-50 p-5">
        <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-white text-primary shadow-xs">
          <Icon name="mail" />
        </span>
        <div className="text-sm leading-6 text-slate-700">
          <p className="font-semibold text-ink">Open the link from your recovery email</p>
          <p className="mt-1">
            The password recovery email we sent you contains a link that brings you back to this
            page, where you can choose your new password. If the link has expired or the email
            hasn't arrived, check your spam folder, then request a new one from the sign-in page.
          </p>
        </div>
      </div>
    </AuthFrame>
  );
}
