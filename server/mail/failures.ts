// What a failed send means for the email and for the peer, read from nodemailer's error:
// - "rejected": the server refused this message for good (5xx to RCPT TO or DATA, or a message
//   nodemailer could not even put on the wire); retrying would get the same answer.
// - "deferred": the server refused this message for now (4xx to RCPT TO or DATA); retry it later.
// - "peer": the peer itself failed (refused or dropped connection, timeout, 421, greeting, login,
//   TLS, a refused sender): no message is at fault, every message would fail the same way.

type FailureKind = "rejected" | "deferred" | "peer";

type SmtpError = { code?: unknown; responseCode?: unknown; command?: unknown };

/** Codes nodemailer gives a refusal of what was sent (the envelope or the message). */
const MESSAGE_CODES = new Set(["EENVELOPE", "EMESSAGE"]);

export function classifyFailure(err: unknown): FailureKind {
  const { code, responseCode, command } = (err ?? {}) as SmtpError;
  if (typeof code !== "string" || !MESSAGE_CODES.has(code)) return "peer";
  // Refused before anything reached the server (no recipient, too large): the message is at fault.
  if (typeof responseCode !== "number") return "rejected";
  // Every email has the same sender: a refused sender is the peer's setup, not this message.
  if (command === "MAIL FROM" || responseCode === 421) return "peer";
  // 503 is a session out of order, not a verdict on the message (RFC 5321 4.2.1).
  if (responseCode >= 500 && responseCode !== 503) return "rejected";
  return "deferred";
}

export const errorText = (err: unknown): string =>
  (err instanceof Error ? err.message : String(err)).slice(0, 1000);
