/**
 * What a client does before it hands the enclave anything, in the part any client can run
 * (the customer's browser included: nothing here needs Node): check that the document's
 * signer is the trusted witness, that it shows the published measurement, and that the
 * signer bound the very key the document names; then seal session material to that key.
 * The hardware's evidence, where there is hardware, is checked on top in
 * enclave/session-material.ts.
 */
import { CompactEncrypt, calculateJwkThumbprint, importJWK, type JWK } from 'jose';
import { isAddressEqual, verifyMessage, type Address, type Hex } from 'viem';
import { SESSION_CONTENT_ENCRYPTION, SESSION_KEY_ALGORITHM, attestationBinding, type AttestationDocument } from './attestation-document.js';
import { SESSION_CONTEXT_HEADER, type SessionContext } from './session-use.js';

export class UntrustedEnclaveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UntrustedEnclaveError';
  }
}

/**
 * Throws unless the document is from `trusted.signer`, shows `trusted.measurement`, and
 * that signer bound the very key it names: the key id is recomputed from the key, so a
 * document that keeps the id and swaps the key is refused. Answers the binding checked.
 */
export async function checkDocumentBinding(document: AttestationDocument, trusted: { measurement: string; signer: Address }, nonce?: Hex): Promise<string> {
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
  return binding;
}

/**
 * Session material as a compact JWE that only the enclave holding the document's key can
 * open, and only for `context`'s use until its expiry: the context rides in the protected
 * header, which the encryption authenticates.
 */
export async function sealSessionMaterial(
  document: Pick<AttestationDocument, 'encryptionKey'>,
  material: Record<string, unknown>,
  context: SessionContext,
): Promise<string> {
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
