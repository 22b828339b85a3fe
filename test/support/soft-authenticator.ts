/**
 * A passkey authenticator in the test process: a P-256 key pair made here, whose registration
 * and assertion responses are built and signed by hand the way an authenticator and a browser
 * would (WebAuthn level 2: "none" attestation, authenticator data, clientDataJSON, an ECDSA
 * signature over authenticatorData ‖ SHA-256(clientDataJSON)). Nothing is verified here: that is
 * the server's business.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { encode } from 'cbor2';

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32).toString('base64url');
  counter = 0;
  #keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  #userHandle: string | null = null;

  constructor(
    /** The page's origin the browser would put in clientDataJSON. */
    readonly origin: string,
  ) {}

  /** What navigator.credentials.create() would answer, in JSON; `challenge` overrides the options' one. */
  register(options: CreationOptions, override: { challenge?: string } = {}) {
    this.#userHandle = options.user.id;
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const jwk = this.#keys.publicKey.export({ format: 'jwk' });
    const cose = encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
    const id = Buffer.from(this.credentialId, 'base64url');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      header(rpId, FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_CREDENTIAL, this.counter),
      Buffer.alloc(16),
      length,
      id,
      Buffer.from(cose),
    ]);
    const attestationObject = encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: this.#clientData('webauthn.create', override.challenge ?? options.challenge),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
    };
  }

  /**
   * What navigator.credentials.get() would answer, in JSON, the counter moved on by one unless
   * `counter` sets it; `key` signs instead of this authenticator's key (a forgery).
   */
  assert(options: RequestOptions, override: { challenge?: string; counter?: number; key?: KeyObject } = {}) {
    this.counter = override.counter ?? this.counter + 1;
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const authData = header(rpId, FLAG_USER_PRESENT | FLAG_USER_VERIFIED, this.counter);
    const clientDataJSON = this.#clientData('webauthn.get', override.challenge ?? options.challenge);
    const signed = Buffer.concat([authData, createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest()]);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON,
        authenticatorData: authData.toString('base64url'),
        signature: sign('sha256', signed, override.key ?? this.#keys.privateKey).toString('base64url'),
        ...(this.#userHandle ? { userHandle: this.#userHandle } : {}),
      },
    };
  }

  #clientData(type: string, challenge: string): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false })).toString('base64url');
  }
}

/** rpIdHash ‖ flags ‖ signCount: the start of every authenticatorData. */
function header(rpId: string, flags: number, counter: number): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), count]);
}
