// The account page's own server functions (decision 0046): the person's data as a JSON file
// (GET /functions/v1/account-data) and the deletion of their account with their current password
// or an emailed code (POST /functions/v1/account-deletion), through supabase-js.
import { FunctionsHttpError } from "@supabase/supabase-js";
import { FUNCTIONS } from "../../common/functions.ts";
import { getSupabase } from "./supabase.ts";

/** A refusal in the functions' shape ({code, message}), or a failure to reach the server. */
export type FunctionFailure = { code?: string; message: string; status?: number };

async function failureOf(error: unknown): Promise<FunctionFailure> {
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    return {
      code: body.code,
      message: body.message ?? "Something went wrong.",
      status: res.status,
    };
  }
  return { message: error instanceof Error ? error.message : "Something went wrong." };
}

/** The person's data, or why not. */
export async function fetchMyData(): Promise<
  { data: Record<string, unknown>; error: null } | { data: null; error: FunctionFailure }
> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.functions.invoke<Record<string, unknown>>(
    FUNCTIONS.accountData,
    { method: "GET" },
  );
  if (error || !data) return { data: null, error: await failureOf(error) };
  return { data, error: null };
}

/** Saves the data as a file the browser downloads. */
export function saveAsJson(data: unknown, fileName: string) {
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }),
  );
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export type DeletionProof = { current_password: string } | { nonce: string };

/** Deletes the account: null once done, else why not. */
export async function deleteMyAccount(proof: DeletionProof): Promise<FunctionFailure | null> {
  const supabase = await getSupabase();
  const { error } = await supabase.functions.invoke(FUNCTIONS.accountDeletion, {
    method: "POST",
    body: proof,
  });
  if (error) return failureOf(error);
  // Every session ended with the account: forget this one here too.
  await supabase.auth.signOut({ scope: "local" });
  return null;
}
