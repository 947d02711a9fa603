// Codes sent to phones for sign-in and confirmation (GoTrue's "confirmation" token of a phone) and
// for a change of number: its one-time token, the message, and the stamp of when it went. At most
// one code a minute per user and purpose, across instances; a repeat within the minute is skipped
// silently (the answer is the same), so it reveals no account.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Database, Queryable } from "../../db/database.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { createOneTimeToken, liveToken, putBackToken } from "../models/one-time-tokens.ts";
import { giveStampBack, type ClaimedStamp } from "../models/sent-stamps.ts";
import { claimPhoneCodeMinute } from "../models/user-phones.ts";
import type { UserRow } from "../models/users.ts";
import { presentString } from "../request.ts";
import type { SmsChannel, SmsSender } from "./sms-sender.ts";

type PhoneCode = {
  user: UserRow;
  /** The number the code goes to (the user's, or the new one of a change). */
  phone: string;
  purpose: "confirmation" | "phone_change";
  channel: SmsChannel;
  /** The minute its caller claimed already (a change of number claims it with the change). */
  minute?: ClaimedStamp;
};

/**
 * Sends the code unless one went (or is going) for the same purpose within the minute, from any
 * instance: the minute is claimed in the database first, and one request at the same moment gets
 * it. The code is stored before its message goes, so a code that arrives works at once; a message
 * the Send SMS hook refused puts the last code back, which still works, and gives the minute back.
 * Called with the database itself (work after the answer): no transaction waits on the hook.
 */
export async function sendPhoneCode(
  q: Queryable,
  app: FastifyInstance,
  sms: SmsSender,
  client: { ip: string },
  code: PhoneCode,
): Promise<void> {
  const { user, phone, purpose } = code;
  const minute = code.minute ?? (await claimPhoneCodeMinute(q, user.id, purpose, phone));
  if (!minute) return;
  try {
    const { otpExpSeconds, otpLength } = app.config.sms;
    const previous = await liveToken(q, user.id, purpose);
    const { code: otp, linkToken } = await createOneTimeToken(q, {
      userId: user.id,
      type: purpose,
      phone,
      ttlSeconds: otpExpSeconds,
      length: otpLength,
    });
    try {
      await sms.send(q, client, { user, phone, otp, channel: code.channel });
    } catch (err) {
      await putBackToken(q, user.id, purpose, linkToken, previous);
      throw err;
    }
  } catch (err) {
    await giveStampBack(q, purpose, user.id, minute);
    throw err;
  }
}

/**
 * Sends the code after the request's answer, out of any transaction, so that none waits on the
 * Send SMS hook (and the answer's time does not tell whether a number is texted).
 */
export function sendPhoneCodeAfterAnswer(
  db: Database,
  app: FastifyInstance,
  sms: SmsSender,
  request: FastifyRequest,
  code: PhoneCode,
): void {
  const client = { ip: request.ip };
  app.afterAnswer.run(request, "text message", async () => {
    await sendPhoneCode(db, app, sms, client, code);
  });
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
