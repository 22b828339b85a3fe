/**
 * What a replacement pays. A node takes a transaction in place of one with the same
 * nonce only if it pays clearly more: geth and anvil ask 10% more on both the fee cap
 * and the tip. A bump asks 12.5%, rounded up, so rounding never lands it under the
 * node's line, or the network's current price if that is higher, and never more than
 * the relayer's cap.
 */
import type { Fees } from './transaction-types.js';

/** Numerator and denominator of the 12.5% step: 9/8. */
const BUMP = { numerator: 9n, denominator: 8n };
/** Numerator and denominator of the 10% a node asks of a replacement. */
const NODE_MINIMUM = { numerator: 11n, denominator: 10n };

const scaledUp = (value: bigint, step: { numerator: bigint; denominator: bigint }) => (value * step.numerator + step.denominator - 1n) / step.denominator;

/**
 * The fees of the next attempt after `previous`, given what the network asks now, or
 * null when the cap leaves no room for a replacement a node would take.
 */
export function bumpedFees(previous: Fees, network: Fees, cap: bigint): Fees | null {
  const tip = max(scaledUp(previous.maxPriorityFeePerGas, BUMP), network.maxPriorityFeePerGas);
  const feeCap = min(max(scaledUp(previous.maxFeePerGas, BUMP), network.maxFeePerGas, tip), cap);
  const cappedTip = min(tip, feeCap);
  if (feeCap < scaledUp(previous.maxFeePerGas, NODE_MINIMUM) || cappedTip < scaledUp(previous.maxPriorityFeePerGas, NODE_MINIMUM)) return null;
  return { maxFeePerGas: feeCap, maxPriorityFeePerGas: cappedTip };
}

/** The fees of a first attempt: the network's, held under the cap. */
export function firstFees(network: Fees, cap: bigint): Fees {
  const feeCap = min(network.maxFeePerGas, cap);
  return { maxFeePerGas: feeCap, maxPriorityFeePerGas: min(network.maxPriorityFeePerGas, feeCap) };
}

function max(...values: bigint[]): bigint {
  return values.reduce((a, b) => (b > a ? b : a));
}

function min(...values: bigint[]): bigint {
  return values.reduce((a, b) => (b < a ? b : a));
}
