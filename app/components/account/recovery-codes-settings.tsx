// The recovery codes on the account page, for someone with a verified authenticator app: how many
// are left and when they were made, and new ones on request (after a confirmation, since the old
// ones stop working), shown once. A session that made its codes raised to aal2 (the account page
// lets no other in while an app is on).
import { useEffect, useId, useRef, useState } from "react";
import { recoveryCodesSettings as words } from "../../content/two-step.ts";
import { formatDateTime } from "../../lib/account.ts";
import {
  makeRecoveryCodes,
  recoveryCodesLeft,
  type NewRecoveryCodes,
  type RecoveryCodesLeft,
} from "../../lib/recovery-codes.ts";
import { withErrorToast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";
import { RecoveryCodesShown } from "./recovery-codes-shown.tsx";

type State =
  | { step: "loading" }
  | { step: "summary"; left: RecoveryCodesLeft }
  | { step: "confirming"; left: RecoveryCodesLeft }
  | { step: "shown"; made: NewRecoveryCodes };

const text = "text-sm leading-6 text-slate-700";

export function RecoveryCodesSettings() {
  const [state, setState] = useState<State>({ step: "loading" });
  const [busy, run] = useBusyAction();
  const headingId = useId();
  const load = () =>
    withErrorToast(async () => setState({ step: "summary", left: await recoveryCodesLeft() }));
  useEffect(() => void load(), []);

  // Back from the confirmation or the codes, the button that led there has the focus again.
  const makeButton = useRef<HTMLButtonElement>(null);
  const [returned, setReturned] = useState(0);
  useEffect(() => {
    if (returned > 0) makeButton.current?.focus();
  }, [returned]);
  const backToSummary = (left: RecoveryCodesLeft) => {
    setState({ step: "summary", left });
    setReturned((n) => n + 1);
  };

  const make = () => run(async () => setState({ step: "shown", made: await makeRecoveryCodes() }));

  const body = (() => {
    switch (state.step) {
      case "loading":
        return (
          <p role="status" className={text}>
            {words.loading}
          </p>
        );
      case "summary": {
        const { left } = state;
        const none = left.createdAt === null;
        return (
          <>
            <p className={text}>
              {none ? words.none : words.left(left.remaining, formatDateTime(left.createdAt!))}
            </p>
            <Button
              ref={makeButton}
              type="button"
              variant="outline"
              className="justify-self-start"
              aria-disabled={busy}
              aria-busy={busy}
              onClick={() => (none ? void make() : setState({ step: "confirming", left }))}
            >
              {none ? words.make : words.makeNew}
            </Button>
          </>
        );
      }
      case "confirming": {
        const { left } = state;
        return (
          <ConfirmNewCodes busy={busy} onYes={() => void make()} onNo={() => backToSummary(left)} />
        );
      }
      case "shown":
        return (
          <RecoveryCodesShown
            made={state.made}
            onSaved={() =>
              backToSummary({ remaining: state.made.codes.length, createdAt: state.made.createdAt })
            }
          />
        );
    }
  })();
  return (
    <section aria-labelledby={headingId} className="grid gap-4 border-t border-border pt-5">
      <h3 id={headingId} className="text-base font-semibold text-ink">
        {words.title}
      </h3>
      {body}
    </section>
  );
}

/** "Make new recovery codes?": the question takes the focus, so it is read out first. */
function ConfirmNewCodes({
  busy,
  onYes,
  onNo,
}: {
  busy: boolean;
  onYes: () => void;
  onNo: () => void;
}) {
  const question = useRef<HTMLParagraphElement>(null);
  useEffect(() => question.current?.focus(), []);
  return (
    <div role="group" aria-label={words.makeNew} className="grid gap-4">
      <p ref={question} tabIndex={-1} className={`${text} outline-none`}>
        {words.confirm}
      </p>
      <div className="flex flex-wrap gap-3">
        <Button type="button" aria-disabled={busy} aria-busy={busy} onClick={onYes}>
          {words.confirmYes}
        </Button>
        <Button type="button" variant="ghost" aria-disabled={busy} onClick={onNo}>
          {words.keep}
        </Button>
      </div>
    </div>
  );
}
