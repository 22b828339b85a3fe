/**
 * Handing the attestation service a platform session, as both hosted pages do (a buyer's
 * payment proof, a payout customer's account connection): fetch its document for a fresh
 * nonce, check it is the trusted enclave's, and seal the session to the key it names, for
 * one use only. The sealed material is all the node or the service ever sees of the session.
 */
import { bytesToHex, type Address, type Hex } from 'viem';
import type { AttestationDocument } from '../../../proto/attestation/attestation-document.js';
import { checkDocumentBinding, sealSessionMaterial } from '../../../proto/attestation/session-seal.js';
import type { SessionUse } from '../../../proto/attestation/session-use.js';

/** The enclave a page may seal to: its published measurement and the witnesses the chain registered. */
export interface TrustedEnclave {
  measurement: string;
  signers: string[];
}

/** How long the sealed material may be opened: long enough to verify, never a stored credential. */
const SEAL_LIFETIME_SECONDS = 600;

export async function sealToEnclave(serviceUrl: string, enclave: TrustedEnclave, material: Record<string, unknown>, use: SessionUse): Promise<string> {
  const nonce = bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
  const response = await fetch(`${serviceUrl}/attestation?nonce=${nonce}`);
  const document = ((await response.json()) as { responseObject: AttestationDocument }).responseObject;
  await trusted(document, enclave, nonce);
  return sealSessionMaterial(document, material, { ...use, expiresAt: Math.floor(Date.now() / 1000) + SEAL_LIFETIME_SECONDS });
}

/** The document must be signed, for our nonce, by one of the witnesses, showing the published measurement. */
async function trusted(document: AttestationDocument, enclave: TrustedEnclave, nonce: Hex): Promise<void> {
  const signer = enclave.signers.find((candidate) => candidate.toLowerCase() === document.signer.toLowerCase());
  if (!signer) throw new Error(`the attestation service signs as ${document.signer}, which is not a trusted witness`);
  await checkDocumentBinding(document, { measurement: enclave.measurement, signer: signer as Address }, nonce);
}
