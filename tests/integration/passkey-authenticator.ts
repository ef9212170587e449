// A software authenticator for the integration tests: an ES256 key pair per passkey, answering
// registrations (attestation "none") and sign-ins the way a browser hands them to the page
// (@simplewebauthn/browser's JSON shapes). Its origin, flags and counter can be set wrong on purpose.

import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

export const UP = 0x01;
export const UV = 0x04;
const AT = 0x40;

interface RegistrationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface SignInOptions {
  challenge: string;
  rpId?: string;
}

export class TestAuthenticator {
  readonly credentialId = randomBytes(32);
  readonly id = b64url(this.credentialId);
  private readonly privateKey: KeyObject;
  private readonly jwk: { x: string; y: string };
  userHandle = "";
  rpId = "";
  counter = 0;

  constructor(readonly origin: string) {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = pair.privateKey;
    this.jwk = pair.publicKey.export({ format: "jwk" }) as { x: string; y: string };
  }

  private authenticatorData(rpId: string, flags: number, extra: Uint8Array = new Uint8Array()) {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter, extra]);
  }

  private clientData(type: string, challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** A registration answer for the options the web app gave (the passkey remembers the RP and user). */
  register(options: RegistrationOptions, { origin = this.origin, flags = UP | UV | AT } = {}) {
    this.rpId = options.rp.id ?? "";
    this.userHandle = options.user.id;
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(this.jwk.x, "base64url")],
        [-3, Buffer.from(this.jwk.y, "base64url")],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, Buffer.from(coseKey)]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", this.authenticatorData(this.rpId, flags, attested)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    };
  }

  /** A sign-in answer for the options the web app gave; the counter grows by one each time. */
  signIn(
    options: SignInOptions,
    { origin = this.origin, flags = UP | UV, rpId = options.rpId ?? this.rpId, counter = this.counter + 1 } = {},
  ) {
    this.counter = counter;
    const authenticatorData = this.authenticatorData(rpId, flags);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, origin);
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
