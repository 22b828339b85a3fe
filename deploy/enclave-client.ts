/**
 * The node's client of the attestation service: the in-process one (the embedded
 * default), or ENCLAVE_URL's, trusted for ENCLAVE_MEASUREMENT and one of
 * ENCLAVE_TRUSTED_SIGNERS (the witnesses the chain's verifiers register).
 */
import { readFile } from 'node:fs/promises';
import { getAddress, type Address } from 'viem';
import type { Config } from '../actors/index.js';
import type { NodeMetrics } from '../actors/metrics/index.js';
import { EnclaveClient, type DocumentCheck } from '../actors/adapters/enclave/index.js';
import { UntrustedEnclaveError, checkAttestationDocument, type AttestationDocument } from '../enclave/index.js';
import type { AttestationDocument as WireDocument } from '../proto/gen/peer/enclave/v1/enclave.js';
import type { EnclaveSide } from './enclave.js';

/**
 * A check that trusts the enclave running `measurement` and signing as one of `signers`;
 * with `nitroRoot` (a pcr0: measurement), only where the Nitro hardware vouches for it too.
 */
export function documentCheck(measurement: string, signers: readonly Address[], nitroRoot?: string): DocumentCheck {
  const trusted = new Set(signers.map((signer) => getAddress(signer)));
  const nitro = nitroRoot === undefined ? {} : { nitro: { root: nitroRoot, pcrs: { 0: `0x${measurement.slice('pcr0:'.length)}` as const } } };
  return async (wire, nonce) => {
    const document = fromWire(wire);
    if (!trusted.has(getAddress(document.signer))) throw new UntrustedEnclaveError(`the enclave signs as ${document.signer}, which is not a trusted witness`);
    await checkAttestationDocument(document, { measurement, signer: document.signer, ...nitro }, nonce);
  };
}

/** Null when the node has no attestation service to reach (ENCLAVE_ENABLED=false, or a cluster node without ENCLAVE_URL). */
export async function connectEnclave(
  config: Config,
  inProcess: EnclaveSide | null,
  metrics?: Pick<NodeMetrics, 'attestationCall'>,
): Promise<EnclaveClient | null> {
  if (config.ENCLAVE_URL) {
    const nitroRoot = config.ENCLAVE_NITRO_ROOT ? await readFile(config.ENCLAVE_NITRO_ROOT, 'utf8') : undefined;
    return EnclaveClient.connect(config.ENCLAVE_URL, documentCheck(config.ENCLAVE_MEASUREMENT!, config.ENCLAVE_TRUSTED_SIGNERS as Address[], nitroRoot), {
      metrics,
    });
  }
  if (!inProcess) return null;
  const { measurement } = inProcess.service.attestationDocument();
  return EnclaveClient.connect(inProcess.server.grpcAddress, documentCheck(measurement, [inProcess.service.signer]), { metrics });
}

function fromWire(wire: WireDocument): AttestationDocument {
  const key = wire.encryptionKey;
  return {
    version: 1,
    measurement: wire.measurement,
    signer: wire.signer as Address,
    encryptionKey: { kty: key?.kty, crv: key?.crv, x: key?.x, y: key?.y, kid: key?.kid, alg: key?.alg, use: key?.use },
    issuedAt: wire.issuedAt,
    binding: wire.binding,
    bindingSignature: wire.bindingSignature as `0x${string}`,
    ...(wire.nonce ? { nonce: wire.nonce as `0x${string}` } : {}),
    evidence: wire.evidence?.kind === 'nitro' ? { kind: 'nitro', document: Buffer.from(wire.evidence.document).toString('base64') } : { kind: 'software' },
  };
}
