/**
 * The enclave: the only holder of the signing key and of the private half of the key
 * that clients encrypt session material to. The signing key is created here or unwrapped
 * here (released by key management only to this bundle's measurement) and shows itself
 * only as a signer address; session material is decrypted here into memory and handed
 * to the verifiers, never to a log.
 */
import { SESSION_CONTEXT_HEADER, checkSessionContext, type SessionUse } from '../session-context.js';
import { CompactEncrypt, compactDecrypt, exportJWK, generateKeyPair, calculateJwkThumbprint, type JWK } from 'jose';
import { hkdfSync } from 'node:crypto';
import { bytesToHex, hexToBytes, type Address, type Hex, type TypedDataDefinition, type TypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { AttestationError } from '../errors.js';
import type { KeyManagement } from './key-management.js';
import { softwareProducer, type AttestationProducer } from './attestation-producer.js';
import {
  SESSION_CONTENT_ENCRYPTION,
  SESSION_KEY_ALGORITHM,
  attestationBinding,
  type AttestationDocument,
} from '../../proto/attestation/attestation-document.js';

export {
  ATTESTATION_NONCE,
  SESSION_CONTENT_ENCRYPTION,
  SESSION_KEY_ALGORITHM,
  attestationBinding,
  type AttestationDocument,
} from '../../proto/attestation/attestation-document.js';

type DecryptionKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const STORAGE_KEY_INFO = 'peer-enclave-storage:v1';
const STORAGE_LABEL_HEADER = 'peer_label';

export type OpenEnclaveOptions = {
  keyManagement: KeyManagement;
  /** The signing key as key management wrapped it; absent, a new key is made and wrapped. */
  wrappedKey?: string;
  now?: () => number;
} /** Software only: the measurement is the signer's own statement. */ & (
  | { measurement: string }
  /** Hardware that vouches for the measurement and each document. */
  | { producer: AttestationProducer }
);

export class Enclave {
  readonly measurement: string;
  readonly signer: Address;
  /** The signing key as key management wraps it, for the operator to keep. */
  readonly wrappedKey: string;
  readonly #account: PrivateKeyAccount;
  readonly #decryptionKey: DecryptionKey;
  readonly #document: AttestationDocument;
  readonly #producer: AttestationProducer;
  readonly #storageKey: Uint8Array;

  private constructor(
    producer: AttestationProducer,
    wrappedKey: string,
    account: PrivateKeyAccount,
    decryptionKey: DecryptionKey,
    document: AttestationDocument,
    storageKey: Uint8Array,
  ) {
    this.measurement = producer.measurement;
    this.#producer = producer;
    this.#storageKey = storageKey;
    this.wrappedKey = wrappedKey;
    this.signer = account.address;
    this.#account = account;
    this.#decryptionKey = decryptionKey;
    this.#document = document;
  }

  static async open(options: OpenEnclaveOptions): Promise<Enclave> {
    const producer = 'producer' in options ? options.producer : softwareProducer(options.measurement);
    const evidence = { measurement: producer.measurement };
    let wrappedKey = options.wrappedKey;
    let secret: Uint8Array;
    if (wrappedKey === undefined) {
      secret = hexToBytes(generatePrivateKey());
      wrappedKey = await options.keyManagement.wrap(secret, evidence);
    } else {
      secret = await options.keyManagement.unwrap(wrappedKey, evidence);
    }
    const account = privateKeyToAccount(bytesToHex(secret));
    // Derived from the signing key, so what the enclave stores opens again wherever that key is released, and nowhere else.
    const storageKey = new Uint8Array(hkdfSync('sha256', secret, new Uint8Array(0), STORAGE_KEY_INFO, 32));
    secret.fill(0);

    // A fresh upload key each start: session material sent to an earlier run cannot be read by a later one.
    const { publicKey, privateKey } = await generateKeyPair(SESSION_KEY_ALGORITHM, { crv: 'P-256', extractable: false });
    const jwk = await exportJWK(publicKey);
    const encryptionKey: JWK = { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: SESSION_KEY_ALGORITHM, use: 'enc' };
    const issuedAt = new Date((options.now ?? Date.now)()).toISOString();
    const binding = attestationBinding(producer.measurement, encryptionKey.kid!, issuedAt);
    const document: AttestationDocument = {
      version: 1,
      measurement: producer.measurement,
      signer: account.address,
      encryptionKey,
      issuedAt,
      binding,
      bindingSignature: await account.signMessage({ message: binding }),
      evidence: await producer.evidence(binding),
    };
    return new Enclave(producer, wrappedKey, account, privateKey, document, storageKey);
  }

  attestationDocument(): AttestationDocument {
    return structuredClone(this.#document);
  }

  /** The document signed afresh for a client's nonce, stamped now: proof that this enclave answered this request. */
  async attestationDocumentFor(nonce: Hex, now: number): Promise<AttestationDocument> {
    const issuedAt = new Date(now).toISOString();
    const binding = attestationBinding(this.measurement, this.#document.encryptionKey.kid!, issuedAt, nonce);
    return {
      ...structuredClone(this.#document),
      issuedAt,
      nonce,
      binding,
      bindingSignature: await this.#account.signMessage({ message: binding }),
      evidence: await this.#producer.evidence(binding, nonce),
    };
  }

  async signTypedData<const T extends TypedData | Record<string, unknown>, P extends keyof T | 'EIP712Domain'>(
    typedData: TypedDataDefinition<T, P>,
  ): Promise<Hex> {
    return this.#account.signTypedData(typedData);
  }

  /**
   * `value` encrypted for the enclave's own store (dir, A256GCM under a key derived from
   * the signing key), bound to `label`: a sealed value moved to another record does not open.
   */
  async sealForStorage(value: Record<string, unknown>, label: string): Promise<string> {
    return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(value)))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', [STORAGE_LABEL_HEADER]: label })
      .encrypt(this.#storageKey);
  }

  /** What sealForStorage sealed under `label`; null when it was sealed by another key or for another label. */
  async openFromStorage(sealed: string, label: string): Promise<Record<string, unknown> | null> {
    const opened = await compactDecrypt(sealed, this.#storageKey, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] }).catch(
      () => null,
    );
    if (!opened) return null;
    const { plaintext, protectedHeader } = opened;
    try {
      return protectedHeader[STORAGE_LABEL_HEADER] === label ? (JSON.parse(new TextDecoder().decode(plaintext)) as Record<string, unknown>) : null;
    } finally {
      plaintext.fill(0);
    }
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
