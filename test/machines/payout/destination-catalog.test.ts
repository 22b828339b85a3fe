/**
 * The payout destination catalog: every crypto rail has its network, every token is one of
 * document 2's symbols in its network's address form with its issuer's decimals, lookups
 * follow each kind's case rule, and USDC on Base is told apart from every other token.
 */
import { base58 } from '@scure/base';
import test from 'ava';
import { getAddress } from 'viem';
import { base58checkPayload } from '../../../machines/payout/bitcoin-address.js';
import {
  BASE_USDC_ADDRESS,
  BTC_TOKEN_ADDRESS,
  DESTINATION_NETWORKS,
  destinationNetwork,
  destinationToken,
  destinationTokens,
  FUNDING_CHAINS,
  isBaseUsdc,
  NATIVE_TOKEN_ADDRESS,
  PAY_CRYPTO_TOKEN_SYMBOLS,
  PAYOUT_CRYPTO_RAILS,
  type PayCryptoTokenSymbol,
} from '../../../machines/payout/index.js';

test('every crypto rail has one network, in PAYOUT_CRYPTO_RAILS order, whose chainId is the number in the rail', (t) => {
  t.deepEqual(
    DESTINATION_NETWORKS.map((network) => network.rail),
    [...PAYOUT_CRYPTO_RAILS],
  );
  for (const rail of PAYOUT_CRYPTO_RAILS) {
    const network = destinationNetwork(rail);
    t.truthy(network, rail);
    t.is(network?.chainId, Number(rail.split('_')[1]), rail);
    t.true((network?.tokens.length ?? 0) > 0, `${rail} has a token`);
  }
  t.is(destinationNetwork('routeb_133701')?.kind, 'zcash');
  t.is(destinationNetwork('routeb_133701')?.chainId, 133701);
});

test('the kind of each network', (t) => {
  const kinds = Object.fromEntries(DESTINATION_NETWORKS.map((network) => [network.rail, network.kind]));
  t.deepEqual(kinds, {
    routea_1: 'evm',
    routea_10: 'evm',
    routea_56: 'evm',
    routea_137: 'evm',
    routea_480: 'evm',
    routea_999: 'evm',
    routea_5042: 'evm',
    routea_8453: 'evm',
    routea_42161: 'evm',
    routea_8253038: 'bitcoin',
    routea_728126428: 'tron',
    routea_792703809: 'solana',
    routeb_133701: 'zcash',
  });
});

test('every token is one of the eleven symbols, once per network, each address once per network', (t) => {
  for (const network of DESTINATION_NETWORKS) {
    const symbols = network.tokens.map((token) => token.symbol);
    for (const symbol of symbols) t.true((PAY_CRYPTO_TOKEN_SYMBOLS as readonly string[]).includes(symbol), `${network.rail}: ${symbol}`);
    t.is(new Set(symbols).size, symbols.length, `${network.rail}: a symbol twice`);
    const addresses = network.tokens.map((token) => token.address.toLowerCase());
    t.is(new Set(addresses).size, addresses.length, `${network.rail}: an address twice`);
  }
  t.is(PAY_CRYPTO_TOKEN_SYMBOLS.length, 11);
});

test('USDH alone is on no network: HyperEVM lists only what the funding catalog lists for it', (t) => {
  const listed = new Set(DESTINATION_NETWORKS.flatMap((network) => network.tokens.map((token) => token.symbol)));
  t.deepEqual(
    PAY_CRYPTO_TOKEN_SYMBOLS.filter((symbol) => !listed.has(symbol)),
    ['USDH'],
  );
});

/** The decimals each symbol's issuer gives it; BNB Chain's Binance-Peg stablecoins are the one exception, 18. */
const DECIMALS: Record<PayCryptoTokenSymbol, number> = { BTC: 8, WBTC: 8, ZEC: 8, SOL: 9, ETH: 18, BNB: 18, HYPE: 18, USDC: 6, USDT: 6, PYUSD: 6, USDH: 6 };

