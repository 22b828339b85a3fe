/**
 * The simulator's funding requests, as a provider keeps them: one per payout reference, with a
 * fresh deposit address, and every transfer seen arriving there. Pure bookkeeping in base
 * units; the desk (funding-desk.ts) moves them through their statuses and the money.
 *
 * Each transfer is converted on its own and in proportion, as conversion-requests.ts does for a
 * payment: the quote's USDC times what arrived over what was asked, rounded down; each app fee
 * is its basis points of that, rounded down, and the recipient gets the rest. A transfer that
 * would deliver less than the provider's minimum is refunded instead, in the token sent.
 */
import type { FundingTransferStatus } from '../../actors/adapters/conversion/funding-provider.js';
import type { Arrival } from './conversion-requests.js';
import { FUNDING_MINIMUM } from './funding-prices.js';
import type { StandIn } from './funding-tokens.js';

export interface FundingRecord {
  id: string;
  reference: string;
  /** The request as first asked: a retry under the same reference must ask the same. */
  fingerprint: string;
  originDecimals: number;
  /** What moves on the local chain (or in the simulated mempool) for the origin token. */
  standIn: StandIn;
  /** As answered: EIP-55 on EVM chains, bech32 (lower-case) on Bitcoin. */
  depositAddress: string;
  refundAddress: string | null;
  recipient: `0x${string}`;
  appFees: Array<{ recipient: `0x${string}`; feeBps: number }>;
  originAmount: bigint;
  destinationAmount: bigint;
  /** Oldest first. */
  transfers: FundingTransferRecord[];
}

export interface FundingTransferRecord {
  id: string;
  status: FundingTransferStatus;
  originAmount: bigint;
  startedAt: string;
  swept: boolean;
  /** The sender on the local chain (a refund's fallback); null on Bitcoin. */
  from: `0x${string}` | null;
  sourceTransactionHash: string | null;
  destinationTransactionHashes: string[];
  refundTransactionHash: string | null;
  /** The block the conversion or refund started paying at, once it has: a restart pays only what it finds unpaid since. */
  payingSince: bigint | null;
}

const BPS = 10_000n;

/** What one transfer of `amount` to the request's deposit address calls for. */
export function fundingArrival(record: FundingRecord, amount: bigint): Arrival {
  const delivered = (record.destinationAmount * amount) / record.originAmount;
  if (delivered < FUNDING_MINIMUM)
    return { kind: 'refund', reason: `${amount} base units convert to less than the minimum of ${FUNDING_MINIMUM} USDC base units` };
  const fees = record.appFees.map((fee) => ({ to: fee.recipient, amount: (delivered * BigInt(fee.feeBps)) / BPS }));
  const net = delivered - fees.reduce((sum, fee) => sum + fee.amount, 0n);
  if (net <= 0n) return { kind: 'refund', reason: `${amount} base units convert to nothing after the app fees` };
  return { kind: 'convert', payouts: [{ to: record.recipient, amount: net }, ...fees.filter((fee) => fee.amount > 0n)] };
}

/** The wire form of the request's activity (docs/payouts.md). */
export function activityOf(record: FundingRecord) {
  return {
    requestId: record.id,
    depositAddress: record.depositAddress,
    transfers: record.transfers.map((transfer) => ({
      id: transfer.id,
      status: transfer.status,
      originAmount: transfer.originAmount.toString(),
      startedAt: transfer.startedAt,
      swept: transfer.swept,
      sourceTransactionHash: transfer.sourceTransactionHash,
      destinationTransactionHashes: transfer.destinationTransactionHashes,
      refundTransactionHash: transfer.refundTransactionHash,
    })),
  };
}

/** The wire form of the quote: the same for the first request and each retry under its reference. */
export function quoteOf(record: FundingRecord) {
  return {
    requestId: record.id,
    depositAddress: record.depositAddress,
    originAmount: record.originAmount.toString(),
    originDecimals: record.originDecimals,
    destinationAmount: record.destinationAmount.toString(),
  };
}
