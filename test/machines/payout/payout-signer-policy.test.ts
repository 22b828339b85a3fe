/**
 * The payout-only policy (machines/payout/payout-signer-policy.ts) as a table: every call a
 * payout listing, relist, withdrawal or send makes passes; everything else is refused with its
 * code, and a batch is refused at its first bad call. Then the batch's domain and the delegation.
 */
import test from 'ava';
import { encodeFunctionData, parseAbi, zeroAddress, type Hex } from 'viem';
import { batchTypedData, depositAssertionsFunctionsAbi, escrowFunctionsAbi, usdcFunctionsAbi, type BatchCall } from '../../../machines/index.js';
import {
  batchRefusal,
  delegationRefusal,
  PAYOUT_SIGNER_TRANSFER_CAP,
  policyRefusal,
  type CallRefusalCode,
  type PayoutSignerTargets,
} from '../../../machines/payout/index.js';

const targets: PayoutSignerTargets = {
  chainId: 8453,
  usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  escrow: '0x2222222222222222222222222222222222222222',
  depositAssertions: '0x3333333333333333333333333333333333333333',
  batchExecutor: '0x4444444444444444444444444444444444444444',
};
const WALLET: Hex = '0x5555555555555555555555555555555555555555';
const RECIPIENT: Hex = '0x6666666666666666666666666666666666666666';
const OTHER_TOKEN: Hex = '0x7777777777777777777777777777777777777777';
const VENMO = `0x${'a1'.repeat(32)}` as Hex;
const PAYEE = `0x${'b2'.repeat(32)}` as Hex;
const USD = `0x${'c3'.repeat(32)}` as Hex;
const range = { min: 1_000_000n, max: 10_000_000n };

const usdc = (functionName: string, args: readonly unknown[], value = 0n): BatchCall => ({
  target: targets.usdc,
  value,
  data: encodeFunctionData({ abi: usdcFunctionsAbi, functionName, args } as never),
});
const escrow = (functionName: string, args: readonly unknown[]): BatchCall => ({
  target: targets.escrow,
  value: 0n,
  data: encodeFunctionData({ abi: escrowFunctionsAbi, functionName, args } as never),
});
const assertion = (functionName: string, args: readonly unknown[]): BatchCall => ({
  target: targets.depositAssertions,
  value: 0n,
  data: encodeFunctionData({ abi: depositAssertionsFunctionsAbi, functionName, args } as never),
});
const createDeposit = (token: Hex, delegate: Hex = zeroAddress, guardian: Hex = zeroAddress) =>
  escrow('createDeposit', [token, 10_000_000n, range, delegate, guardian]);
/** A USDC function the ABI the policy reads does not have: its selector is unknown there. */
const increaseAllowance: BatchCall = {
  target: targets.usdc,
  value: 0n,
  data: encodeFunctionData({ abi: parseAbi(['function increaseAllowance(address spender, uint256 added)']), args: [targets.escrow, 1n] }),
};

const ALLOWED: Array<[string, BatchCall]> = [
  ['USDC approve of the escrow, any amount', usdc('approve', [targets.escrow, 2n ** 256n - 1n])],
  ['USDC approve of the escrow, in another letter case', usdc('approve', [targets.escrow.toLowerCase(), 10_000_000n])],
  ['USDC transfer of exactly 1,000 USDC', usdc('transfer', [RECIPIENT, PAYOUT_SIGNER_TRANSFER_CAP])],
  ['USDC transfer of 1 base unit', usdc('transfer', [RECIPIENT, 1n])],
  ['createDeposit of USDC, no delegate or guardian', createDeposit(targets.usdc)],
  ['addFunds', escrow('addFunds', [7n, 5_000_000n])],
  ['withdrawDeposit', escrow('withdrawDeposit', [7n])],
  ['setPaymentMethod', escrow('setPaymentMethod', [7n, VENMO, PAYEE])],
  ['setCurrencyMinRate', escrow('setCurrencyMinRate', [7n, VENMO, USD, 10n ** 18n])],
  ['setIntentAmountRange', escrow('setIntentAmountRange', [7n, range])],
  ['setPrivate (the merchant group)', escrow('setPrivate', [7n, true])],
  ['assertNextDepositId', assertion('assertNextDepositId', [targets.escrow, 7n])],
  ['assertDepositor', assertion('assertDepositor', [targets.escrow, 7n, WALLET])],
];