test('decimals are the issuer’s: 6 for dollar tokens (18 on BNB Chain), 8 for BTC, WBTC and ZEC, 9 for SOL, 18 for native EVM tokens', (t) => {
  for (const network of DESTINATION_NETWORKS) {
    for (const token of network.tokens) {
      const expected = network.chainId === 56 && (token.symbol === 'USDC' || token.symbol === 'USDT') ? 18 : DECIMALS[token.symbol];
      t.is(token.decimals, expected, `${network.rail} ${token.symbol}`);
    }
  }
});

test('each token address is in its network’s form: EIP-55 contracts or the zero address, SPL mints, base58 TRC-20 contracts, the provider’s ids', (t) => {
  for (const network of DESTINATION_NETWORKS) {
    for (const { symbol, address, decimals } of network.tokens) {
      const where = `${network.rail} ${symbol}`;
      switch (network.kind) {
        case 'evm':
          if (address === NATIVE_TOKEN_ADDRESS) t.is(decimals, 18, where);
          else t.is<string, string>(getAddress(address as `0x${string}`), address, `${where} is EIP-55`);
          break;
        case 'solana':
          t.is(base58.decode(address).length, 32, where);
          break;
        case 'tron':
          t.deepEqual([base58checkPayload(address)?.length, base58checkPayload(address)?.[0]], [21, 0x41], `${where} is a Tron address`);
          break;
        case 'bitcoin':
          t.is(address, BTC_TOKEN_ADDRESS, where);
          break;
        case 'zcash':
          t.is(address, 'nep141:zec.omft.near', where);
          break;
      }
    }
  }
});

test('a token both catalogs list on a chain has the same address and decimals in each; World Chain, HyperEVM and 5042 list what funding lists', (t) => {
  let shared = 0;
  for (const chain of FUNDING_CHAINS) {
    const network = DESTINATION_NETWORKS.find((entry) => entry.chainId === chain.id);
    t.truthy(network, `chain ${chain.id} has a destination network`);
    for (const token of network?.tokens ?? []) {
      const funding = chain.tokens.find((entry) => entry.symbol === token.symbol);
      if (!funding) continue;
      shared += 1;
      t.deepEqual([token.address, token.decimals], [funding.address, funding.decimals], `${chain.name} ${token.symbol}`);
    }
  }
  t.is(shared, 21, 'the comparison reaches every token the two catalogs share');
  for (const id of [480, 999, 5042]) {
    const funding = FUNDING_CHAINS.find((chain) => chain.id === id)!;
    t.deepEqual(
      destinationNetwork(`routea_${id}`)?.tokens,
      funding.tokens.map(({ symbol, address, decimals }) => ({ symbol, address, decimals })),
      `chain ${id}`,
    );
    t.is(destinationNetwork(`routea_${id}`)?.name, funding.name);
  }
});

const POLYGON_USDC = '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359';
const SOLANA_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TRON_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

