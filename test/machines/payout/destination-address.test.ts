/**
 * A customer's payout address on each kind of network, from published addresses: EIP-55's
 * vectors, BIP 173 and 350's, Bitcoin's and Tron's well-known addresses, Solana's docs, and
 * Zcash's own (zcashd's founders' reward list and RPC tests, zebra's unified address vector).
 * Each row is one address: its canonical and settlement forms, or why it is refused. The
 * zero forms were encoded from all-zero bytes with @scure/base.
 */
import test from 'ava';
import { addressRefusal, destinationAddress } from '../../../machines/payout/index.js';
import { isBitcoinAddress } from '../../../machines/payout/bitcoin-address.js';

const EVM = 'routea_8453';
const BITCOIN = 'routea_8253038';
const SOLANA = 'routea_792703809';
const TRON = 'routea_728126428';
const ZCASH = 'routeb_133701';

/** EIP-55's test vectors. */
const EIP55 = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
] as const;
/** The Solana docs' example account (getAccountInfo). */
const SOLANA_WALLET = 'vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg';
/** WINK's TRC-20 contract: a Tron address, not in the catalog. */
const TRON_ACCOUNT = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
/** Satoshi-era P2PKH and BIP 13's P2SH example, Bitcoin wiki's. */
const BTC_P2PKH = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const BTC_P2SH = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
/** zcashd's mainnet founders' reward address 0 (t3, P2SH) and LI.FI's Zcash docs' t1 example. */
const ZEC_T3 = 't3hmg6WApjqVFw9oPWTDy4JLEqXcUWthg5v';
const ZEC_T1 = 't1cSswzBCTiKZ9XwEUCurkfGSQFGunU5CDM';

type Expected = { address: string; sentTo: string } | 'INVALID' | 'ZERO';
interface Row {
  rail: string;
  raw: string;
  expected: Expected;
  why: string;
}

const same = (address: string): Expected => ({ address, sentTo: address });

