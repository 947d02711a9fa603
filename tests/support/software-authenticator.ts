// A software WebAuthn authenticator for the server's tests: it makes P-256 credentials with
// node:crypto and answers registration and sign-in options as a browser and authenticator
// together would (the JSON a browser's credential.toJSON() gives), with real signatures over
// real authenticator data. CBOR is @simplewebauthn/server's encoder; nothing here is parsed by
// hand. A test can lie as an attacker would: another origin or relying party, a counter that
// goes backwards, another account's user handle.
import crypto from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

type Credential = {
  id: Buffer;
  privateKey: crypto.KeyObject;
  userHandle: string;
  counter: number;
};

type CreationOptions = {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
  excludeCredentials?: { id: string }[];
};
type RequestOptions = {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
};

/** What a test may change in one answer. */
export type Lie = {
  origin?: string;
  rpId?: string;
  /** The counter the authenticator reports (it counts up by one otherwise). */
  counter?: number;
  /** The user handle the assertion names (base64url), instead of the credential's own. */
  userHandle?: string;
};

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

const sha256 = (data: Buffer | string) => crypto.createHash("sha256").update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString("base64url");

export class SoftwareAuthenticator {
  readonly credentials: Credential[] = [];
  readonly origin: string;
  /** A synced passkey (backup eligible and backed up), or a device-bound security key. */
  readonly synced: boolean;

  constructor(origin: string, synced = true) {
    this.origin = origin;
    this.synced = synced;
  }

  /** navigator.credentials.create() with these options: a new credential's registration. */
  create(options: CreationOptions, lie: Lie = {}) {
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (this.credentials.some((c) => excluded.has(b64url(c.id))))
      throw new Error("InvalidStateError: the authenticator already holds a credential here");
    const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const credential: Credential = {
      id: crypto.randomBytes(32),
      privateKey,
      userHandle: options.user.id,
      counter: 0,
    };
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      this.head(lie.rpId ?? options.rp.id!, FLAG_AT, lie.counter ?? 0),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credential.id,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, never> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<string, never>()],
        ["authData", authData],
      ]),
    );
    this.credentials.push(credential);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key" as const,
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge, lie),
        attestationObject: b64url(attestationObject),
        transports: ["internal", "hybrid"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform" as const,
    };
  }

  /**
   * navigator.credentials.get() with these options: an assertion by the credential they allow
   * (or, with none listed, this authenticator's newest: a discoverable passkey).
   */
  get(options: RequestOptions, lie: Lie = {}, credential = this.pick(options)) {
    credential.counter = lie.counter ?? credential.counter + 1;
    const authData = this.head(lie.rpId ?? options.rpId!, 0, credential.counter);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, lie);
    const signature = crypto.sign(
      "sha256",
      Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, "base64url"))]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key" as const,
      response: {
        clientDataJSON,
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: lie.userHandle ?? credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform" as const,
    };
  }

  private pick(options: RequestOptions): Credential {
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const found =
      allowed.size === 0
        ? this.credentials.at(-1)
        : this.credentials.find((c) => allowed.has(b64url(c.id)));
    if (!found) throw new Error("NotAllowedError: no credential of this authenticator is allowed");
    return found;
  }

  /** The authenticator data's head: the relying party's hash, flags, counter. */
  private head(rpId: string, flags: number, counter: number) {
    const backup = this.synced ? FLAG_BE | FLAG_BS : 0;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([FLAG_UP | FLAG_UV | backup | flags]), count]);
  }

  private clientData(type: string, challenge: string, lie: Lie) {
    return b64url(
      Buffer.from(
        JSON.stringify({ type, challenge, origin: lie.origin ?? this.origin, crossOrigin: false }),
      ),
    );
  }
}
