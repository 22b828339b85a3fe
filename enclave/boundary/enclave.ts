/**
 * The enclave: the only holder of the signing key and of the private half of the key
 * that clients encrypt session material to. The signing key is created here or unwrapped
 * here (released by key management only to this bundle's measurement) and shows itself
 * only as a signer address; session material is decrypted here into memory and handed
 * to the verifiers, never to a log.
 */
import { SESSION_CONTEXT_HEADER, checkSessionContext, type SessionUse } from '../session-context.js';
import { compactDecrypt, exportJWK, generateKeyPair, calculateJwkThumbprint, type JWK } from 'jose';
import { bytesToHex, hexToBytes, type Address, type Hex, type TypedDataDefinition, type TypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { AttestationError } from '../errors.js';
import type { KeyManagement } from './key-management.js';

/** What clients check before trusting a signature or encrypting to `encryptionKey`. */
export interface AttestationDocument {
  version: 1;
  /** The code bundle's hash; compare with the published value. */
  measurement: string;
  /** The address the on-chain verifiers register as a witness. */
  signer: Address;
  /** Encrypt session material to this key: compact JWE, ECDH-ES+A256KW with A256GCM. */
  encryptionKey: JWK;
  issuedAt: string;
  /** The client's nonce, when it asked with one: the document was signed for that request, now. */
  nonce?: Hex;
  /** The signer's EIP-191 signature over `binding`, tying the encryption key to the signer. */
  binding: string;
  bindingSignature: Hex;
}

type DecryptionKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

export const SESSION_KEY_ALGORITHM = 'ECDH-ES+A256KW';
export const SESSION_CONTENT_ENCRYPTION = 'A256GCM';

export interface OpenEnclaveOptions {
  keyManagement: KeyManagement;
  measurement: string;
  /** The signing key as key management wrapped it; absent, a new key is made and wrapped. */
  wrappedKey?: string;
  now?: () => number;
}

/**
 * The statement the signer signs in the document: this measurement's enclave holds this
 * encryption key, at `issuedAt`, and (when a client asked with one) in answer to `nonce`.
 */
export function attestationBinding(measurement: string, encryptionKeyId: string, issuedAt: string, nonce?: Hex): string {
  const statement = `peer-enclave-attestation:v1:${measurement}:${encryptionKeyId}:${issuedAt}`;
  return nonce === undefined ? statement : `${statement}:${nonce}`;
}

/** A client's nonce: 16 to 64 random bytes as 0x hex, so an old answer cannot be replayed to it. */
export const ATTESTATION_NONCE = /^0x(?:[0-9a-f]{2}){16,64}$/;

export class Enclave {
  readonly measurement: string;
  readonly signer: Address;
  /** The signing key as key management wraps it, for the operator to keep. */
  readonly wrappedKey: string;
  readonly #account: PrivateKeyAccount;
  readonly #decryptionKey: DecryptionKey;
  readonly #document: AttestationDocument;

  private constructor(measurement: string, wrappedKey: string, account: PrivateKeyAccount, decryptionKey: DecryptionKey, document: AttestationDocument) {
    this.measurement = measurement;
    this.wrappedKey = wrappedKey;
    this.signer = account.address;
    this.#account = account;
    this.#decryptionKey = decryptionKey;
    this.#document = document;
  }

  static async open(options: OpenEnclaveOptions): Promise<Enclave> {
    const evidence = { measurement: options.measurement };
    let wrappedKey = options.wrappedKey;
    let secret: Uint8Array;
    if (wrappedKey === undefined) {
      secret = hexToBytes(generatePrivateKey());
      wrappedKey = await options.keyManagement.wrap(secret, evidence);
    } else {
      secret = await options.keyManagement.unwrap(wrappedKey, evidence);
    }
    const account = privateKeyToAccount(bytesToHex(secret));
    secret.fill(0);

    // A fresh upload key each start: session material sent to an earlier run cannot be read by a later one.
    const { publicKey, privateKey } = await generateKeyPair(SESSION_KEY_ALGORITHM, { crv: 'P-256', extractable: false });
    const jwk = await exportJWK(publicKey);
    const encryptionKey: JWK = { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: SESSION_KEY_ALGORITHM, use: 'enc' };
    const issuedAt = new Date((options.now ?? Date.now)()).toISOString();
    const binding = attestationBinding(options.measurement, encryptionKey.kid!, issuedAt);
    const document: AttestationDocument = {
      version: 1,
      measurement: options.measurement,
      signer: account.address,
      encryptionKey,
      issuedAt,
      binding,
      bindingSignature: await account.signMessage({ message: binding }),
    };
    return new Enclave(options.measurement, wrappedKey, account, privateKey, document);
  }

  attestationDocument(): AttestationDocument {
    return structuredClone(this.#document);
  }

  /** The document signed afresh for a client's nonce, stamped now: proof that this enclave answered this request. */
  async attestationDocumentFor(nonce: Hex, now: number): Promise<AttestationDocument> {
    const issuedAt = new Date(now).toISOString();
    const binding = attestationBinding(this.measurement, this.#document.encryptionKey.kid!, issuedAt, nonce);
    return { ...structuredClone(this.#document), issuedAt, nonce, binding, bindingSignature: await this.#account.signMessage({ message: binding }) };
  }

  async signTypedData<const T extends TypedData | Record<string, unknown>, P extends keyof T | 'EIP712Domain'>(
    typedData: TypedDataDefinition<T, P>,
  ): Promise<Hex> {
    return this.#account.signTypedData(typedData);
  }

  /**
   * The session material as the client encrypted it: a JSON object, in memory only, and
   * only for the use its protected header names (session-context.ts).
   */
  async openSessionMaterial(jwe: string, use: SessionUse, nowMs: number): Promise<Record<string, unknown>> {
    let plaintext: Uint8Array;
    let protectedHeader: Record<string, unknown>;
    try {
      ({ plaintext, protectedHeader } = await compactDecrypt(jwe, this.#decryptionKey, {
        keyManagementAlgorithms: [SESSION_KEY_ALGORITHM],
        contentEncryptionAlgorithms: [SESSION_CONTENT_ENCRYPTION],
      }));
    } catch {
      throw new AttestationError(
        'INVALID_SESSION_MATERIAL',
        400,
        "encryptedSessionMaterial is not a compact JWE (ECDH-ES+A256KW, A256GCM) to this enclave's current encryption key",
      );
    }
    try {
      checkSessionContext(protectedHeader[SESSION_CONTEXT_HEADER], use, nowMs);
    } catch (error) {
      plaintext.fill(0);
      throw error;
    }
    let material: unknown;
    try {
      material = JSON.parse(new TextDecoder().decode(plaintext));
    } catch {
      material = undefined;
    } finally {
      plaintext.fill(0);
    }
    if (material === null || typeof material !== 'object' || Array.isArray(material)) {
      throw new AttestationError('INVALID_SESSION_MATERIAL', 400, 'the decrypted session material must be a JSON object');
    }
    return material as Record<string, unknown>;
  }
}
