/**
 * Which catalog token a request's `destinationToken` names on a chain. A request may
 * name a token by symbol (`USDC`, any case) or by its address on that chain; any other
 * token, however valid on-chain, is not one the platform can deliver.
 */
import { ADDRESS_FORMATS } from './address-formats.js';
import type { CatalogChain, CatalogToken } from './chains.js';

export function findToken(chain: CatalogChain, named: string): CatalogToken | null {
  const format = ADDRESS_FORMATS[chain.kind];
  const symbol = named.toUpperCase();
  return chain.tokens.find((token) => token.symbol === symbol || format.same(token.address, named)) ?? null;
}

/** `USDC (0x8335…)`: the tokens of a chain as a message lists them. */
export function describeTokens(chain: CatalogChain): string {
  return chain.tokens.map((token) => `${token.symbol} (${token.address})`).join(', ');
}
