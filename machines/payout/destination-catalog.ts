/**
 * Where a payout customer can be paid in crypto (document 2, "Rails and destinations"): one
 * network per crypto rail, its address kind, and the tokens of PAY_CRYPTO_TOKEN_SYMBOLS a
 * customer can receive there. A payout-quote or send-to-address names a rail and a token
 * address; a token not listed for that network is CASHOUT_PAYOUT_DESTINATION_UNSUPPORTED.
 *
 * Which token is on which network follows Peer's own crypto catalog (`CHAIN_TOKEN_CONFIGS`
 * in @zkp2p/pay-shared 1.0.0, dist/crypto.js, a devDependency; "pay-shared" below), checked
 * against the issuer's published address where there is one; each entry names where it was
 * checked. Addresses also in the funding catalog are the same there (the catalog's test holds
 * it). World Chain, HyperEVM and chain 5042 list what the funding catalog lists for them.
 */
import { BASE_USDC_ADDRESS, BTC_TOKEN_ADDRESS, NATIVE_TOKEN_ADDRESS } from './funding-catalog.js';
import type { PayoutCryptoRail } from './payout-rails.js';

/** How the network writes an address (destination-address.ts). */
export type DestinationKind = 'evm' | 'bitcoin' | 'solana' | 'tron' | 'zcash';

export const PAY_CRYPTO_TOKEN_SYMBOLS = ['BTC', 'USDC', 'USDT', 'ETH', 'PYUSD', 'SOL', 'BNB', 'HYPE', 'WBTC', 'USDH', 'ZEC'] as const;
export type PayCryptoTokenSymbol = (typeof PAY_CRYPTO_TOKEN_SYMBOLS)[number];

export interface DestinationToken {
  symbol: PayCryptoTokenSymbol;
  /** EIP-55 on EVM networks (the all-zero address for the native token); the SPL mint on Solana; the TRC-20 contract in base58 on Tron; the provider's identifier for BTC and ZEC. */
  address: string;
  decimals: number;
}

export interface DestinationNetwork {
  rail: PayoutCryptoRail;
  /** The number in the rail: `routea_42161` is 42161, `routeb_133701` (Zcash) 133701. */
  chainId: number;
  name: string;
  kind: DestinationKind;
  tokens: readonly DestinationToken[];
}

const token = (symbol: PayCryptoTokenSymbol, address: string, decimals: number): DestinationToken => ({ symbol, address, decimals });
const native = (symbol: PayCryptoTokenSymbol): DestinationToken => token(symbol, NATIVE_TOKEN_ADDRESS, 18);
const network = (rail: PayoutCryptoRail, name: string, kind: DestinationKind, tokens: readonly DestinationToken[]): DestinationNetwork => ({
  rail,
  chainId: Number(rail.slice(rail.indexOf('_') + 1)),
  name,
  kind,
  tokens,
});

