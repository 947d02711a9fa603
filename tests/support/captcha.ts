// Solves the server's proof-of-work challenge the way the widget does (or a determined bot would).
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

/** `ip`, sent as X-Forwarded-For, is the client whose challenge limit (60 a minute) is spent. */
export async function fetchChallenge(baseUrl: string, ip?: string): Promise<Challenge> {
  const res = await fetch(`${baseUrl}/functions/v1/captcha-challenge`, {
    headers: ip ? { "x-forwarded-for": ip } : {},
  });
  if (!res.ok) throw new Error(`challenge: HTTP ${res.status}`);
  return (await res.json()) as Challenge;
}

export async function solvedPayload(baseUrl: string, ip?: string): Promise<string> {
  return solve(await fetchChallenge(baseUrl, ip));
}

/** The widget's payload for a challenge: the challenge as signed and its solution. */
export async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("challenge could not be solved");
  const { codeChallenge: _omit, ...signed } = challenge;
  return Buffer.from(JSON.stringify({ challenge: signed, solution })).toString("base64");
}
