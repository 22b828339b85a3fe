/**
 * The DisputeAttestation: the enclave's EIP-712 statement, in the dispute verifier's
 * domain (not the payment verifier's: it is no proof for fulfillIntent), that the
 * platform's DKIM-signed e-mail reports a dispute of the given payment for the intent.
 */
import { encodeAbiParameters, keccak256, type Address, type Hex } from 'viem';
import type { VerifiedDispute } from '../dispute/dispute-verifiers.js';
import { idHash } from '../verification/intent-snapshot.js';

export const DISPUTE_ATTESTATION_DOMAIN = { name: 'DisputeVerifier', version: '1' } as const;

export const DISPUTE_ATTESTATION_TYPES = {
  DisputeAttestation: [
    { name: 'intentHash', type: 'bytes32' },
    { name: 'paymentId', type: 'bytes32' },
    { name: 'disputeId', type: 'bytes32' },
    { name: 'dataHash', type: 'bytes32' },
  ],
} as const;

/** (method, paymentId, disputeId, signing domain, e-mail date) ABI-encoded; its keccak256 is dataHash. */
export function encodeDisputeData(dispute: VerifiedDispute): Hex {
  return encodeAbiParameters(
    [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }],
    [idHash(dispute.platform), idHash(dispute.paymentId), idHash(dispute.disputeId), idHash(dispute.signingDomain), dispute.emailDate],
  );
}

export function disputeAttestationTypedData(chainId: number, verifyingContract: Address, intentHash: Hex, dispute: VerifiedDispute, data: Hex) {
  return {
    domain: { ...DISPUTE_ATTESTATION_DOMAIN, chainId, verifyingContract },
    types: DISPUTE_ATTESTATION_TYPES,
    primaryType: 'DisputeAttestation' as const,
    message: { intentHash, paymentId: idHash(dispute.paymentId), disputeId: idHash(dispute.disputeId), dataHash: keccak256(data) },
  };
}
