/**
 * The ABI of the payment attestation, shared by the attestation service that signs it and
 * the node that reads it back: the PaymentAttestation tuple the orchestrator's fulfillIntent
 * takes as its paymentProof, and its data, (PaymentDetails, IntentSnapshot), followed when
 * the service applied any by the penalties it applied. The data is hashed into dataHash,
 * which the EIP-712 signature covers, so the penalties are as signed as the release. The
 * on-chain verifier decodes the first two components only (abi.decode ignores what follows).
 */
import { BaseError, decodeAbiParameters, type Hex } from 'viem';

/** document 1's PaymentPenaltyKind; penalties.ts applies them in PENALTY_ORDER. */
export type PenaltyKind = 'CROSS_CURRENCY' | 'PURCHASE_PROTECTION';

/** One applied penalty, in cents of the intent's currency, as the attestation carries it. */
export interface PenaltyTerm {
  kind: PenaltyKind;
  penaltyBps: number;
  originalCents: bigint;
  attestedCents: bigint;
}

export const PAYMENT_DETAILS_ABI = {
  type: 'tuple',
  name: 'paymentDetails',
  components: [
    { name: 'method', type: 'bytes32' },
    { name: 'payeeId', type: 'bytes32' },
    { name: 'amount', type: 'uint256' },
    { name: 'currency', type: 'bytes32' },
    { name: 'timestamp', type: 'uint256' },
    { name: 'paymentId', type: 'bytes32' },
  ],
} as const;

export const INTENT_SNAPSHOT_ABI = {
  type: 'tuple',
  name: 'intentSnapshot',
  components: [
    { name: 'intentHash', type: 'bytes32' },
    { name: 'amount', type: 'uint256' },
    { name: 'paymentMethod', type: 'bytes32' },
    { name: 'fiatCurrency', type: 'bytes32' },
    { name: 'payeeDetails', type: 'bytes32' },
    { name: 'conversionRate', type: 'uint256' },
    { name: 'signalTimestamp', type: 'uint256' },
    { name: 'expiryTime', type: 'uint256' },
    { name: 'timestampBuffer', type: 'uint256' },
  ],
} as const;

/** In application order; amounts in base units (cents) of the intent's currency. */
export const PENALTIES_ABI = {
  type: 'tuple[]',
  name: 'penalties',
  components: [
    { name: 'kind', type: 'string' },
    { name: 'penaltyBps', type: 'uint256' },
    { name: 'originalAmount', type: 'uint256' },
    { name: 'attestedAmount', type: 'uint256' },
  ],
} as const;

export const PAYMENT_ATTESTATION_ABI = {
  type: 'tuple',
  name: 'paymentAttestation',
  components: [
    { name: 'intentHash', type: 'bytes32' },
    { name: 'releaseAmount', type: 'uint256' },
    { name: 'dataHash', type: 'bytes32' },
    { name: 'signatures', type: 'bytes[]' },
    { name: 'data', type: 'bytes' },
    { name: 'metadata', type: 'bytes' },
  ],
} as const;

/** (PaymentDetails, IntentSnapshot): every field static, so this is where a penalty list's offset starts. */
const DETAILS_AND_SNAPSHOT_BYTES = (PAYMENT_DETAILS_ABI.components.length + INTENT_SNAPSHOT_ABI.components.length) * 32;

export function penaltyTuples(terms: readonly PenaltyTerm[]) {
  return terms.map((term) => ({
    kind: term.kind,
    penaltyBps: BigInt(term.penaltyBps),
    originalAmount: term.originalCents,
    attestedAmount: term.attestedCents,
  }));
}

export interface AttestedRelease {
  releaseAmount: bigint;
  penalties: PenaltyTerm[];
}

/**
 * What a paymentProof the service signed releases, and the penalties its data carries (none when
 * the data has only its two parts); null for bytes that are no PaymentAttestation, which the
 * chain would refuse and so can have settled nothing.
 */
export function readAttestedRelease(paymentProof: Hex): AttestedRelease | null {
  try {
    return decodeRelease(paymentProof);
  } catch (error) {
    if (error instanceof BaseError) return null;
    throw error;
  }
}

function decodeRelease(paymentProof: Hex): AttestedRelease {
  const [attestation] = decodeAbiParameters([PAYMENT_ATTESTATION_ABI], paymentProof);
  const dataBytes = (attestation.data.length - 2) / 2;
  if (dataBytes <= DETAILS_AND_SNAPSHOT_BYTES) return { releaseAmount: attestation.releaseAmount, penalties: [] };
  const [, , tuples] = decodeAbiParameters([PAYMENT_DETAILS_ABI, INTENT_SNAPSHOT_ABI, PENALTIES_ABI], attestation.data);
  return {
    releaseAmount: attestation.releaseAmount,
    penalties: tuples.map((tuple) => ({
      kind: tuple.kind as PenaltyKind,
      penaltyBps: Number(tuple.penaltyBps),
      originalCents: tuple.originalAmount,
      attestedCents: tuple.attestedAmount,
    })),
  };
}