for (const [name, call] of ALLOWED) {
  test(`allowed: ${name}`, (t) => {
    t.is(policyRefusal([call], targets), null);
  });
}

const withTrailingByte = (call: BatchCall): BatchCall => ({ ...call, data: `${call.data}00` });
const truncated = (call: BatchCall): BatchCall => ({ ...call, data: call.data.slice(0, -2) as Hex });

const REFUSED: Array<[string, BatchCall, CallRefusalCode]> = [
  ['USDC transfer of 1,000.000001 USDC', usdc('transfer', [RECIPIENT, PAYOUT_SIGNER_TRANSFER_CAP + 1n]), 'TRANSFER_ABOVE_CAP'],
  ['USDC approve of another spender', usdc('approve', [RECIPIENT, 1n]), 'ARGUMENT_NOT_ALLOWED'],
  ['USDC transfer to the escrow', usdc('transfer', [targets.escrow, 1n]), 'ARGUMENT_NOT_ALLOWED'],
  ['USDC transfer to the USDC contract', usdc('transfer', [targets.usdc, 1n]), 'ARGUMENT_NOT_ALLOWED'],
  ['USDC transfer to the zero address', usdc('transfer', [zeroAddress, 1n]), 'ARGUMENT_NOT_ALLOWED'],
  ['USDC transfer to the deposit assertions contract', usdc('transfer', [targets.depositAssertions, 1n]), 'ARGUMENT_NOT_ALLOWED'],
  ['USDC transfer to the batch executor', usdc('transfer', [targets.batchExecutor, 1n]), 'ARGUMENT_NOT_ALLOWED'],
  ['USDC transferFrom', usdc('transferFrom', [WALLET, RECIPIENT, 1n]), 'FUNCTION_NOT_ALLOWED'],
  ['USDC increaseAllowance (a selector the ABI does not know)', increaseAllowance, 'FUNCTION_NOT_ALLOWED'],
  ['a call with no selector at all', { target: targets.usdc, value: 0n, data: '0x' }, 'FUNCTION_NOT_ALLOWED'],
  ['a call to another contract', { ...usdc('transfer', [RECIPIENT, 1n]), target: OTHER_TOKEN }, 'TARGET_NOT_ALLOWED'],
  ['a call to the wallet itself', { ...usdc('transfer', [RECIPIENT, 1n]), target: WALLET }, 'TARGET_NOT_ALLOWED'],
  ['an allowed call carrying ether', usdc('transfer', [RECIPIENT, 1n], 1n), 'VALUE_NOT_ALLOWED'],
  ['a plain ether send to the escrow', { target: targets.escrow, value: 10n ** 18n, data: '0x' }, 'VALUE_NOT_ALLOWED'],
  ['createDeposit of another token', createDeposit(OTHER_TOKEN), 'ARGUMENT_NOT_ALLOWED'],
  ['createDeposit with a delegate', createDeposit(targets.usdc, RECIPIENT), 'ARGUMENT_NOT_ALLOWED'],
  ['createDeposit with an intent guardian', createDeposit(targets.usdc, zeroAddress, RECIPIENT), 'ARGUMENT_NOT_ALLOWED'],
  ['setRateManager', escrow('setRateManager', [7n, RECIPIENT]), 'FUNCTION_NOT_ALLOWED'],
  ['setRateBounds', escrow('setRateBounds', [7n, VENMO, USD, range]), 'FUNCTION_NOT_ALLOWED'],
  ['setDisputeProtectionEnabled', escrow('setDisputeProtectionEnabled', [7n, true]), 'FUNCTION_NOT_ALLOWED'],
  ['setSellerAutomatedRelease', escrow('setSellerAutomatedRelease', [7n, true]), 'FUNCTION_NOT_ALLOWED'],
  ['updateMinConversionRate', escrow('updateMinConversionRate', [7n, VENMO, USD, 1n]), 'FUNCTION_NOT_ALLOWED'],
  ['an escrow function called on USDC', { ...escrow('withdrawDeposit', [7n]), target: targets.usdc }, 'FUNCTION_NOT_ALLOWED'],
  ['a transfer with a byte after its arguments', withTrailingByte(usdc('transfer', [RECIPIENT, 1n])), 'CALLDATA_INVALID'],
  ['a transfer cut short', truncated(usdc('transfer', [RECIPIENT, 1n])), 'CALLDATA_INVALID'],
];

