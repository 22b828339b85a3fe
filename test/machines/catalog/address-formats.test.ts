import test from 'ava';
import { base58 } from '@scure/base';
import { ADDRESS_FORMATS, isEvmAddress, isSolanaAddress } from '../../../machines/catalog/index.js';

const SOLANA_WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

test('a Solana address is base58 that spells exactly 32 bytes', (t) => {
  for (const address of [SOLANA_WALLET, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', '11111111111111111111111111111111']) {
    t.true(isSolanaAddress(address), address);
  }
  const refused = [
    base58.encode(new Uint8Array(31).fill(200)), // 43 characters of the alphabet, but 31 bytes
    base58.encode(new Uint8Array(33).fill(1)),
    SOLANA_WALLET.replace('7', '0'), // 0 is not a base58 digit
    SOLANA_WALLET.replace('x', 'l'), // nor is l
    SOLANA_WALLET.slice(0, 31),
    '0x1111111111111111111111111111111111111111',
    '',
  ];
  for (const address of refused) t.false(isSolanaAddress(address), address);
});

test('an EVM address is 0x and 40 hex digits, in any letter case', (t) => {
  t.true(isEvmAddress('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'));
  t.true(isEvmAddress('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'));
  for (const address of ['0x12', '833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', `0x${'g'.repeat(40)}`, SOLANA_WALLET]) t.false(isEvmAddress(address), address);
});

test('EVM addresses are the same in any letter case; Solana addresses only as written', (t) => {
  t.true(ADDRESS_FORMATS.evm.same('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', '0x833589FCD6EDB6E08F4C7C32D4F71B54BDA02913'));
  t.true(ADDRESS_FORMATS.solana.same(SOLANA_WALLET, SOLANA_WALLET));
  t.false(ADDRESS_FORMATS.solana.same(SOLANA_WALLET, SOLANA_WALLET.toLowerCase()));
});
