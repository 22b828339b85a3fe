/**
 * The simulator's requests, as a provider keeps them: quoted with a fresh deposit address,
 * then fed the token transfers the chain shows arriving there. Pure bookkeeping in base
 * units; what moves money on the chain is local-settlement.ts.
 *
 * A transfer to a request that still waits is converted in proportion: the quote's USDC
 * times what arrived over what was asked (rounded down), so a short transfer delivers
 * short, a long one long, as Relay does for EXACT_OUTPUT requests paid off quote. Each app
 * fee is its basis points of what is delivered, rounded down like the protocol's fees. A
 * transfer to a request that is cancelled, expired or already paid is refunded.
 */
import { ceilDiv } from '../../machines/money.js';
import type { ConversionStatus } from '../../actors/adapters/conversion/conversion-provider.js';

export interface SimToken {
  symbol: string;
  address: `0x${string}`;
  decimals: number;
}

export interface SimRequest {
  id: string;
  depositAddress: `0x${string}`;
  token: SimToken;
  originAmount: bigint;
  destinationAmount: bigint;
  recipient: `0x${string}`;
  appFees: Array<{ recipient: `0x${string}`; feeBps: number }>;
  expiresAtMs: number;
  status: ConversionStatus;
  cancelled: boolean;
  received: bigint | null;
  sourceTransactionHash: `0x${string}` | null;
  destinationTransactionHashes: `0x${string}`[];
  message: string | null;
}

/** One payout a conversion makes on the settlement chain. */
export interface Payout {
  to: `0x${string}`;
  amount: bigint;
}

/** What a transfer arriving at a request's deposit address calls for. */
export type Arrival = { kind: 'convert'; payouts: Payout[] } | { kind: 'refund'; reason: string };

const BPS = 10_000n;
/** The provider's own fee, taken from what the customer sends: 0.1%. */
export const PROVIDER_FEE_BPS = 10;

/** What the customer must send for `destinationAmount`: it plus the provider's fee, rounded up. */
export function originAmountFor(destinationAmount: bigint, providerFeeBps: number, token: SimToken, usdcDecimals: number): bigint {
  const scaled = ceilDiv(destinationAmount * (BPS + BigInt(providerFeeBps)), BPS);
  const shift = token.decimals - usdcDecimals;
  return shift >= 0 ? scaled * 10n ** BigInt(shift) : ceilDiv(scaled, 10n ** BigInt(-shift));
}

export function arrival(request: SimRequest, amount: bigint, nowMs: number): Arrival {
  if (request.cancelled) return { kind: 'refund', reason: `request ${request.id} was cancelled` };
  if (request.status !== 'waiting') return { kind: 'refund', reason: `request ${request.id} was already paid` };
  if (nowMs >= request.expiresAtMs) return { kind: 'refund', reason: `request ${request.id} expired at ${new Date(request.expiresAtMs).toISOString()}` };
  const delivered = (request.destinationAmount * amount) / request.originAmount;
  const fees = request.appFees.map((fee) => ({ to: fee.recipient, amount: (delivered * BigInt(fee.feeBps)) / BPS }));
  const feeTotal = fees.reduce((sum, fee) => sum + fee.amount, 0n);
  if (delivered - feeTotal <= 0n) return { kind: 'refund', reason: `${amount} base units convert to nothing after fees` };
  return { kind: 'convert', payouts: [{ to: request.recipient, amount: delivered - feeTotal }, ...fees.filter((fee) => fee.amount > 0n)] };
}
