/**
 * The client's side of the boundary: check an enclave's attestation document against
 * the published measurement, then seal session material to the key it names. Payment
 * actors, buyer clients and the tests all seal this way.
 */
import { CompactEncrypt, importJWK } from 'jose';
import { verifyMessage } from 'viem';
import { SESSION_CONTENT_ENCRYPTION, SESSION_KEY_ALGORITHM, attestationBinding, type AttestationDocument } from './boundary/enclave.js';

export class UntrustedEnclaveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UntrustedEnclaveError';
  }
}

/** Throws unless the document shows the expected measurement and its signer bound the encryption key it names. */
export async function checkAttestationDocument(document: AttestationDocument, expectedMeasurement: string): Promise<void> {
  if (document.measurement !== expectedMeasurement) {
    throw new UntrustedEnclaveError(`the enclave runs ${document.measurement}, not the published ${expectedMeasurement}`);
  }
  const binding = attestationBinding(document.measurement, document.encryptionKey.kid ?? '', document.issuedAt);
  if (document.binding !== binding || !(await verifyMessage({ address: document.signer, message: binding, signature: document.bindingSignature }))) {
    throw new UntrustedEnclaveError("the enclave's signer did not bind this encryption key");
  }
}

/** Session material as a compact JWE that only the enclave holding the document's key can open. */
export async function sealSessionMaterial(document: Pick<AttestationDocument, 'encryptionKey'>, material: Record<string, unknown>): Promise<string> {
  const key = await importJWK(document.encryptionKey, SESSION_KEY_ALGORITHM);
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(material)))
    .setProtectedHeader({ alg: SESSION_KEY_ALGORITHM, enc: SESSION_CONTENT_ENCRYPTION, ...(document.encryptionKey.kid ? { kid: document.encryptionKey.kid } : {}) })
    .encrypt(key);
}