const ROWS: readonly Row[] = [
  // EVM: EIP-55 or one case throughout; sentTo lower-case.
  ...EIP55.map((address) => ({ rail: EVM, raw: address, expected: { address, sentTo: address.toLowerCase() }, why: 'an EIP-55 vector' })),
  { rail: EVM, raw: EIP55[0].toLowerCase(), expected: { address: EIP55[0], sentTo: EIP55[0].toLowerCase() }, why: 'all lower-case: checksummed out' },
  {
    rail: EVM,
    raw: `0x${EIP55[1].slice(2).toUpperCase()}`,
    expected: { address: EIP55[1], sentTo: EIP55[1].toLowerCase() },
    why: 'all upper-case hex: checksummed out',
  },
  { rail: 'routea_1', raw: EIP55[2], expected: { address: EIP55[2], sentTo: EIP55[2].toLowerCase() }, why: 'the same on every EVM rail' },
  { rail: EVM, raw: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', expected: 'INVALID', why: 'mixed case with one letter’s case wrong: a failed checksum' },
  { rail: EVM, raw: '0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', expected: 'INVALID', why: 'mixed case, first letter’s case wrong' },
  { rail: EVM, raw: '0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED', expected: 'INVALID', why: 'an upper-case 0X prefix' },
  { rail: EVM, raw: EIP55[0].slice(2), expected: 'INVALID', why: 'no 0x' },
  { rail: EVM, raw: EIP55[0].slice(0, -1), expected: 'INVALID', why: '39 hex digits' },
  { rail: EVM, raw: `${EIP55[0].toLowerCase()}0`, expected: 'INVALID', why: '41 hex digits' },
  { rail: EVM, raw: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg', expected: 'INVALID', why: 'a letter that is not hex' },
  { rail: EVM, raw: '0x5aaeb6053f3e94c9b9a0 9f33669435e7ef1beaed', expected: 'INVALID', why: 'a space inside' },
  { rail: EVM, raw: '0x0000000000000000000000000000000000000000', expected: 'ZERO', why: 'the zero address' },
  { rail: EVM, raw: TRON_ACCOUNT, expected: 'INVALID', why: 'a Tron address on an EVM rail' },
  { rail: EVM, raw: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c', expected: 'INVALID', why: 'a Tron address in hex' },
  { rail: EVM, raw: SOLANA_WALLET, expected: 'INVALID', why: 'a Solana address on an EVM rail' },

  // Bitcoin: mainnet bech32 (v0) and bech32m (v1+), lower-cased; legacy as entered.
  {
    rail: BITCOIN,
    raw: 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
    expected: same('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'),
    why: 'BIP 173 P2WPKH, upper-case',
  },
  {
    rail: BITCOIN,
    raw: 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
    expected: same('bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3'),
    why: 'BIP 173 P2WSH',
  },
  {
    rail: BITCOIN,
    raw: 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    expected: same('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'),
    why: 'BIP 350 taproot',
  },
  { rail: BITCOIN, raw: 'BC1SW50QGDZ25J', expected: same('bc1sw50qgdz25j'), why: 'BIP 350 version 16, two bytes' },
  { rail: BITCOIN, raw: 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', expected: same('bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs'), why: 'BIP 350 version 2' },
  { rail: BITCOIN, raw: BTC_P2PKH, expected: same(BTC_P2PKH), why: 'legacy P2PKH, as entered' },
  { rail: BITCOIN, raw: BTC_P2SH, expected: same(BTC_P2SH), why: 'legacy P2SH, as entered' },
  {
    rail: BITCOIN,
    raw: 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx',
    expected: 'INVALID',
    why: 'BIP 173’s version 1 vector: bech32, which BIP 350 retired for v1',
  },
  { rail: BITCOIN, raw: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', expected: 'INVALID', why: 'BIP 350: a bad checksum' },
  { rail: BITCOIN, raw: 'BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2', expected: 'INVALID', why: 'BIP 350: witness version 17' },
  { rail: BITCOIN, raw: 'bc1QW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', expected: 'INVALID', why: 'bech32 in mixed case' },
  { rail: BITCOIN, raw: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', expected: 'INVALID', why: 'legacy with its last letter changed: checksum' },
  { rail: BITCOIN, raw: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', expected: 'INVALID', why: 'testnet bech32 (tb1)' },
  { rail: BITCOIN, raw: 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', expected: 'INVALID', why: 'testnet P2PKH (m…)' },
  { rail: BITCOIN, raw: '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', expected: 'INVALID', why: 'testnet P2SH (2…)' },
  { rail: BITCOIN, raw: 'bc1qw508d6qejxtdg4y5r3z arvary0c5xw7kv8f3t4', expected: 'INVALID', why: 'a space inside' },
  { rail: BITCOIN, raw: 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq9e75rs', expected: 'ZERO', why: 'P2WPKH of twenty zero bytes' },
  { rail: BITCOIN, raw: '1111111111111111111114oLvT2', expected: 'ZERO', why: 'P2PKH of the zero hash' },
  { rail: BITCOIN, raw: '31h1vYVSYuKP6AhS86fbRdMw9XHieotbST', expected: 'ZERO', why: 'P2SH of the zero hash' },
  {
    rail: BITCOIN,
    raw: 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8',
    expected: 'INVALID',
    why: 'the provider’s BTC token id is no address: its checksum fails',
  },

  // Solana: base58 of 32 bytes, as entered.
  { rail: SOLANA, raw: SOLANA_WALLET, expected: same(SOLANA_WALLET), why: 'a 43-letter account' },
  {
    rail: SOLANA,
    raw: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    expected: same('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'),
    why: 'a 44-letter key (USDC’s mint)',
  },
  { rail: SOLANA, raw: '11111111111111111111111111111111', expected: 'ZERO', why: 'the all-zero key, the system program' },
  { rail: SOLANA, raw: SOLANA_WALLET.slice(0, -1), expected: 'INVALID', why: '31 bytes' },
  { rail: SOLANA, raw: `${SOLANA_WALLET}g`, expected: 'INVALID', why: '33 bytes' },
  { rail: SOLANA, raw: `${SOLANA_WALLET.slice(0, -1)}0`, expected: 'INVALID', why: '0 is not a base58 digit' },
  { rail: SOLANA, raw: 'vines1vzrYbzLMRdu58ou5XTby4q AqVRLmqo36NKPTg', expected: 'INVALID', why: 'a space inside' },
  { rail: SOLANA, raw: EIP55[0], expected: 'INVALID', why: 'an EVM address on Solana' },
  { rail: SOLANA, raw: TRON_ACCOUNT, expected: 'INVALID', why: 'a Tron address is base58 of 25 bytes' },

  // Tron: base58check of 0x41 and 20 bytes, as entered.
  { rail: TRON, raw: TRON_ACCOUNT, expected: same(TRON_ACCOUNT), why: 'a T… address' },
  {
    rail: TRON,
    raw: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    expected: same('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
    why: 'Tether’s contract is a well-formed address (refused as TOKEN below)',
  },
  { rail: TRON, raw: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8', expected: 'INVALID', why: 'the last letter changed: checksum' },
  { rail: TRON, raw: TRON_ACCOUNT.toLowerCase(), expected: 'INVALID', why: 'base58 is case-sensitive' },
  { rail: TRON, raw: BTC_P2PKH, expected: 'INVALID', why: 'base58check of 21 bytes, but version 0x00, not 0x41' },
  { rail: TRON, raw: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c', expected: 'INVALID', why: 'the hex form is not what a customer enters' },
  { rail: TRON, raw: EIP55[0], expected: 'INVALID', why: 'an EVM address on Tron' },
  { rail: TRON, raw: 'TLa2f6VPqDgRE67v1736s7b J8Ray5wYjU7', expected: 'INVALID', why: 'a space inside' },
  { rail: TRON, raw: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', expected: 'ZERO', why: 'the all-zero account' },

  // Zcash: transparent t1 and t3 on mainnet only, as entered.
  { rail: ZCASH, raw: ZEC_T1, expected: same(ZEC_T1), why: 't1 pay-to-pubkey-hash' },
  { rail: ZCASH, raw: ZEC_T3, expected: same(ZEC_T3), why: 't3 pay-to-script-hash' },
  { rail: ZCASH, raw: 't1cSswzBCTiKZ9XwEUCurkfGSQFGunU5CDN', expected: 'INVALID', why: 'the last letter changed: checksum' },
  { rail: ZCASH, raw: 't1M72Sfpbz1BPpXFHz9m3CdqATR44Jvaydd', expected: 'INVALID', why: 'zcash-cli sendtoaddress help’s example, whose checksum does not hold' },
  { rail: ZCASH, raw: 'tmRn9qwKzgWYLwxpeydTET4gpZYyR3WXA5C', expected: 'INVALID', why: 'a testnet tm… address' },
  {
    rail: ZCASH,
    raw: 'zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9slya',
    expected: 'INVALID',
    why: 'a shielded Sapling address (zcashd’s RPC tests)',
  },
  {
    rail: ZCASH,
    raw: 'u1l8xunezsvhq8fgzfl7404m450nwnd76zshscn6nfys7vyz2ywyh4cc5daaq0c7q2su5lqfh23sp7fkf3kt27ve5948mzpfdvckzaect2jtte308mkwlycj2u0eac077wu70vqcetkxf',
    expected: 'INVALID',
    why: 'a unified address (zebra’s test vector)',
  },
  { rail: ZCASH, raw: BTC_P2SH, expected: 'INVALID', why: 'a Bitcoin address: one version byte, not two' },
  { rail: ZCASH, raw: 't1cSswzBCTiKZ9XwEUCu rkfGSQFGunU5CDM', expected: 'INVALID', why: 'a space inside' },
  { rail: ZCASH, raw: 't1Hsc1LR8yKnbbe3twRp88p6vFfC5t7DLbs', expected: 'ZERO', why: 't1 of the zero hash' },
  { rail: ZCASH, raw: 't3JZcvsuaXE6ygokL4XUiZSTrQBUoPYFnXJ', expected: 'ZERO', why: 't3 of the zero hash' },

  // A rail that names no network takes no address.
  { rail: 'venmo', raw: EIP55[0], expected: 'INVALID', why: 'a fiat rail' },
  { rail: 'routea_43114', raw: EIP55[0], expected: 'INVALID', why: 'a chain that is no payout rail' },
];

for (const { rail, raw, expected, why } of ROWS) {
  const shown = typeof expected === 'string' ? expected : `${expected.address} / ${expected.sentTo}`;
  test(`${rail} ${raw}: ${shown} (${why})`, (t) => {
    t.deepEqual(destinationAddress(rail, raw), typeof expected === 'string' ? { ok: false, reason: expected } : { ok: true, ...expected });
  });
}

test('on the Bitcoin rail, destinationAddress accepts exactly what isBitcoinAddress (the refund check) accepts', (t) => {
  for (const { raw, expected } of ROWS.filter((row) => row.rail === BITCOIN)) t.is(isBitcoinAddress(raw), expected !== 'INVALID', raw);
});

const OWN = { ownWallet: EIP55[1], escrow: EIP55[2] };

const REFUSALS: readonly { rail: string; raw: string; reason: string | null; why: string }[] = [
  { rail: EVM, raw: EIP55[0], reason: null, why: 'another wallet' },
  { rail: EVM, raw: EIP55[1], reason: 'OWN_WALLET', why: 'the customer’s embedded wallet' },
  { rail: EVM, raw: EIP55[1].toLowerCase(), reason: 'OWN_WALLET', why: 'in any case' },
  { rail: 'routea_42161', raw: EIP55[1], reason: 'OWN_WALLET', why: 'on any EVM network' },
  { rail: EVM, raw: EIP55[2], reason: 'ESCROW', why: 'the escrow contract' },
  { rail: 'routea_1', raw: `0x${EIP55[2].slice(2).toUpperCase()}`, reason: 'ESCROW', why: 'in any case, on any EVM network' },
  { rail: EVM, raw: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', reason: 'TOKEN', why: 'USDC’s contract on Base' },
  { rail: 'routea_56', raw: '0x55d398326f99059fF775485246999027B3197955', reason: 'TOKEN', why: 'USDT’s contract on BNB Chain' },
  { rail: 'routea_137', raw: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', reason: null, why: 'Base’s USDC address is no catalog token on Polygon' },
  { rail: SOLANA, raw: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', reason: 'TOKEN', why: 'USDC’s mint on Solana' },
  { rail: SOLANA, raw: SOLANA_WALLET, reason: null, why: 'a Solana account' },
  { rail: TRON, raw: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', reason: 'TOKEN', why: 'USDT’s contract on Tron' },
  { rail: TRON, raw: TRON_ACCOUNT, reason: null, why: 'a contract the catalog does not list' },
  { rail: BITCOIN, raw: BTC_P2PKH, reason: null, why: 'a Bitcoin address' },
  { rail: ZCASH, raw: ZEC_T3, reason: null, why: 'a transparent Zcash address' },
  { rail: EVM, raw: '0x0000000000000000000000000000000000000000', reason: 'ZERO', why: 'zero before anything else' },
  { rail: SOLANA, raw: '11111111111111111111111111111111', reason: 'ZERO', why: 'native SOL’s id is the zero key: ZERO, not TOKEN' },
  { rail: EVM, raw: 'not an address', reason: 'INVALID', why: 'no format' },
  { rail: ZCASH, raw: 'zs1z7rejlpsa98s2rrrfkwmaxu53e4ue0ulcrw0h4x5g8jl04tak0d3mm47vdtahatqrlkngh9slya', reason: 'INVALID', why: 'shielded' },
];

for (const { rail, raw, reason, why } of REFUSALS) {
  test(`addressRefusal(${rail}, ${raw}) is ${reason ?? 'null'}: ${why}`, (t) => {
    t.deepEqual(addressRefusal(rail, raw, OWN), reason === null ? null : { reason });
  });
}

test('the own wallet and the escrow are EVM addresses: on a non-EVM rail they refuse nothing', (t) => {
  t.is(addressRefusal(SOLANA, SOLANA_WALLET, { ownWallet: SOLANA_WALLET, escrow: SOLANA_WALLET }), null);
  t.is(addressRefusal(TRON, TRON_ACCOUNT, { ownWallet: TRON_ACCOUNT, escrow: TRON_ACCOUNT }), null);
});
