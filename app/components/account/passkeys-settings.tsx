// The account page's passkeys, where the server and the browser offer them: each passkey with when
// it was added and last used, renamed in place or removed, and "Add a passkey" (the browser's
// prompt makes one for this account). Nothing shows where passkeys are off.
import { useEffect, useId, useRef, useState } from "react";
import { passkeysSettings as copy } from "../../content/passkeys.ts";
import { formatDateTime } from "../../lib/account.ts";
import { toast, withErrorToast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import {
  addPasskey,
  announceAdded,
  listPasskeys,
  passkeysOffered,
  removePasskey,
  renamePasskey,
  type Passkey,
} from "../../lib/webauthn.ts";
import { Button } from "../ui/button.tsx";
import { Input } from "../ui/input.tsx";
import { RegionCard } from "../ui/region-card.tsx";
import { ScriptForm } from "../../forms/script-form.tsx";

const text = "text-sm leading-6 text-slate-700";
const nameOf = (passkey: Passkey) => passkey.friendly_name || "Passkey";

export function PasskeysSettings() {
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [offered, setOffered] = useState(false);
  const [busy, run] = useBusyAction();
  const reload = async () => setPasskeys(await listPasskeys());
  useEffect(() => {
    void passkeysOffered().then((on) => {
      setOffered(on);
      if (on) void withErrorToast(reload);
    });
  }, []);
  if (!offered) return null;

  const add = () =>
    run(async () => {
      if (announceAdded(await addPasskey(), copy)) await reload();
    });

  return (
    <RegionCard title={copy.title} description={copy.description}>
      {passkeys === null ? null : passkeys.length === 0 ? (
        <p className={text}>{copy.empty}</p>
      ) : (
        <ul aria-label={copy.listLabel} className="grid gap-4">
          {passkeys.map((passkey) => (
            <PasskeyItem
              key={passkey.id}
              passkey={passkey}
              busy={busy}
              onRename={(name) =>
                run(async () => {
                  await renamePasskey(passkey.id, name);
                  toast(copy.renamed);
                  await reload();
                })
              }
              onRemove={() =>
                run(async () => {
                  await removePasskey(passkey.id);
                  toast(copy.removed);
                  await reload();
                })
              }
            />
          ))}
        </ul>
      )}
      <Button
        type="button"
        className="justify-self-start"
        aria-disabled={busy}
        onClick={() => void add()}
      >
        {copy.add}
      </Button>
    </RegionCard>
  );
}

/** One passkey: its name, when added and last used; Rename (a field in place) and Remove. */
function PasskeyItem({
  passkey,
  busy,
  onRename,
  onRemove,
}: {
  passkey: Passkey;
  busy: boolean;
  onRename: (name: string) => Promise<void>;
  onRemove: () => Promise<void>;
}) {
  const [renaming, setRenaming] = useState(false);
  const fieldId = useId();
  const field = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (renaming) field.current?.focus();
  }, [renaming]);
  const name = nameOf(passkey);
  const used = passkey.last_used_at
    ? copy.lastUsed(formatDateTime(passkey.last_used_at))
    : copy.neverUsed;
  const close = () => {
    setRenaming(false);
    requestAnimationFrame(() => renameButton.current?.focus());
  };
  return (
    <li className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className={text}>
          <p className="font-semibold text-ink">{name}</p>
          <p>
            {copy.addedOn(formatDateTime(passkey.created_at))}, {used}
          </p>
        </div>
        {!renaming && (
          <div className="flex flex-wrap gap-3">
            <Button
              ref={renameButton}
              type="button"
              variant="outline"
              aria-label={copy.renameLabel(name)}
              aria-disabled={busy}
              onClick={() => setRenaming(true)}
            >
              {copy.rename}
            </Button>
            <Button
              type="button"
              variant="outline"
              aria-label={copy.removeLabel(name)}
              aria-disabled={busy}
              onClick={() => void onRemove()}
            >
              {copy.remove}
            </Button>
          </div>
        )}
      </div>
      {renaming && (
        <ScriptForm
          label={copy.renameLabel(name)}
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            const next = field.current?.value.trim() ?? "";
            if (!next) return field.current?.focus();
            return onRename(next).then(close);
          }}
          onKeyDown={(e) => {
            if (e.key === "Escape") close();
          }}
        >
          <div className="grid gap-1.5">
            <label htmlFor={fieldId} className="text-sm font-medium text-ink">
              {copy.nameLabel}
            </label>
            <Input
              id={fieldId}
              ref={field}
              defaultValue={name}
              maxLength={120}
              required
              autoComplete="off"
            />
          </div>
          <Button type="submit" aria-disabled={busy}>
            {copy.save}
          </Button>
          <Button type="button" variant="ghost" onClick={close}>
            {copy.cancel}
          </Button>
        </ScriptForm>
      )}
    </li>
  );
}
