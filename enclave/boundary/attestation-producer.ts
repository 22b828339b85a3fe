/**
 * Who vouches for the enclave's attestation document. Today's software producer vouches
 * for nothing beyond the signer's own statement: a client trusts the measurement because
 * the witness the chain registered signed it. A Nitro producer adds the hardware's word:
 * the Nitro Secure Module signs a document (nitro-document.ts) whose PCRs measure the
 * enclave image and whose user data is the digest of the signer's statement, so a client
 * holding AWS's root learns that this code, in a real enclave, holds this signer and
 * this upload key, in answer to its nonce.
 */
import { createHash } from 'node:crypto';
import { bytesToHex, hexToBytes, type Hex } from 'viem';
import { NitroDocumentError, verifyNitroDocument, type NitroAttestation } from './nitro-document.js';
import type { AttestationEvidence } from '../../proto/attestation/attestation-document.js';

export type { AttestationEvidence };

export interface AttestationProducer {
  /** What the enclave runs, as the document states it and key management checks it. */
  readonly measurement: string;
  /** Evidence for the signer's statement (attestationBinding) and, when a client sent one, its nonce. */
  evidence(statement: string, nonce?: Hex): Promise<AttestationEvidence>;
}

export function softwareProducer(measurement: string): AttestationProducer {
  return { measurement, evidence: async () => ({ kind: 'software' }) };
}

/**
 * The one request of the Nitro Secure Module this needs (the NSM API's `Attestation`):
 * inside an enclave it is an ioctl on /dev/nsm, through AWS's `aws-nitro-enclaves-nsm-api`.
 */
export interface NitroSecureModule {
  attest(request: { userData: Uint8Array; nonce?: Uint8Array }): Promise<Uint8Array>;
}

/** The measurement of a Nitro enclave: PCR0, the hash of its image (code, lockfile, packages and runtime together). */
export function nitroMeasurement(pcr0: Uint8Array): string {
  return `pcr0:${bytesToHex(pcr0).slice(2)}`;
}

/** What a Nitro document's user data holds: SHA-256 of the statement, so any statement fits its 512 bytes. */
export function statementDigest(statement: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(statement, 'utf8').digest());
}

export class NitroAttestationProducer implements AttestationProducer {
  readonly measurement: string;
  readonly #module: NitroSecureModule;

  private constructor(module: NitroSecureModule, measurement: string) {
    this.#module = module;
    this.measurement = measurement;
  }

  /** Reads PCR0 from a first document, checked against `root`: the measurement is what the hardware says, not what we compute. */
  static async open(module: NitroSecureModule, root: string, now: number): Promise<NitroAttestationProducer> {
    const document = await module.attest({ userData: new Uint8Array(0) });
    const pcr0 = verifyNitroDocument(document, { root, now }).pcrs.get(0);
    if (!pcr0) throw new NitroDocumentError("the module's document has no PCR0");
    return new NitroAttestationProducer(module, nitroMeasurement(pcr0));
  }

  async evidence(statement: string, nonce?: Hex): Promise<AttestationEvidence> {
    const document = await this.#module.attest({ userData: statementDigest(statement), ...(nonce === undefined ? {} : { nonce: hexToBytes(nonce) }) });
    return { kind: 'nitro', document: Buffer.from(document).toString('base64') };
  }
}

export interface NitroTrust {
  /** AWS's Nitro Enclaves root certificate, PEM: check its SHA-256 fingerprint against the one AWS publishes. */
  root: string;
  /** PCRs the enclave must show, index to hex: at least PCR0, which the measurement names. */
  pcrs: Readonly<Record<number, Hex>>;
}

/**
 * Throws NitroDocumentError unless `evidence` is a Nitro document chained to the trusted
 * root at `now`, showing every trusted PCR, vouching for exactly `statement` and, when
 * given, `nonce`. Returns the claims for the caller's own checks.
 */
export function checkNitroEvidence(
  evidence: AttestationEvidence | undefined,
  statement: string,
  trust: NitroTrust,
  now: number,
  nonce?: Hex,
): NitroAttestation {
  if (evidence?.kind !== 'nitro') throw new NitroDocumentError('the document carries no Nitro evidence');
  const attestation = verifyNitroDocument(Buffer.from(evidence.document, 'base64'), { root: trust.root, now });
  for (const [index, expected] of Object.entries(trust.pcrs)) {
    const pcr = attestation.pcrs.get(Number(index));
    if (!pcr || bytesToHex(pcr) !== expected.toLowerCase()) throw new NitroDocumentError(`PCR${index} is not the trusted value`);
  }
  if (!attestation.userData || !Buffer.from(attestation.userData).equals(statementDigest(statement))) {
    throw new NitroDocumentError("the hardware's user data is not the digest of the signer's statement");
  }
  const signedNonce = attestation.nonce && attestation.nonce.length > 0 ? bytesToHex(attestation.nonce) : undefined;
  if (signedNonce !== nonce?.toLowerCase()) throw new NitroDocumentError("the hardware's nonce is not the client's");
  return attestation;
}
