// Calls a lead function (/functions/v1/<name>) with the visitor's source, and reads its answer.
import { leadSource } from "./lead-source.ts";
import { getSupabase } from "./supabase.ts";

type LeadResult =
  { ok: true } | { ok: false; code?: string; message?: string; fields?: Record<string, string> };

export async function invokeLeadFunction(
  name: string,
  body: Record<string, unknown>,
): Promise<LeadResult> {
  try {
    const supabase = await getSupabase();
    const { error } = await supabase.functions.invoke(name, {
      body: { ...body, source: leadSource() },
    });
    if (!error) return { ok: true };
    const response = (error as { context?: unknown }).context;
    if (response instanceof Response) {
      const answer = (await response.json().catch(() => ({}))) as {
        code?: string;
        message?: string;
        fields?: Record<string, string>;
      };
      return { ok: false, ...answer };
    }
    return { ok: false };
  } catch {
    return { ok: false };
  }
}
