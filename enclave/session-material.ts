/**
 * The client's side of the boundary in Node: the document checks any client runs
 * (proto/attestation/session-seal.ts), and on top, where the enclave runs on Nitro, the hardware's word
 * for the binding. Payment actors, the node's enclave client and the tests check and
 * seal this way; the customer's browser runs proto/attestation/session-seal.ts alone.
 */
import { hexToBytes, type Address, type Hex } from 'viem';
import type { AttestationDocument } from '../proto/attestation/attestation-document.js';
import { checkNitroEvidence, nitroMeasurement, type NitroTrust } from './boundary/attestation-producer.js';
import { UntrustedEnclaveError, checkDocumentBinding } from '../proto/attestation/session-seal.js';

export { UntrustedEnclaveError, checkDocumentBinding, sealSessionMaterial } from '../proto/attestation/session-seal.js';

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

/** checkDocumentBinding, and with `trusted.nitro` the hardware's evidence for the binding. */
export async function checkAttestationDocument(document: AttestationDocument, trusted: TrustedEnclave, nonce?: Hex): Promise<void> {
  const binding = await checkDocumentBinding(document, trusted, nonce);
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