export const DESTINATION_NETWORKS: readonly DestinationNetwork[] = [
  network('routea_1', 'Ethereum', 'evm', [
    native('ETH'),
    // Circle's USDC: developers.circle.com/stablecoins/usdc-contract-addresses, as machines/catalog/chains.ts.
    token('USDC', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 6),
    // Tether's own: the ERC-20 its list of supported protocols names (6 decimals).
    token('USDT', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 6),
    // Paxos, github.com/paxosglobal/pyusd-contract README (the proxy; decimals() is 6 in PYUSD.sol).
    token('PYUSD', '0x6c3ea9036406852006290770BEdFcAbA0e23A0e8', 6),
    // BitGo's WBTC: pay-shared, and ZeroDev's smart-routing supported-chains list.
    token('WBTC', '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', 8),
  ]),
  network('routea_10', 'Optimism', 'evm', [
    native('ETH'),
    token('USDC', '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', 6), // Circle
    token('USDT', '0x94b008aA00579c1307B0EF2c499aD98a8ce58e58', 6), // pay-shared; ZeroDev's supported-chains list
  ]),
  network('routea_56', 'BNB Chain', 'evm', [
    native('BNB'),
    // Binance-Peg tokens, 18 decimals on this chain (pay-shared; the funding catalog agrees).
    token('USDC', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 18),
    token('USDT', '0x55d398326f99059fF775485246999027B3197955', 18),
    // WBTC's LayerZero OFT, one address on every chain it is bridged to (pay-shared; BOB gateway's WBTC_OFT_ADDRESS).
    token('WBTC', '0x0555E30da8f98308EdB960aa94C0Db47230d2B9c', 8),
  ]),
  // POL, Polygon's native token, is not one of the symbols: Polygon has no native entry.
  network('routea_137', 'Polygon', 'evm', [
    token('USDC', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 6), // Circle
    token('USDT', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', 6), // pay-shared; the funding catalog agrees
    token('WBTC', '0x1BFD67037B42Cf73acF2047067bd4F2C47D9BfD6', 8), // pay-shared; virgoproject's Polygon token list
  ]),
  network('routea_480', 'World Chain', 'evm', [native('ETH'), token('USDC', '0x79A02482A880bCE3F13e09Da970dC34db4CD24d1', 6)]),
  network('routea_999', 'HyperEVM', 'evm', [native('HYPE')]),
  network('routea_5042', 'Chain 5042', 'evm', [native('ETH')]),
  network('routea_8453', 'Base', 'evm', [
    native('ETH'),
    token('USDC', BASE_USDC_ADDRESS, 6), // Circle
    // Bridged: Tether issues no USDT on Base; the bridged token Relay routes to (pay-shared; ZeroDev's list).
    token('USDT', '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2', 6),
    // SOL bridged to Base (a CrossChainERC20), nine decimals like SOL itself: pay-shared.
    token('SOL', '0x311935Cd80B76769bF2ecC9D8Ab7635b2139cf82', 9),
    token('WBTC', '0x0555E30da8f98308EdB960aa94C0Db47230d2B9c', 8), // WBTC's OFT, as on BNB Chain
  ]),
  network('routea_42161', 'Arbitrum', 'evm', [
    native('ETH'),
    token('USDC', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', 6), // Circle
    token('USDT', '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', 6), // pay-shared; the funding catalog agrees
    token('WBTC', '0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f', 8), // pay-shared; ZeroDev's list
  ]),
  network('routea_8253038', 'Bitcoin', 'bitcoin', [token('BTC', BTC_TOKEN_ADDRESS, 8)]),
  // Circle no longer issues USDC on Tron, and TRX is not one of the symbols: USDT alone.
  network('routea_728126428', 'Tron', 'tron', [token('USDT', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 6)]), // Tether's TRC-20; pay-shared
  network('routea_792703809', 'Solana', 'solana', [
    // Native SOL is the system program's id, as Relay and Peer's toToken list name it (zkp2p/docs).
    token('SOL', '11111111111111111111111111111111', 9),
    token('USDC', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 6), // Circle
    token('USDT', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', 6), // Tether's SPL mint
    token('PYUSD', '2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo', 6), // pay-shared
  ]),
  // The provider's id for native ZEC: NEAR Intents' asset id (its 1Click token list, GET /v0/tokens); eight decimals, zatoshis.
  network('routeb_133701', 'Zcash', 'zcash', [token('ZEC', 'nep141:zec.omft.near', 8)]),
];

const BASE_RAIL: PayoutCryptoRail = 'routea_8453';
const BY_RAIL: ReadonlyMap<string, DestinationNetwork> = new Map(DESTINATION_NETWORKS.map((entry) => [entry.rail, entry]));

/** Hex carries no meaning in letter case; every other kind's spelling is exact (base58 `a` and `A` are different digits). */
export function sameAddress(kind: DestinationKind, a: string, b: string): boolean {
  return kind === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

export function destinationNetwork(rail: string): DestinationNetwork | null {
  return BY_RAIL.get(rail) ?? null;
}

/** The tokens a customer can receive on `rail`; none on a rail that is not a crypto rail. */
export function destinationTokens(rail: string): readonly DestinationToken[] {
  return destinationNetwork(rail)?.tokens ?? [];
}

/** The catalog token at `tokenAddress` on `rail`'s network, or null: the request's token must be one of them. */
export function destinationToken(rail: string, tokenAddress: string): DestinationToken | null {
  const found = destinationNetwork(rail);
  return found?.tokens.find((entry) => sameAddress(found.kind, entry.address, tokenAddress)) ?? null;
}

/** USDC on Base is the payout's own token: sent straight from the customer's wallet, the conversion provider not called. */
export function isBaseUsdc(rail: string, tokenAddress: string): boolean {
  return rail === BASE_RAIL && sameAddress('evm', tokenAddress, BASE_USDC_ADDRESS);
}
