// "Resend" on a failed email or webhook delivery: calls the server's function for it
// (`rpc(name, args)` answers true when it queued the row again, false when the row was not in a
// state to resend), says which, and lets the list show the row's new state.
import { getSupabase } from "../../lib/supabase.ts";
import { errorToast, toast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";

export function ResendButton({
  rpc,
  args,
  label,
  queued,
  refused,
  onDone,
}: {
  rpc: "resend_email" | "resend_webhook";
  args: Record<string, string>;
  /** The button's accessible name: what is resent to whom. */
  label: string;
  /** The toast when it was queued again. */
  queued: { title: string; description: string };
  /** What to say when the server did not resend it. */
  refused: string;
  onDone: () => void;
}) {
  const [busy, run] = useBusyAction();
  const resend = async () => {
    const supabase = await getSupabase();
    const { data, error } = await supabase.rpc(rpc, args);
    if (error) throw new Error(error.message);
    if (data === true) toast(queued);
    else errorToast(refused);
    onDone();
  };
  return (
    <Button
      type="button"
      size="sm"
      variant="outline"
      aria-disabled={busy}
      aria-label={label}
      onClick={() => void run(resend)}
    >
      Resend
    </Button>
  );
}
