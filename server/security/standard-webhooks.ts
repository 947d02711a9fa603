// Standard Webhooks signatures (https://www.standardwebhooks.com): what the Send SMS hook and the
// CRM webhooks put in `webhook-signature`.
import crypto from "node:crypto";

/**
 * The signatures of one message: `v1,<base64 HMAC-SHA256>` of "id.timestamp.payload" under each
 * symmetric secret (`whsec_<base64 key>`, as Supabase's dashboard shows it with `v1,` in front or
 * not), space-separated.
 */
export function signWebhook(
  secrets: string[],
  id: string,
  timestamp: number,
  payload: string,
): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^v1,/, "").replace(/^whsec_/, ""), "base64");
      const mac = crypto.createHmac("sha256", key).update(`${id}.${timestamp}.${payload}`);
      return `v1,${mac.digest("base64")}`;
    })
    .join(" ");
}
