/**
 * A merchant's payout settings (document 2, Limits): which payout methods are on, the
 * merchant's fee and the wallet it is paid to, the service's fee for this merchant, the
 * funding tokens the merchant allows and the payout step. They are copied onto each payout
 * at creation, so a later change touches new payouts only.
 */
import { fundingToken } from './funding-catalog.js';
import type { PayoutRail } from './payout-rails.js';

export interface PayoutSettings {
  /** The payout methods the merchant turned on, in PayoutRail order; empty: payouts disabled. */
  methods: PayoutRail[];
  /** The merchant's fee on the amount funded, 0 to 1,000 bps. */
  merchantFeeBps: number;
  /** Where the merchant's fee is delivered, an EVM address on Base; required while the fee is above 0. */
  merchantWalletAddress: string | null;
  /** The service's fee on the amount funded, set per merchant by operators; never shown to the merchant's customers or in a PayoutView. */
  serviceFeeBps: number;
  /** Funding tokens the merchant allows, as `<chainId>:<tokenAddress>` (EVM lower-case); null: every catalog token. */
  fundingTokens: string[] | null;
  /** Payouts are whole multiples of this many USDC base units. */
  payoutStepUsdc: bigint;
}

export const DEFAULT_SERVICE_FEE_BPS = 200;
export const MAX_MERCHANT_FEE_BPS = 1_000;
/** 100 USDC. */
export const DEFAULT_PAYOUT_STEP_USDC = 100_000_000n;
/** 1,000 USDC: the most one payout pays. */
export const MAX_PAYOUT_USDC = 1_000_000_000n;

/** What a merchant starts with once an operator turns payouts on: no methods until chosen, no merchant fee, the default service fee and step. */
export function defaultPayoutSettings(): PayoutSettings {
  return {
    methods: [],
    merchantFeeBps: 0,
    merchantWalletAddress: null,
    serviceFeeBps: DEFAULT_SERVICE_FEE_BPS,
    fundingTokens: null,
    payoutStepUsdc: DEFAULT_PAYOUT_STEP_USDC,
  };
}

/** The key a funding token is allowed or switched off under. */
export function fundingTokenKey(chainId: number, tokenAddress: string): string {
  return `${chainId}:${tokenAddress.startsWith('0x') ? tokenAddress.toLowerCase() : tokenAddress}`;
}

/** The key of the catalog token at `tokenAddress` on `chainId` (any case on EVM), or null when the catalog has none there. */
export function catalogTokenKey(chainId: number, tokenAddress: string): string | null {
  const token = fundingToken(chainId, tokenAddress);
  return token ? fundingTokenKey(chainId, token.address) : null;
}
