import { ResetPasswordForm } from "../forms/reset-password-form.tsx";
import { Island } from "../islands/island.tsx";
import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { AuthFrame } from "../sections/pages/auth-frame.tsx";

export const meta = () => pageMeta(pages.resetPassword);

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
      <Island name="reset-password-form" component={ResetPasswordForm} props={{}} hydrate="load" />
    </AuthFrame>
  );
}
