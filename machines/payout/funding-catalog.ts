/**
 * What a payout can be funded with (document 2, POST /api/v1/payouts: funding.chainId and
 * funding.tokenAddress): ten chains, each with its native token (the all-zero address) and
 * the stablecoins the conversion provider takes there, and BTC on Bitcoin under the
 * provider's own BTC identifier. Addresses are the tokens' mainnet contracts; the local
 * conversion provider stands a local token in for each (deploy/conversion-simulator/).
 * Stablecoins get the smaller price-movement buffer (payout-amounts.ts).
 */
export const NATIVE_TOKEN_ADDRESS = '0x0000000000000000000000000000000000000000';
/** The conversion provider's identifier for native BTC on Bitcoin. */
export const BTC_TOKEN_ADDRESS = 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8';
export const BITCOIN_CHAIN_ID = 8253038;
export const BASE_CHAIN_ID = 8453;
/** Circle's USDC on Base: the only thing a payout pays out in. */
export const BASE_USDC_ADDRESS = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

export interface FundingToken {
  symbol: string;
  /** EIP-55 on EVM chains; the provider's identifier for BTC. */
  address: string;
  decimals: number;
  /** Pegged to the US dollar: a 1 % buffer capped at 5 USDC rather than 2 % capped at 10. */
  stable: boolean;
}

export interface FundingChain {
  id: number;
  name: string;
  kind: 'evm' | 'bitcoin';
  tokens: readonly FundingToken[];
}

const native = (symbol: string): FundingToken => ({ symbol, address: NATIVE_TOKEN_ADDRESS, decimals: 18, stable: false });
const stable = (symbol: string, address: string, decimals = 6): FundingToken => ({ symbol, address, decimals, stable: true });

export const FUNDING_CHAINS: readonly FundingChain[] = [
  {
    id: 1,
    name: 'Ethereum',
    kind: 'evm',
    tokens: [
      native('ETH'),
      stable('USDC', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'),
      stable('USDT', '0xdAC17F958D2ee523a2206206994597C13D831ec7'),
      stable('PYUSD', '0x6c3ea9036406852006290770BEdFcAbA0e23A0e8'),
    ],
  },
  { id: 10, name: 'Optimism', kind: 'evm', tokens: [native('ETH'), stable('USDC', '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85')] },
  {
    id: 56,
    name: 'BNB Chain',
    kind: 'evm',
    tokens: [native('BNB'), stable('USDC', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 18), stable('USDT', '0x55d398326f99059fF775485246999027B3197955', 18)],
  },
  {
    id: 137,
    name: 'Polygon',
    kind: 'evm',
    tokens: [native('POL'), stable('USDC', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'), stable('USDT', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F')],
  },
  { id: 480, name: 'World Chain', kind: 'evm', tokens: [native('ETH'), stable('USDC', '0x79A02482A880bCE3F13e09Da970dC34db4CD24d1')] },
  { id: 999, name: 'HyperEVM', kind: 'evm', tokens: [native('HYPE')] },
  { id: 5042, name: 'Chain 5042', kind: 'evm', tokens: [native('ETH')] },
  { id: BASE_CHAIN_ID, name: 'Base', kind: 'evm', tokens: [native('ETH'), stable('USDC', BASE_USDC_ADDRESS)] },
  {
    id: 42161,
    name: 'Arbitrum',
    kind: 'evm',
    tokens: [native('ETH'), stable('USDC', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831'), stable('USDT', '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9')],
  },
  { id: BITCOIN_CHAIN_ID, name: 'Bitcoin', kind: 'bitcoin', tokens: [{ symbol: 'BTC', address: BTC_TOKEN_ADDRESS, decimals: 8, stable: false }] },
];

const BY_ID: ReadonlyMap<number, FundingChain> = new Map(FUNDING_CHAINS.map((chain) => [chain.id, chain]));

export const FUNDING_CHAIN_IDS: readonly number[] = FUNDING_CHAINS.map((chain) => chain.id);

export function fundingChain(id: number): FundingChain | null {
  return BY_ID.get(id) ?? null;
}

/** The catalog token at `address` on `chainId` (EVM addresses in any case), or null. */
export function fundingToken(chainId: number, address: string): FundingToken | null {
  const chain = fundingChain(chainId);
  if (!chain) return null;
  return chain.tokens.find((token) => (chain.kind === 'evm' ? token.address.toLowerCase() === address.toLowerCase() : token.address === address)) ?? null;
}
