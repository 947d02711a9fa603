// Codes sent to phones for sign-in and confirmation (GoTrue's "confirmation" token of a phone) and
// for a change of number: the one-time token, the message, and the stamp of when it went, in the
// caller's transaction. At most one code a minute per user and purpose; a repeat within the minute
// is skipped silently (the answer is the same), so it reveals no account.
import type { FastifyInstance } from "fastify";
import type { Queryable } from "../../db/database.ts";
import { sentRecently } from "../emails/email-limits.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { createOneTimeToken } from "../models/one-time-tokens.ts";
import { requestPhoneChange, stampPhoneCodeSent } from "../models/user-phones.ts";
import type { UserRow } from "../models/users.ts";
import { presentString } from "../request.ts";
import type { SmsChannel, SmsSender } from "./sms-sender.ts";

export type PhoneCode = {
  user: UserRow;
  /** The number the code goes to (the user's, or the new one of a change). */
  phone: string;
  purpose: "confirmation" | "phone_change";
  channel: SmsChannel;
};

/** Sends the code unless one went for the same purpose within the minute; returns the user row. */
export async function sendPhoneCode(
  q: Queryable,
  app: FastifyInstance,
  sms: SmsSender,
  client: { ip: string },
  code: PhoneCode,
): Promise<UserRow> {
  const { user, phone, purpose } = code;
  const lastSent =
    purpose === "confirmation" ? user.confirmation_sent_at : user.phone_change_sent_at;
  const samePending = purpose === "confirmation" || user.phone_change === phone;
  if (samePending && sentRecently(lastSent)) return user;
  const { otpExpSeconds, otpLength } = app.config.sms;
  const { code: otp } = await createOneTimeToken(q, {
    userId: user.id,
    type: purpose,
    phone,
    ttlSeconds: otpExpSeconds,
    length: otpLength,
  });
  await sms.send(q, client, { user, phone, otp, channel: code.channel });
  return purpose === "confirmation"
    ? stampPhoneCodeSent(q, user.id, "confirmation")
    : requestPhoneChange(q, user.id, phone);
}

const INVALID_CHANNEL =
  "Invalid channel, supported values are 'sms' or 'whatsapp'. 'whatsapp' is only supported if Twilio or Twilio Verify is used as the provider.";

/**
 * The channel a request names: "sms" when it names none (a channel that is no text is
 * unreadable). With the Send SMS hook any channel is passed on (the hook decides, as in GoTrue);
 * the dev mailbox keeps sms and whatsapp.
 */
export function readChannel(value: unknown, hooked: boolean): SmsChannel {
  const channel = presentString(value) ?? "sms";
  if (channel === "sms" || channel === "whatsapp") return channel;
  if (hooked) return "sms";
  throw new AuthError(400, ErrorCode.validation_failed, INVALID_CHANNEL);
}
