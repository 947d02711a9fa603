// A row's action that calls one of the server's functions (`rpc(name, args)` answers true when it
// did it, false when the row was not in a state for it), says which, and lets the list show the
// row's new state: "Resend" on a failed email or webhook delivery, "Unsubscribe" and "Delete" on
// a newsletter subscriber.
import type * as React from "react";
import { getSupabase } from "../../lib/supabase.ts";
import { errorToast, toast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";

type RpcButtonProps = {
  rpc: "resend_email" | "resend_webhook" | "unsubscribe_subscriber" | "delete_subscriber";
  args: Record<string, string>;
  /** The button's accessible name: what is done to whom. */
  label: string;
  /** The toast when it was done. */
  queued: { title: string; description: string };
  /** What to say when the server did not do it. */
  refused: string;
  onDone: () => void;
};

export function RpcButton({
  rpc,
  args,
  label,
  queued,
  refused,
  onDone,
  children,
}: RpcButtonProps & {
  /** The button's visible text. */
  children: React.ReactNode;
}) {
  const [busy, run] = useBusyAction();
  const call = async () => {
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
      onClick={() => void run(call)}
    >
      {children}
    </Button>
  );
}

export function ResendButton(props: RpcButtonProps) {
  return <RpcButton {...props}>Resend</RpcButton>;
}
