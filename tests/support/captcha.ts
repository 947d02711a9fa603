// Solves the server's proof-of-work challenge the way the widget does (or a determined bot would).
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

export async function fetchChallenge(baseUrl: string): Promise<Challenge> {
  const res = await fetch(`${baseUrl}/functions/v1/captcha-challenge`);
  if (!res.ok) throw new Error(`challenge: HTTP ${res.status}`);
  return (await res.json()) as Challenge;
}

export async function solvedPayload(baseUrl: string): Promise<string> {
  return solve(await fetchChallenge(baseUrl));
}

/** The widget's payload for a challenge: the challenge as signed and its solution. */
export async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("challenge could not be solved");
  const { codeChallenge: _omit, ...signed } = challenge;
  return Buffer.from(JSON.stringify({ challenge: signed, solution })).toString("base64");
}
