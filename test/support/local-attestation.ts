/**
 * Payment proofs on the local chain as the attestation service makes them: witnesses sign the
 * PaymentAttestation typed data (enclave/attestation/payment-attestation.ts), the proof is its
 * ABI encoding, and anybody relays it to fulfillIntent in FulfillIntentParams.
 */
import { keccak256, stringToHex, type Hash, type Hex, type LocalAccount } from 'viem';
import { encodePaymentData, encodePaymentProof, paymentAttestationTypedData, type PaymentAttestation } from '../../enclave/attestation/payment-attestation.js';
import type { IntentSnapshot } from '../../enclave/verification/intent-snapshot.js';
import { DEFAULT_INTENT_EXPIRATION_SECONDS, orchestratorAbi, protocolErrorsAbi, type LocalChain } from '../../indexer/chain/index.js';

/** An intent as signalled on chain, as the evidence's snapshot repeats it. */
export interface SignalledIntent {
  intentHash: Hash;
  amount: bigint;
  /** The block time it was signalled at, Unix seconds. */
  timestamp: bigint;
  /** Unix seconds; the local orchestrator's, a day after the signal, unless given. */
  expiryTime?: bigint;
  paymentMethod: Hex;
  fiatCurrency: Hex;
  payeeDetails: Hex;
  conversionRate: bigint;
}

type SnapshotField = 'intentHash' | 'amount' | 'paymentMethod' | 'fiatCurrency' | 'payeeDetails' | 'conversionRate' | 'signalTimestamp' | 'expiryTime';

/** When the witness read the payment as made (Unix ms; a minute after the signal by default), and the buffer it signs (none by default). */
export interface EvidenceTimes {
  paidAtMs?: bigint;
  timestampBuffer?: bigint;
}

/**
 * The evidence a witness signs over, as the attestation service encodes it: a payment to the
 * intent's payee (`paymentId` names it), and the intent as the witness was told it was;
 * `lies` replaces fields of that snapshot.
 */
export function paymentEvidence(
  intent: SignalledIntent,
  paymentId: string,
  lies: Partial<Record<SnapshotField, unknown>> = {},
  times: EvidenceTimes = {},
): Hex {
  const paidAtMs = times.paidAtMs ?? intent.timestamp * 1000n + 60_000n;
  const details = {
    method: intent.paymentMethod,
    payeeId: intent.payeeDetails,
    amount: 3060n,
    currency: intent.fiatCurrency,
    timestamp: paidAtMs,
    paymentId: keccak256(stringToHex(paymentId)),
  };
  const snapshot = {
    ...intent,
    fiatCurrencyCode: '',
    signalTimestamp: intent.timestamp,
    expiryTime: intent.expiryTime ?? intent.timestamp + DEFAULT_INTENT_EXPIRATION_SECONDS,
    timestampBuffer: times.timestampBuffer ?? 0n,
    disputeProtection: false,
    ...lies,
  } as IntentSnapshot;
  return encodePaymentData(details, snapshot);
}

/** The attestation that `witnesses` (one signature each, in order) give for releasing `releaseAmount` of the intent against `data`. */
export async function witnessAttestation(
  local: LocalChain,
  witnesses: readonly LocalAccount[],
  intentHash: Hash,
  releaseAmount: bigint,
  data: Hex,
): Promise<PaymentAttestation> {
  const message = { intentHash, releaseAmount, dataHash: keccak256(data) };
  const typedData = paymentAttestationTypedData(local.chainId, local.verifier, message);
  const signatures = await Promise.all(witnesses.map((witness) => witness.signTypedData(typedData)));
  return { ...message, signatures, data, metadata: '0x' };
}

/** fulfillIntent as `relayer`, for `intentHash` (the attestation's own by default). */
export async function fulfilOn(
  local: LocalChain,
  relayer: LocalAccount,
  attestation: PaymentAttestation,
  intentHash: Hash = attestation.intentHash,
): Promise<Hash> {
  return local.walletFor(relayer).writeContract({
    address: local.orchestrator,
    abi: [...orchestratorAbi, ...protocolErrorsAbi],
    functionName: 'fulfillIntent',
    args: [{ paymentProof: encodePaymentProof(attestation), intentHash, verificationData: '0x', postIntentHookData: '0x' }],
  });
}