for (const [name, call, code] of REFUSED) {
  test(`refused: ${name} (${code})`, (t) => {
    const refusal = policyRefusal([call], targets);
    t.like(refusal, { index: 0, code });
    t.true((refusal?.reason.length ?? 0) > 0);
  });
}

test('a batch is refused at its first bad call among good ones, which it names by index', (t) => {
  const good = ALLOWED.map(([, call]) => call);
  const bad = usdc('transfer', [RECIPIENT, PAYOUT_SIGNER_TRANSFER_CAP + 1n]);
  t.is(policyRefusal(good, targets), null, 'every allowed call together');
  t.like(policyRefusal([...good.slice(0, 3), bad, ...good.slice(3), usdc('transferFrom', [WALLET, RECIPIENT, 1n])], targets), {
    index: 3,
    code: 'TRANSFER_ABOVE_CAP',
  });
  t.is(policyRefusal([], targets), null, 'an empty batch moves nothing');
});

test('a batch is signed only under the executor’s domain for the wallet itself, on the policy’s chain', (t) => {
  const calls = [usdc('approve', [targets.escrow, 1n]), createDeposit(targets.usdc)];
  const typed = batchTypedData(WALLET, targets.chainId, calls, 1n, 2n);
  t.is(batchRefusal(typed, WALLET, targets), null);
  t.like(batchRefusal({ ...typed, message: { ...typed.message, calls: [...calls, usdc('transfer', [targets.escrow, 1n])] } }, WALLET, targets), {
    index: 2,
    code: 'ARGUMENT_NOT_ALLOWED',
  });
  const others = [
    ['another chain', batchTypedData(WALLET, 1, calls, 1n, 2n)],
    ['another account', batchTypedData(RECIPIENT, targets.chainId, calls, 1n, 2n)],
    ['another domain name', { ...typed, domain: { ...typed.domain, name: 'USD Coin' } }],
    ['another domain version', { ...typed, domain: { ...typed.domain, version: '2' } }],
    ['another primary type', { ...typed, primaryType: 'Call' as 'Batch' }],
    ['other types', { ...typed, types: { ...typed.types, Batch: typed.types.Batch.slice(0, 2) } as unknown as typeof typed.types }],
  ] as const;
  for (const [what, other] of others) t.like(batchRefusal(other, WALLET, targets), { index: null, code: 'DOMAIN_NOT_ALLOWED' }, what);
});

test('the wallet delegates only to the batch executor on the policy’s chain', (t) => {
  t.is(delegationRefusal({ contractAddress: targets.batchExecutor, chainId: targets.chainId }, targets), null);
  t.is(delegationRefusal({ contractAddress: targets.batchExecutor.toLowerCase() as Hex, chainId: targets.chainId }, targets), null);
  t.like(delegationRefusal({ contractAddress: OTHER_TOKEN, chainId: targets.chainId }, targets), { index: null, code: 'DELEGATION_NOT_ALLOWED' });
  t.like(delegationRefusal({ contractAddress: targets.batchExecutor, chainId: 0 }, targets), { code: 'DELEGATION_NOT_ALLOWED' }, 'chain 0: every chain');
  t.like(delegationRefusal({ contractAddress: targets.batchExecutor, chainId: 1 }, targets), { code: 'DELEGATION_NOT_ALLOWED' });
});
