/**
 * The client's side of the boundary: check an enclave's attestation document against
 * the registered witness and the published measurement, then seal session material to the key it names. Payment
 * actors, buyer clients and the tests all seal this way.
 */
import { CompactEncrypt, calculateJwkThumbprint, importJWK, type JWK } from 'jose';
import { hexToBytes, isAddressEqual, verifyMessage, type Address, type Hex } from 'viem';
import { SESSION_CONTENT_ENCRYPTION, SESSION_KEY_ALGORITHM, attestationBinding, type AttestationDocument } from './boundary/enclave.js';
import { SESSION_CONTEXT_HEADER, type SessionContext } from './session-context.js';
import { checkNitroEvidence, nitroMeasurement, type NitroTrust } from './boundary/attestation-producer.js';

export class UntrustedEnclaveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UntrustedEnclaveError';
  }
}

export interface TrustedEnclave {
  /** The published measurement of the enclave's code. */
  measurement: string;
  /** The signer the chain registered as witness: a document is only as good as who signed it. */
  signer: Address;
  /**
   * Set, the document must also carry a Nitro document for its binding (and nonce),
   * chained to this root at `now` and showing these PCRs; the measurement is then PCR0's.
   */
  nitro?: NitroTrust & { now?: () => number };
}

/**
 * Throws unless the document is from the trusted signer, shows the published measurement,
 * and that signer bound the very key it names: the key id is recomputed from the key, so
 * a document that keeps the id and swaps the key is refused.
 */
export async function checkAttestationDocument(document: AttestationDocument, trusted: TrustedEnclave, nonce?: Hex): Promise<void> {
  // A client that sent a nonce accepts only a document signed for it: an old answer replayed cannot pass.
  if (nonce !== undefined && document.nonce?.toLowerCase() !== nonce.toLowerCase()) {
    throw new UntrustedEnclaveError('the document was not signed for this request: its nonce is not ours');
  }
  if (!isAddressEqual(document.signer, trusted.signer)) {
    throw new UntrustedEnclaveError(`the document is signed by ${document.signer}, not the registered witness ${trusted.signer}`);
  }
  if (document.measurement !== trusted.measurement) {
    throw new UntrustedEnclaveError(`the enclave runs ${document.measurement}, not the published ${trusted.measurement}`);
  }
  const { kty, crv, x, y } = document.encryptionKey;
  const keyId = await calculateJwkThumbprint({ kty, crv, x, y } as JWK).catch(() => null);
  if (!keyId || document.encryptionKey.kid !== keyId) throw new UntrustedEnclaveError("the encryption key's id is not its thumbprint");
  const binding = attestationBinding(document.measurement, keyId, document.issuedAt, document.nonce);
  if (document.binding !== binding || !(await verifyMessage({ address: document.signer, message: binding, signature: document.bindingSignature }))) {
    throw new UntrustedEnclaveError("the enclave's signer did not bind this encryption key");
  }
  if (trusted.nitro) checkHardware(document, binding, trusted.nitro, nonce);
}

function checkHardware(document: AttestationDocument, binding: string, trust: NitroTrust & { now?: () => number }, nonce?: Hex): void {
  const pcr0 = trust.pcrs[0];
  if (pcr0 === undefined || document.measurement !== nitroMeasurement(hexToBytes(pcr0))) {
    throw new UntrustedEnclaveError(`the trusted PCR0 does not name the measurement ${document.measurement}`);
  }
  try {
    checkNitroEvidence(document.evidence, binding, trust, (trust.now ?? Date.now)(), nonce ?? document.nonce);
  } catch (error) {
    throw new UntrustedEnclaveError(`the hardware does not vouch for this document: ${(error as Error).message}`);
  }
}

/**
 * Session material as a compact JWE that only the enclave holding the document's key can
 * open, and only for `context`'s use until its expiry: the context rides in the protected
 * header, which the encryption authenticates.
 */
export async function sealSessionMaterial(document: Pick<AttestationDocument, 'encryptionKey'>, material: Record<string, unknown>, context: SessionContext): Promise<string> {
  const key = await importJWK(document.encryptionKey, SESSION_KEY_ALGORITHM);
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(material)))
    .setProtectedHeader({
      alg: SESSION_KEY_ALGORITHM,
      enc: SESSION_CONTENT_ENCRYPTION,
      ...(document.encryptionKey.kid ? { kid: document.encryptionKey.kid } : {}),
      [SESSION_CONTEXT_HEADER]: context,
    })
    .encrypt(key);
}
