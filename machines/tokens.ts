/**
 * Destination tokens by alias. Orders settle in USDC on Base (chain 8453) by default;
 * a merchant may name another chain's USDC by alias or any token by address.
 */
export const BASE_CHAIN_ID = '8453';

const USDC_BY_CHAIN: Readonly<Record<string, string>> = {
  '8453': '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  '1': '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  '10': '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
  '137': '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
  '42161': '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
};

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The token address for an alias (`USDC`, any case) or an address on `chainId`, or null when unknown. */
export function resolveDestinationToken(token: string, chainId: string): string | null {
  if (ADDRESS.test(token)) return token;
  if (token.toUpperCase() === 'USDC') return USDC_BY_CHAIN[chainId] ?? null;
  return null;
}
