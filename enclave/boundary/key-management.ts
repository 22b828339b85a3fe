/**
 * The key-management side of the enclave boundary. The signing key exists outside the
 * enclave only wrapped (a compact JWE under a key-wrapping key the enclave never holds),
 * with the measurement allowed to unwrap it in the JWE's integrity-protected header.
 * `LocalKeyManagement` is the stand-in for a cloud KMS whose decrypt policy is gated on
 * the enclave's measurement; a real one implements the same two calls.
 */
import { CompactEncrypt, compactDecrypt } from 'jose';

export interface EnclaveEvidence {
  measurement: string;
}

export interface KeyManagement {
  /** Wraps a secret so that only an enclave with `policy.measurement` can have it back. */
  wrap(secret: Uint8Array, policy: EnclaveEvidence): Promise<string>;
  /** The secret, if the evidence meets the policy it was wrapped under. */
  unwrap(wrapped: string, evidence: EnclaveEvidence): Promise<Uint8Array>;
}

export class KeyReleaseDeniedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyReleaseDeniedError';
  }
}

const MEASUREMENT_HEADER = 'peer_measurement';

export class LocalKeyManagement implements KeyManagement {
  readonly #keyWrappingKey: Uint8Array;

  constructor(keyWrappingKey: Uint8Array) {
    if (keyWrappingKey.length !== 32) throw new Error('the key-wrapping key must be 32 bytes');
    this.#keyWrappingKey = Uint8Array.from(keyWrappingKey);
  }

  async wrap(secret: Uint8Array, policy: EnclaveEvidence): Promise<string> {
    return new CompactEncrypt(secret)
      .setProtectedHeader({ alg: 'A256KW', enc: 'A256GCM', [MEASUREMENT_HEADER]: policy.measurement })
      .encrypt(this.#keyWrappingKey);
  }

  async unwrap(wrapped: string, evidence: EnclaveEvidence): Promise<Uint8Array> {
    // The header is only trusted once decryption has authenticated it, so compare after.
    const { plaintext, protectedHeader } = await compactDecrypt(wrapped, this.#keyWrappingKey, {
      keyManagementAlgorithms: ['A256KW'],
      contentEncryptionAlgorithms: ['A256GCM'],
    }).catch(() => {
      throw new KeyReleaseDeniedError('the wrapped key was not wrapped by this key-wrapping key, or was altered');
    });
    const policy = protectedHeader[MEASUREMENT_HEADER];
    if (policy !== evidence.measurement) {
      plaintext.fill(0);
      throw new KeyReleaseDeniedError(`the key is released only to measurement ${String(policy)}, not ${evidence.measurement}`);
    }
    return plaintext;
  }
}
