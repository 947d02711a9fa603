// A new set of recovery codes, shown this once (the server keeps only their hashes): the ten codes,
// a copy to the clipboard, a download as a text file, and "I've saved them", which the caller
// follows with what comes next. Its heading takes the focus when it appears, so the codes are
// announced and the keyboard starts there.
import { recoveryCodesShown as words } from "../../content/two-step.ts";
import { formatDateTime } from "../../lib/account.ts";
import type { NewRecoveryCodes } from "../../lib/recovery-codes.ts";
import { errorToast, toast } from "../../lib/toast.ts";
import { Button } from "../ui/button.tsx";
import { StepHeading } from "../ui/region-card.tsx";

export function RecoveryCodesShown({
  made,
  onSaved,
  saveLabel = words.saved,
}: {
  made: NewRecoveryCodes;
  onSaved: () => void;
  saveLabel?: string;
}) {
  const { codes, createdAt } = made;
  const file = words.file(codes, formatDateTime(createdAt), window.location.host);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      toast(words.copied);
    } catch {
      errorToast(words.copyFailed);
    }
  };
  return (
    <div className="grid gap-5" data-slot="recovery-codes">
      <StepHeading title={words.title} description={words.description} takeFocus />
      <ul
        aria-label={words.listLabel}
        className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-lg bg-muted px-4 py-3 font-mono text-base text-ink sm:max-w-md"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <Button type="button" variant="outline" onClick={() => void copy()}>
          {words.copy}
        </Button>
        <Button asChild variant="outline">
          <a
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`}
            download={words.fileName}
          >
            {words.download}
          </a>
        </Button>
      </div>
      <Button type="button" className="justify-self-start" onClick={onSaved}>
        {saveLabel}
      </Button>
    </div>
  );
}
