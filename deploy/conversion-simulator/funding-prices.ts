/**
 * What the local provider charges for a funding route (and a payout's bridge out): a fixed price table in US dollars per
 * token (no market on a local chain), and its own fee on top. The fee is PROVIDER_FEE_BPS
 * except on USDC on Base to USDC on Base, which converts nothing and costs nothing, so document
 * 2's worked numbers (a 104.123712 USDC deposit for a 100 USDC payout with 100 + 200 bps of
 * fees) are what the local node quotes.
 */
import { BASE_CHAIN_ID, BASE_USDC_ADDRESS } from '../../machines/payout/funding-catalog.js';
import { ceilDiv, parseUsdc } from '../../machines/money.js';
import { PROVIDER_FEE_BPS } from './conversion-requests.js';

/** US dollars per whole token, as decimals: stablecoins at par, the rest at plausible fixed prices. */
export const LOCAL_USD_PRICES: Readonly<Record<string, string>> = {
  USDC: '1',
  USDT: '1',
  PYUSD: '1',
  ETH: '3000',
  BNB: '600',
  POL: '0.25',
  HYPE: '25',
  BTC: '60000',
  WBTC: '60000',
  SOL: '150',
  ZEC: '40',
  USDH: '1',
};

/** The least a funding request (and a transfer to one) converts: 1 USDC. */
export const FUNDING_MINIMUM = 1_000_000n;

const BPS = 10_000n;

/** The token's price in USDC base units per whole token, or null when the table has none. */
export function usdcPerToken(symbol: string): bigint | null {
  const price = LOCAL_USD_PRICES[symbol];
  if (price === undefined) return null;
  return parseUsdc(price);
}

export function fundingFeeBps(originChainId: number, originTokenAddress: string): number {
  return originChainId === BASE_CHAIN_ID && originTokenAddress.toLowerCase() === BASE_USDC_ADDRESS.toLowerCase() ? 0 : PROVIDER_FEE_BPS;
}

/**
 * What to send, in the origin token's base units, for `amount` USDC base units delivered: the
 * amount at the token's price plus the fee, rounded up once at the end so the provider never
 * quotes short.
 */
export function fundingOriginAmount(amount: bigint, usdcPerWholeToken: bigint, decimals: number, feeBps: number): bigint {
  return ceilDiv(amount * (BPS + BigInt(feeBps)) * 10n ** BigInt(decimals), usdcPerWholeToken * BPS);
}
