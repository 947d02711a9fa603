// Sends a code to a phone: through GoTrue's Send SMS hook when one is configured (the input GoTrue
// gives it: metadata, the user, and {otp, phone, sms_type}), else into the dev mailbox. A message
// that could not be sent leaves no code of its own behind: the code it carried is put back to the
// one before (sms/phone-codes.ts), goes with its MFA challenge (handlers/factors.ts), or is rolled
// back with its request's transaction (the reauthentication code).
import crypto from "node:crypto";
import type { SmsConfig } from "../../config.ts";
import type { Queryable } from "../../db/database.ts";
import { keepTextMessage } from "../../mail/text-messages.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { serializeUser, type UserRow } from "../models/users.ts";
import { dispatchHook, HOOK_TIMING, type HookTiming } from "./send-sms-hook.ts";

export type SmsChannel = "sms" | "whatsapp";

type Sms = {
  user: UserRow;
  /** E.164 digits, without "+". */
  phone: string;
  otp: string;
  /** What the code is for, as the hook's `sms_type`: "mfa" for an MFA challenge, else none. */
  smsType?: "mfa";
  channel?: SmsChannel;
  /** How long the code works (the phone sign-in codes' expiry unless said). */
  validForSeconds?: number;
};

export type SmsSender = {
  /** `client.ip` is the address of the request that asked for the code. */
  send(q: Queryable, client: { ip: string }, sms: Sms): Promise<void>;
};

/** The dev mailbox's words for a code (with a hook, the hook writes its own). */
const smsText = (otp: string, minutes: number) =>
  `Your Revwise code is ${otp}. It works once, for ${minutes} minute${minutes === 1 ? "" : "s"}.`;

export function smsSender(
  config: { sms: SmsConfig; devMailbox: boolean },
  timing: HookTiming = HOOK_TIMING,
): SmsSender {
  const { hook } = config.sms;
  return {
    async send(q, client, sms) {
      if (hook) {
        await dispatchHook(
          hook,
          {
            metadata: {
              uuid: crypto.randomUUID(),
              time: new Date().toISOString(),
              name: "send-sms",
              ip_address: client.ip,
            },
            user: serializeUser(sms.user, []),
            sms: {
              otp: sms.otp,
              phone: sms.phone,
              ...(sms.smsType ? { sms_type: sms.smsType } : {}),
            },
          },
          timing,
        );
        return;
      }
      if (!config.devMailbox)
        throw new AuthError(500, ErrorCode.unexpected_failure, "Unable to get SMS provider");
      await keepTextMessage(q, {
        kind: sms.smsType === "mfa" ? "auth-mfa" : "auth-otp",
        to: sms.phone,
        channel: sms.channel ?? "sms",
        body: smsText(
          sms.otp,
          Math.max(1, Math.round((sms.validForSeconds ?? config.sms.otpExpSeconds) / 60)),
        ),
      });
    },
  };
}
