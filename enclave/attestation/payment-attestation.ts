/**
 * The PaymentAttestation the on-chain UnifiedPaymentVerifier accepts: EIP-712 over
 * (intentHash, releaseAmount, dataHash) in the verifier's domain, where data is the
 * ABI encoding of what was checked, (PaymentDetails, IntentSnapshot), followed by the
 * penalties applied when any did (machines/payment/attestation-abi.ts), and dataHash its
 * keccak256. Ids and codes travel as their keccak256, as the chain holds them. The proof
 * a client hands to the orchestrator's fulfillIntent (FulfillIntentParams.paymentProof)
 * is the protocol's ABI-encoded PaymentAttestation, signatures as a list.
 */
import { decodeAbiParameters, encodeAbiParameters, encodePacked, keccak256, type Address, type Hex } from 'viem';
import type { NormalizedPayment } from '../platforms/platform.js';
import { idHash, type IntentSnapshot } from '../verification/intent-snapshot.js';
import {
  INTENT_SNAPSHOT_ABI,
  PAYMENT_ATTESTATION_ABI,
  PAYMENT_DETAILS_ABI,
  PENALTIES_ABI,
  penaltyTuples,
  type PenaltyTerm,
} from '../../machines/payment/attestation-abi.js';

export { INTENT_SNAPSHOT_ABI, PAYMENT_ATTESTATION_ABI, PAYMENT_DETAILS_ABI, PENALTIES_ABI };

export const PAYMENT_ATTESTATION_DOMAIN = { name: 'UnifiedPaymentVerifier', version: '1' } as const;

export const PAYMENT_ATTESTATION_TYPES = {
  PaymentAttestation: [
    { name: 'intentHash', type: 'bytes32' },
    { name: 'releaseAmount', type: 'uint256' },
    { name: 'dataHash', type: 'bytes32' },
  ],
} as const;

export interface PaymentAttestation {
  intentHash: Hex;
  releaseAmount: bigint;
  dataHash: Hex;
  signatures: readonly Hex[];
  data: Hex;
  /** Not signed and not read on chain. */
  metadata: Hex;
}

/** FulfillIntentParams.paymentProof: what the orchestrator takes as it is. */
export function encodePaymentProof(attestation: PaymentAttestation): Hex {
  return encodeAbiParameters([PAYMENT_ATTESTATION_ABI], [attestation]);
}

export function decodePaymentProof(proof: Hex): PaymentAttestation {
  const [attestation] = decodeAbiParameters([PAYMENT_ATTESTATION_ABI], proof);
  return attestation;
}

export interface PaymentDetails {
  method: Hex;
  payeeId: Hex;
  /** Fiat base units. */
  amount: bigint;
  currency: Hex;
  /** Unix milliseconds. */
  timestamp: bigint;
  paymentId: Hex;
}

export function paymentDetails(platformId: string, payment: NormalizedPayment): PaymentDetails {
  return {
    method: idHash(platformId),
    payeeId: idHash(payment.payeeId),
    amount: payment.amount,
    currency: idHash(payment.currency),
    timestamp: BigInt(payment.timestampMs),
    paymentId: idHash(payment.paymentId),
  };
}

/** keccak256(method ‖ paymentId): one per payment, whichever intent it is offered for. */
export function paymentNullifier(details: PaymentDetails): Hex {
  return keccak256(encodePacked(['bytes32', 'bytes32'], [details.method, details.paymentId]));
}

/** The penalties follow the two parts the on-chain verifier reads, only when any applied, so an unpenalised payment's data is as before. */
export function encodePaymentData(details: PaymentDetails, intent: IntentSnapshot, penalties: readonly PenaltyTerm[] = []): Hex {
  const snapshot = {
    intentHash: intent.intentHash,
    amount: intent.amount,
    paymentMethod: intent.paymentMethod,
    fiatCurrency: intent.fiatCurrency,
    payeeDetails: intent.payeeDetails,
    conversionRate: intent.conversionRate,
    signalTimestamp: intent.signalTimestamp,
    expiryTime: intent.expiryTime,
    timestampBuffer: intent.timestampBuffer,
  };
  if (penalties.length > 0) {
    return encodeAbiParameters([PAYMENT_DETAILS_ABI, INTENT_SNAPSHOT_ABI, PENALTIES_ABI], [details, snapshot, penaltyTuples(penalties)]);
  }
  return encodeAbiParameters([PAYMENT_DETAILS_ABI, INTENT_SNAPSHOT_ABI], [details, snapshot]);
}

export function paymentAttestationTypedData(chainId: number, verifyingContract: Address, message: { intentHash: Hex; releaseAmount: bigint; dataHash: Hex }) {
  return {
    domain: { ...PAYMENT_ATTESTATION_DOMAIN, chainId, verifyingContract },
    types: PAYMENT_ATTESTATION_TYPES,
    primaryType: 'PaymentAttestation' as const,
    message,
  };
}
