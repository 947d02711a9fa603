// Adding a security key (or a passkey as one) as a second step, beside the authenticator app: a
// name for it, then the browser's prompt; the key is on as soon as the prompt is answered (the
// session is raised to aal2 by it). A name already given to another second step is not offered.
import { useId, useRef, useState } from "react";
import { securityKeysSettings as copy } from "../../content/passkeys.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { addSecurityKey, announceAdded, browserHasWebAuthn } from "../../lib/webauthn.ts";
import { Button } from "../ui/button.tsx";
import { Input } from "../ui/input.tsx";

/** The default name, numbered past the names already taken ("Security key 2"). */
function freeName(taken: string[]) {
  let name = copy.defaultName;
  for (let n = 2; taken.includes(name); n++) name = `${copy.defaultName} ${n}`;
  return name;
}

export function SecurityKeyAdd({
  names,
  onAdded,
}: {
  /** The names of the account's second steps (a new one must differ). */
  names: string[];
  onAdded: () => Promise<void>;
}) {
  const [busy, run] = useBusyAction();
  const nameId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [supported] = useState(browserHasWebAuthn);
  if (!supported) return null;
  const add = () =>
    run(async () => {
      const typed = input.current?.value.trim() ?? "";
      if (announceAdded(await addSecurityKey(typed || freeName(names)), copy)) await onAdded();
    });
  return (
    <div className="grid gap-3 border-t border-border pt-5">
      <h3 className="text-base font-semibold text-ink">{copy.heading}</h3>
      <p className="text-sm leading-6 text-slate-700">{copy.description}</p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <label htmlFor={nameId} className="text-sm font-medium text-ink">
            {copy.nameLabel}
          </label>
          <Input
            id={nameId}
            ref={input}
            maxLength={120}
            autoComplete="off"
            placeholder={copy.namePlaceholder}
          />
        </div>
        <Button type="button" variant="outline" aria-disabled={busy} onClick={() => void add()}>
          {copy.add}
        </Button>
      </div>
    </div>
  );
}