const LOOKUPS: readonly { rail: string; token: string; symbol: string | null; why: string }[] = [
  { rail: 'routea_8453', token: BASE_USDC_ADDRESS, symbol: 'USDC', why: 'EIP-55 as listed' },
  { rail: 'routea_8453', token: BASE_USDC_ADDRESS.toLowerCase(), symbol: 'USDC', why: 'EVM: lower-case is the same contract' },
  { rail: 'routea_8453', token: `0x${BASE_USDC_ADDRESS.slice(2).toUpperCase()}`, symbol: 'USDC', why: 'EVM: upper-case hex is the same contract' },
  { rail: 'routea_8453', token: NATIVE_TOKEN_ADDRESS, symbol: 'ETH', why: 'the zero address is the native token' },
  { rail: 'routea_56', token: NATIVE_TOKEN_ADDRESS, symbol: 'BNB', why: 'BNB Chain’s native token is BNB' },
  { rail: 'routea_999', token: NATIVE_TOKEN_ADDRESS, symbol: 'HYPE', why: 'HyperEVM’s native token is HYPE' },
  { rail: 'routea_137', token: NATIVE_TOKEN_ADDRESS, symbol: null, why: 'POL is not one of the symbols' },
  { rail: 'routea_8453', token: POLYGON_USDC, symbol: null, why: 'Polygon’s USDC is unknown on Base' },
  { rail: 'routea_137', token: POLYGON_USDC, symbol: 'USDC', why: 'and known on Polygon' },
  { rail: 'routea_42161', token: '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599', symbol: null, why: 'Ethereum’s WBTC is unknown on Arbitrum' },
  { rail: 'routea_1', token: '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599', symbol: 'WBTC', why: 'and known on Ethereum' },
  { rail: 'routea_792703809', token: SOLANA_USDC, symbol: 'USDC', why: 'the SPL mint, exactly' },
  { rail: 'routea_792703809', token: SOLANA_USDC.toLowerCase(), symbol: null, why: 'base58: a lower-cased mint is another string' },
  { rail: 'routea_792703809', token: '11111111111111111111111111111111', symbol: 'SOL', why: 'native SOL as the provider names it' },
  { rail: 'routea_792703809', token: NATIVE_TOKEN_ADDRESS, symbol: null, why: 'the EVM zero address means nothing on Solana' },
  { rail: 'routea_728126428', token: TRON_USDT, symbol: 'USDT', why: 'Tether’s TRC-20 contract' },
  { rail: 'routea_728126428', token: TRON_USDT.toLowerCase(), symbol: null, why: 'base58 compares exactly' },
  { rail: 'routea_8253038', token: BTC_TOKEN_ADDRESS, symbol: 'BTC', why: 'the provider’s BTC id' },
  { rail: 'routeb_133701', token: 'nep141:zec.omft.near', symbol: 'ZEC', why: 'the provider’s ZEC id' },
  { rail: 'routeb_133701', token: 'NEP141:ZEC.OMFT.NEAR', symbol: null, why: 'an id compares exactly' },
  { rail: 'routea_43114', token: NATIVE_TOKEN_ADDRESS, symbol: null, why: 'a chain that is no rail' },
  { rail: 'venmo', token: BASE_USDC_ADDRESS, symbol: null, why: 'a fiat rail has no network' },
];

for (const { rail, token, symbol, why } of LOOKUPS) {
  test(`destinationToken(${rail}, ${token}) is ${symbol ?? 'null'}: ${why}`, (t) => {
    t.is<string | null, string | null>(destinationToken(rail, token)?.symbol ?? null, symbol);
  });
}

test('a rail that is not a crypto rail has no network and no tokens', (t) => {
  for (const rail of ['venmo', 'crypto', 'relay_8453', 'routea_43114', 'routeb_1', '']) {
    t.is(destinationNetwork(rail), null, rail);
    t.deepEqual(destinationTokens(rail), [], rail);
  }
  t.is(destinationTokens('routea_8453'), destinationNetwork('routea_8453')!.tokens);
});

const BASE_USDC_CASES: readonly { rail: string; token: string; direct: boolean; why: string }[] = [
  { rail: 'routea_8453', token: BASE_USDC_ADDRESS, direct: true, why: 'Circle’s USDC on Base' },
  { rail: 'routea_8453', token: BASE_USDC_ADDRESS.toLowerCase(), direct: true, why: 'in any case' },
  { rail: 'routea_8453', token: NATIVE_TOKEN_ADDRESS, direct: false, why: 'ETH on Base is converted' },
  { rail: 'routea_8453', token: '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2', direct: false, why: 'USDT on Base is converted' },
  { rail: 'routea_1', token: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', direct: false, why: 'USDC on Ethereum is bridged' },
  { rail: 'routea_42161', token: BASE_USDC_ADDRESS, direct: false, why: 'Base’s address on another network is not Base USDC' },
  { rail: 'routea_792703809', token: SOLANA_USDC, direct: false, why: 'USDC on Solana is bridged' },
];

for (const { rail, token, direct, why } of BASE_USDC_CASES) {
  test(`isBaseUsdc(${rail}, ${token}) is ${direct}: ${why}`, (t) => {
    t.is(isBaseUsdc(rail, token), direct);
  });
}
