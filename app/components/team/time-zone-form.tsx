// The team's time zone on the Team tab (admins only): the zone the team's emails say times in,
// chosen from the zones the browser knows (the server checks it against its own) and saved for
// every instance; the change is logged.
import { useState } from "react";
import { teamSettingsSchema } from "../../../common/workspace.ts";
import { teamTimeZoneCopy as copy } from "../../content/team.ts";
import { readableMessage } from "../../lib/errors.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { rowsOf } from "../../lib/team-data.ts";
import { toast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { ScriptForm } from "../../forms/script-form.tsx";
import { Button } from "../ui/button.tsx";
import { Card } from "../ui/card.tsx";
import { Field } from "../ui/field.tsx";
import { Select } from "../ui/select.tsx";
import { LoadState, useLoad } from "./data-table.tsx";

async function readTimeZone(): Promise<string> {
  const supabase = await getSupabase();
  const { rows } = rowsOf<{ time_zone: string }>(
    await supabase.from("team_settings").select("time_zone"),
  );
  return rows[0]!.time_zone;
}

/** The zones to choose from: the browser's, with the saved one even if the browser lacks it. */
const zonesWith = (saved: string) => [...new Set([saved, ...Intl.supportedValuesOf("timeZone")])];

export function TimeZoneForm() {
  const { state } = useLoad(readTimeZone, "team-time-zone");
  return (
    <Card className="grid gap-4 p-5">
      <LoadState state={state} what="the team's time zone">
        {(saved) => <ZoneChoice saved={saved} />}
      </LoadState>
    </Card>
  );
}

function ZoneChoice({ saved }: { saved: string }) {
  const [zone, setZone] = useState(saved);
  const [error, setError] = useState<string>();
  const [busy, run] = useBusyAction();
  const save = async () => {
    const parsed = teamSettingsSchema.safeParse({ time_zone: zone });
    if (!parsed.success) return setError(parsed.error.issues[0]!.message);
    const supabase = await getSupabase();
    const { error: refused } = await supabase.from("team_settings").update(parsed.data);
    if (refused) throw new Error(readableMessage(refused.details ?? refused.message));
    toast({ title: copy.saved, description: parsed.data.time_zone });
  };
  return (
    <ScriptForm
      label={copy.title}
      onSubmit={(e) => {
        e.preventDefault();
        void run(save);
      }}
      className="grid gap-4"
    >
      <h3 className="font-semibold text-ink">{copy.title}</h3>
      <Field label={copy.label} description={copy.help} error={error}>
        {(p) => (
          <Select
            {...p}
            className="max-w-sm"
            value={zone}
            onChange={(e) => {
              setZone(e.target.value);
              setError(undefined);
            }}
          >
            {zonesWith(saved).map((z) => (
              <option key={z} value={z}>
                {z.replaceAll("_", " ")}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Button type="submit" className="justify-self-start" aria-disabled={busy}>
        {busy ? copy.saving : copy.submit}
      </Button>
    </ScriptForm>
  );
}
