// "Download my data": the person's data as a JSON file (lib/own-account.ts), the button busy
// while it is gathered; a refusal is said in a toast.
import { dataDownload as copy } from "../../content/account-security.ts";
import { fetchMyData, saveAsJson } from "../../lib/own-account.ts";
import { errorToast, toast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";

export function DataDownload() {
  const [busy, run] = useBusyAction();
  const download = () =>
    run(async () => {
      const { data, error } = await fetchMyData();
      if (error) return errorToast(error);
      saveAsJson(data, copy.fileName);
      toast(copy.done);
    });
  return (
    <Button
      type="button"
      variant="outline"
      className="justify-self-start"
      aria-disabled={busy}
      aria-busy={busy}
      onClick={() => void download()}
    >
      {busy ? copy.busy : copy.button}
    </Button>
  );
}
