import test from 'ava';
import { getAddress } from 'viem';
import { ADDRESS_FORMATS, BASE_CHAIN_ID, CHAINS, SOLANA_CHAIN_ID, chainById, findToken } from '../../../machines/catalog/index.js';
import { DESTINATION_NETWORKS } from '../../../machines/payout/destination-catalog.js';

test('the catalog: Base by default, Solana as 792703809, every chain with USDC in six decimals', (t) => {
  t.deepEqual(
    CHAINS.map((chain) => `${chain.id} ${chain.name} ${chain.kind}`),
    ['8453 Base evm', '1 Ethereum evm', '10 Optimism evm', '137 Polygon evm', '42161 Arbitrum evm', '792703809 Solana solana'],
  );
  t.is(chainById(BASE_CHAIN_ID)?.name, 'Base');
  t.is(chainById(SOLANA_CHAIN_ID)?.kind, 'solana');
  t.is(chainById('999'), null);
  for (const chain of CHAINS) {
    const usdc = chain.tokens.find((token) => token.symbol === 'USDC');
    t.is(usdc?.decimals, 6, chain.name);
  }
});

test('every token address is written in its chain’s format: EVM ones checksummed, Solana mints base58', (t) => {
  for (const chain of CHAINS) {
    for (const token of chain.tokens) {
      t.true(ADDRESS_FORMATS[chain.kind].matches(token.address), `${chain.name} ${token.symbol}`);
      if (chain.kind === 'evm') t.is<string, string>(getAddress(token.address), token.address, `${chain.name} ${token.symbol}`);
    }
  }
});

test('a token is found by symbol in any case, or by its address on that chain only', (t) => {
  const base = chainById('8453')!;
  const solana = chainById(SOLANA_CHAIN_ID)!;
  t.is(findToken(base, 'usdc')?.address, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
  t.is(findToken(base, '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913')?.symbol, 'USDC');
  t.is(findToken(base, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'), null, 'Ethereum’s USDC is not a token on Base');
  t.is(findToken(base, '0x4200000000000000000000000000000000000006'), null, 'an ERC-20 outside the catalog');
  t.is(findToken(base, 'DOGE'), null);
  t.is(findToken(solana, 'USDC')?.address, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
  t.is(findToken(solana, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')?.symbol, 'USDC');
  t.is(findToken(solana, 'epjfwdd5aufqssqem2qn1xzybapc8g4wewggkzwytdt1v'), null, 'a mint in other letter case is another mint');
});

test('Base is settled on; every other chain is bridged, and each of its tokens is one the conversion provider routes to from Base', (t) => {
  t.deepEqual(
    CHAINS.filter((chain) => chain.delivery === 'SETTLEMENT').map((chain) => chain.id),
    [BASE_CHAIN_ID],
  );
  for (const chain of CHAINS.filter((entry) => entry.delivery === 'BRIDGE')) {
    const network = DESTINATION_NETWORKS.find((entry) => String(entry.chainId) === chain.id);
    t.truthy(network, chain.name);
    for (const token of chain.tokens) {
      const routed = network?.tokens.find((candidate) => candidate.address.toLowerCase() === token.address.toLowerCase());
      t.like(routed, { symbol: token.symbol, decimals: token.decimals }, `${chain.name} ${token.symbol}`);
    }
  }
});
