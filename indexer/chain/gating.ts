/**
 * The gating service's approval of an intent: the EIP-712 signature the orchestrator requires
 * before it locks a deposit's liquidity (Orchestrator.sol, SignalIntent). It binds the intent's
 * terms, the address that will signal it and an expiry, and the orchestrator accepts each one
 * once: two intents of equal terms need approvals with different expiries. The node signs only
 * intents its own payment flow creates.
 */
import type { Address, Hex, LocalAccount } from 'viem';

export const SIGNAL_INTENT_TYPES = {
  SignalIntent: [
    { name: 'owner', type: 'address' },
    { name: 'escrow', type: 'address' },
    { name: 'depositId', type: 'uint256' },
    { name: 'amount', type: 'uint256' },
    { name: 'to', type: 'address' },
    { name: 'paymentMethod', type: 'bytes32' },
    { name: 'fiatCurrency', type: 'bytes32' },
    { name: 'conversionRate', type: 'uint256' },
    { name: 'referrer', type: 'address' },
    { name: 'referrerFee', type: 'uint256' },
    { name: 'signatureExpiration', type: 'uint256' },
  ],
} as const;

/** What the gating service approves: the SignalIntentParams it covers, and who may send them. */
export interface GatedIntent {
  /** The address that calls signalIntent and so owns the intent. */
  owner: Address;
  escrow: Address;
  depositId: bigint;
  amount: bigint;
  to: Address;
  paymentMethod: Hex;
  fiatCurrency: Hex;
  /** Fiat per USDC: the fiat, in whole units, that buys one whole USDC, scaled by 1e18 (150 JPY per USDC is 150e18). */
  conversionRate: bigint;
  referrer: Address;
  /** The referrer's share of what the intent releases, scaled by 1e18. */
  referrerFee: bigint;
  /** Unix seconds; the orchestrator refuses the signature after it. */
  signatureExpiration: bigint;
}

export function signIntentGating(signer: LocalAccount, where: { chainId: number; orchestrator: Address }, intent: GatedIntent): Promise<Hex> {
  return signer.signTypedData({
    domain: { name: 'Orchestrator', version: '1', chainId: where.chainId, verifyingContract: where.orchestrator },
    types: SIGNAL_INTENT_TYPES,
    primaryType: 'SignalIntent',
    message: intent,
  });
}
