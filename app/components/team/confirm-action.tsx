// A button whose action is asked about first (a deletion, a reset): pressed, it becomes the
// question, its two answers, with the focus on the safe one ("Keep it"). Answered "Keep it", or
// when the action failed (its error shown as a toast) or left the row in place, the focus comes
// back to the button; an action that removed the row moves the focus itself.
import { useEffect, useRef, useState } from "react";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";

export function ConfirmAction({
  label,
  name,
  yes,
  onConfirm,
}: {
  /** The button's text: "Delete". */
  label: string;
  /** Its accessible name, naming what it acts on: "Delete https://…". */
  name: string;
  /** The answer that acts: "Yes, delete". */
  yes: string;
  /** The action; true when it removed the row (the button with it). */
  onConfirm: () => Promise<boolean>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, run] = useBusyAction();
  const keep = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) keep.current?.focus();
    else if (asked.current) ask.current?.focus();
    asked.current = confirming;
  }, [confirming]);
  const act = async () => {
    let gone = false;
    await run(async () => {
      gone = await onConfirm();
    });
    if (!gone) setConfirming(false);
  };
  if (confirming)
    return (
      <span role="group" aria-label={`${name}?`} className="flex flex-wrap gap-2">
        <Button
          type="button"
          size="sm"
          variant="outline"
          className="border-destructive text-destructive hover:bg-rose-50"
          aria-disabled={busy}
          onClick={() => void act()}
        >
          {yes}
        </Button>
        <Button
          ref={keep}
          type="button"
          size="sm"
          variant="ghost"
          onClick={() => setConfirming(false)}
        >
          Keep it
        </Button>
      </span>
    );
  return (
    <Button
      ref={ask}
      type="button"
      size="sm"
      variant="ghost"
      aria-label={name}
      onClick={() => setConfirming(true)}
    >
      {label}
    </Button>
  );
}
