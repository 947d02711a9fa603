// "Delete account": closed behind one button; opened, it asks for the current password, or (the
// other way, and the only one for an account without a password) a code emailed by
// supabase.auth.reauthenticate. Once the server deleted the account, this browser forgets the
// session and goes to the home page, which says it is done (lib/own-account.ts, decision 0046).
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { deletionPasswordSchema } from "../../../common/accounts.ts";
import { accountDeletion as copy } from "../../content/account-security.ts";
import { CodeForm } from "../../forms/code-form.tsx";
import { CurrentPasswordField } from "../../forms/form-fields.tsx";
import { ScriptForm } from "../../forms/script-form.tsx";
import {
  readableMessage,
  retryAfterSeconds,
  sentTooRecently,
  waitWords,
} from "../../lib/errors.ts";
import { deleteMyAccount, type DeletionProof } from "../../lib/own-account.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { errorToast, flashToast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";

type Step =
  { view: "closed" } | { view: "password" } | { view: "code"; waitSeconds: number | null };

const dangerClass = "border-red-300 text-red-800 hover:bg-red-50";

/** Gone: this browser's session is forgotten; the home page says it is done. */
function leave() {
  flashToast(copy.deleted);
  window.location.assign("/");
}

export function AccountDeletion({ email }: { email: string }) {
  const [step, setStep] = useState<Step>({ view: "closed" });
  const [sending, runSend] = useBusyAction();

  const sendCode = () =>
    runSend(async () => {
      const supabase = await getSupabase();
      const sent = await supabase.auth.reauthenticate();
      if (sent.error && !sentTooRecently(sent.error)) return errorToast(sent.error);
      setStep({ view: "code", waitSeconds: sent.error ? retryAfterSeconds(sent.error) : null });
    });

  /** Deletes with this proof: null when done, else what to show (or a toast was shown). */
  async function remove(proof: DeletionProof): Promise<string | null> {
    const failure = await deleteMyAccount(proof);
    if (!failure) {
      leave();
      return null;
    }
    if (failure.code === "reauthentication_needed") {
      await sendCode();
      return null;
    }
    if (failure.code === "current_password_required") return copy.current.missing;
    if (failure.code === "current_password_mismatch") return copy.current.wrong;
    if (failure.code === "reauthentication_not_valid") return copy.codeWrong;
    if (failure.code === "insufficient_aal") return copy.needsSecondFactor;
    return readableMessage(failure);
  }

  if (step.view === "closed")
    return (
      <Button
        type="button"
        variant="outline"
        className={`justify-self-start ${dangerClass}`}
        onClick={() => setStep({ view: "password" })}
      >
        {copy.open}
      </Button>
    );

  const cancel = { label: copy.cancel, onClick: () => setStep({ view: "closed" }) };

  if (step.view === "code")
    return (
      <div className="grid gap-4">
        <p className="text-sm leading-6 text-slate-700" role="status">
          {step.waitSeconds === null
            ? copy.codeSent(email)
            : copy.askAgainIn(waitWords(step.waitSeconds))}
        </p>
        <CodeForm
          name={copy.confirmLabel}
          label={copy.code.label}
          autoFocus
          submitLabel={copy.submit}
          onCode={(nonce) => remove({ nonce })}
          cancel={cancel}
        />
      </div>
    );

  return <PasswordStep remove={remove} sendCode={sendCode} sending={sending} cancel={cancel} />;
}

function PasswordStep({
  remove,
  sendCode,
  sending,
  cancel,
}: {
  remove: (proof: DeletionProof) => Promise<string | null>;
  sendCode: () => Promise<void>;
  sending: boolean;
  cancel: { label: string; onClick: () => void };
}) {
  const form = useForm<{ current: string }>({
    resolver: zodResolver(deletionPasswordSchema),
    defaultValues: { current: "" },
  });
  const onSubmit = form.handleSubmit(async ({ current }) => {
    const problem = await remove({ current_password: current });
    if (problem) form.setError("current", { message: problem }, { shouldFocus: true });
  });
  const { isSubmitting } = form.formState;
  return (
    <ScriptForm onSubmit={onSubmit} label={copy.confirmLabel} className="grid gap-4">
      <CurrentPasswordField form={form} name="current" copy={copy.current} autoFocus />
      <div className="flex flex-wrap gap-3">
        <Button
          type="submit"
          variant="outline"
          className={dangerClass}
          aria-disabled={isSubmitting}
        >
          {isSubmitting ? copy.deleting : copy.submit}
        </Button>
        <Button
          type="button"
          variant="ghost"
          aria-disabled={sending}
          aria-busy={sending}
          onClick={() => void sendCode()}
        >
          {copy.codeInstead}
        </Button>
        <Button type="button" variant="ghost" onClick={cancel.onClick}>
          {cancel.label}
        </Button>
      </div>
    </ScriptForm>
  );
}
