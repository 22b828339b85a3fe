/**
 * A crypto payout in words, without the page's DOM: what arrives in which token on which
 * network, and a destination the customer typed, named by the catalog while it is priced.
 */
import { DESTINATION_NETWORKS } from '../../../machines/payout/destination-catalog.js';
import type { CryptoDestinationView, DestinationBody } from './cashout-api.js';
import { networkName } from './cashout-steps.js';
import { formatAmount } from './format-amount.js';

/** "about 99.90 USDT on Arbitrum" through the provider (its quote binds nothing); exact, "100.00 USDC on Base", when sent straight. */
export function deliveredWords(amount: string, destination: CryptoDestinationView, exact: boolean): string {
  return `${exact ? '' : 'about '}${formatAmount(amount, destination.symbol)} on ${networkName(destination.chainId)}`;
}

/** The destination a body names, as the catalog knows it (the address as typed); null when the catalog has no such network or token. */
export function destinationOfBody(body: DestinationBody): CryptoDestinationView | null {
  const network = DESTINATION_NETWORKS.find((candidate) => candidate.rail === body.rail);
  const token = network?.tokens.find((candidate) => candidate.address === body.tokenAddress);
  return network && token
    ? { chainId: network.chainId, tokenAddress: token.address, symbol: token.symbol, decimals: token.decimals, address: body.address }
    : null;
}
