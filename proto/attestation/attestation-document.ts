/**
 * The attestation document and the statement its signer binds, apart from the enclave
 * itself: every client checks these, the customer's browser included, so this file
 * imports nothing that runs only in Node.
 */
import type { JWK } from 'jose';
import type { Address, Hex } from 'viem';

/** What the hardware says for the binding: nothing for the software enclave, a Nitro document (COSE_Sign1, base64) on Nitro. */
export type AttestationEvidence = { kind: 'software' } | { kind: 'nitro' /** The COSE_Sign1, base64. */; document: string };

/** Session material is sealed to the document's key with these: compact JWE, ECDH-ES+A256KW with A256GCM. */
export const SESSION_KEY_ALGORITHM = 'ECDH-ES+A256KW';
export const SESSION_CONTENT_ENCRYPTION = 'A256GCM';

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
  /** The hardware's word for `binding`, where there is hardware (attestation-producer.ts). */
  evidence: AttestationEvidence;
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
