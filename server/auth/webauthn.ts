// The WebAuthn relying party of passkeys and security-key factors: the options a browser's
// ceremony is started with and the check of what the authenticator answered, both by
// @simplewebauthn/server (no CBOR or attestation parsing of ours), against the configured
// relying party (GOTRUE_WEBAUTHN_*). The challenges live in the database (models/
// webauthn-challenges.ts for passkeys, models/factors.ts for factors); nothing here keeps state.
import type {
  AuthenticationResponseJSON,
  AuthenticatorSelectionCriteria,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type * as SimpleWebAuthn from "@simplewebauthn/server";
import type { Config } from "../config.ts";
import { AuthError, ErrorCode } from "./errors.ts";
import type { UserRow } from "./models/users.ts";

/** A credential as the ceremonies know it: its id (base64url), public key, counter, transports. */
export type StoredCredential = {
  id: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
};

/** What a verified registration adds: the credential and what the authenticator said of it. */
export type NewCredential = StoredCredential & {
  aaguid: string | null;
  attestationType: string;
  backupEligible: boolean;
  backedUp: boolean;
};

/** The user handle of an account: its id's text, as GoTrue's WebAuthnID. */
export const userHandleOf = (userId: string) => new TextEncoder().encode(userId);

/** The name an authenticator shows for the account: the address, else the number (GoTrue's). */
function accountName(user: UserRow) {
  return user.email || user.phone || user.id;
}

/** GoTrue's display name: the user's metadata `name`, else the account's name. */
function displayName(user: UserRow) {
  const name = user.raw_user_meta_data?.name;
  return typeof name === "string" && name !== "" ? name : accountName(user);
}

/**
 * The library, loaded by the first ceremony rather than at every start: it is the largest of the
 * server's packages to load (≈ 0.2 s of a start's CPU), and most instances see no passkey for a
 * while, if ever.
 */
let library: Promise<typeof SimpleWebAuthn> | undefined;
const webauthn = () => (library ??= import("@simplewebauthn/server"));

/** An answer the ceremony refuses: unreadable, or not signed as the challenge asked. */
export class CeremonyRefused extends Error {}

export function relyingParty(rp: Config["webauthn"]) {
  const timeout = rp.challengeSeconds * 1000;

  return {
    /**
     * Options for a new credential of the user's, none of `exclude` again. A passkey must be
     * discoverable (it names its account at sign-in); a factor's may not be.
     */
    async registrationOptions(
      user: UserRow,
      exclude: StoredCredential[],
      selection: AuthenticatorSelectionCriteria,
    ) {
      const { generateRegistrationOptions } = await webauthn();
      return generateRegistrationOptions({
        rpName: rp.rpDisplayName,
        rpID: rp.rpId,
        userID: userHandleOf(user.id),
        userName: accountName(user),
        userDisplayName: displayName(user),
        timeout,
        attestationType: "none",
        excludeCredentials: exclude.map((c) => ({ id: c.id, transports: c.transports })),
        authenticatorSelection: selection,
      });
    },

    /** Options for an assertion: of one of `allow`, or (empty) of any passkey for this site. */
    async authenticationOptions(allow: StoredCredential[]) {
      const { generateAuthenticationOptions } = await webauthn();
      return generateAuthenticationOptions({
        rpID: rp.rpId,
        timeout,
        userVerification: "preferred",
        allowCredentials: allow.map((c) => ({ id: c.id, transports: c.transports })),
      });
    },

    /** The new credential, when the answer is a valid registration for the challenge. */
    async verifyRegistration(response: unknown, challenge: string): Promise<NewCredential> {
      const { verifyRegistrationResponse } = await webauthn();
      const verified = await refusedAsCeremony(() =>
        verifyRegistrationResponse({
          response: response as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: rp.rpOrigins,
          expectedRPID: rp.rpId,
          requireUserVerification: false,
        }),
      );
      if (!verified.verified) throw new CeremonyRefused("registration not verified");
      const info = verified.registrationInfo;
      return {
        id: info.credential.id,
        publicKey: info.credential.publicKey,
        counter: info.credential.counter,
        transports: info.credential.transports ?? readTransports(response),
        aaguid: info.aaguid === "00000000-0000-0000-0000-000000000000" ? null : info.aaguid,
        attestationType: info.fmt,
        backupEligible: info.credentialDeviceType === "multiDevice",
        backedUp: info.credentialBackedUp,
      };
    },

    /**
     * The credential's new counter and backup state, when the answer is the credential's valid
     * assertion of the challenge from one of the origins; a counter that did not go up (when
     * either is above zero) is refused by the library.
     */
    async verifyAuthentication(
      response: unknown,
      challenge: string,
      credential: StoredCredential,
    ): Promise<{ counter: number; backedUp: boolean }> {
      const { verifyAuthenticationResponse } = await webauthn();
      const verified = await refusedAsCeremony(() =>
        verifyAuthenticationResponse({
          response: response as AuthenticationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: rp.rpOrigins,
          expectedRPID: rp.rpId,
          credential,
          requireUserVerification: false,
        }),
      );
      if (!verified.verified) throw new CeremonyRefused("assertion not verified");
      return {
        counter: verified.authenticationInfo.newCounter,
        backedUp: verified.authenticationInfo.credentialBackedUp,
      };
    },
  };
}

export type RelyingParty = ReturnType<typeof relyingParty>;

/** The library throws on a malformed or wrong answer: every such throw is a refusal. */
async function refusedAsCeremony<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    throw new CeremonyRefused(error instanceof Error ? error.message : String(error));
  }
}

/** The transports a browser listed with its answer (response.transports), when the library has none. */
function readTransports(response: unknown): string[] {
  const listed = (response as { response?: { transports?: unknown } })?.response?.transports;
  return Array.isArray(listed) ? listed.filter((t): t is string => typeof t === "string") : [];
}

/**
 * The id an answer names (its `id`, base64url), or undefined when it names none: a credential
 * is looked up by it before its signature is checked.
 */
export function answeredCredentialId(response: unknown): string | undefined {
  const id = (response as { id?: unknown } | null)?.id;
  return typeof id === "string" && /^[A-Za-z0-9_-]{1,1366}$/.test(id) ? id : undefined;
}

/** The user handle an assertion names (base64url of the account's id), as text. */
export function answeredUserHandle(response: unknown): string | undefined {
  const handle = (response as { response?: { userHandle?: unknown } } | null)?.response?.userHandle;
  if (typeof handle !== "string" || !/^[A-Za-z0-9_-]{1,128}$/.test(handle)) return undefined;
  return Buffer.from(handle, "base64url").toString("utf8");
}

/** GoTrue's refusal of a ceremony's answer (passkeys and WebAuthn factors alike). */
export const verificationFailed = () =>
  new AuthError(400, ErrorCode.webauthn_verification_failed, "Credential verification failed");
