/**
 * Who sets an intent's terms, on a real anvil: the maker prices a deposit (a floor rate per
 * payment method and currency, which a rate manager may move only inside the maker's bounds),
 * and the gating service approves each intent. Serial: one chain, its nonces and its clock.
 */
import test from 'ava';
import { keccak256, parseEventLogs, parseUnits, stringToHex, zeroAddress, type Hex, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { anvilTestAccount, escrowAbi, orchestratorAbi, protocolErrorsAbi, startLocalChain, type LocalChain } from '../../../indexer/chain/index.js';
import { revertOf } from '../../support/chain-revert.js';
import { depositOn } from '../../support/local-deposit.js';
import { acceptCurrency, signalOn, type IntentTerms, type SignalOptions } from '../../support/local-intent.js';

const usdc = (amount: string): bigint => parseUnits(amount, 6);
const rate = (value: string): bigint => parseUnits(value, 18);
const VENMO = keccak256(stringToHex('venmo'));
const USD = keccak256(stringToHex('USD'));
const EUR = keccak256(stringToHex('EUR'));

const maker = anvilTestAccount(2);
const taker = anvilTestAccount(3);
const payee = anvilTestAccount(4);
const stranger = anvilTestAccount(5);
const rateManager = anvilTestAccount(7);

let chain: LocalChain;

test.before(async () => {
  chain = await startLocalChain();
});

test.after.always(async () => {
  await chain?.stop();
});

async function deposit(): Promise<bigint> {
  await chain.mintUsdc(maker.address, usdc('100'));
  const { depositId } = await depositOn(chain, maker, usdc('100'), { range: { min: usdc('1'), max: usdc('100') } });
  await chain.confirm(
    await chain
      .walletFor(maker)
      .writeContract({ address: chain.escrow, abi: escrowAbi, functionName: 'setPaymentMethod', args: [depositId, VENMO, keccak256(stringToHex('maker-id'))] }),
  );
  await acceptCurrency(chain, maker, depositId, VENMO, USD, rate('1.02'));
  return depositId;
}

const terms = (depositId: bigint, overrides: Partial<IntentTerms> = {}): IntentTerms => ({
  depositId,
  amount: usdc('100'),
  to: payee.address,
  paymentMethod: VENMO,
  fiatCurrency: USD,
  conversionRate: rate('1.02'),
  ...overrides,
});

const signalling = (depositId: bigint, overrides: Partial<IntentTerms> = {}, options: SignalOptions = {}, account: LocalAccount = taker) =>
  signalOn(chain, account, terms(depositId, overrides), options);

const escrowCall = (account: LocalAccount, functionName: string, args: readonly unknown[]) =>
  chain.walletFor(account).writeContract({ address: chain.escrow, abi: [...escrowAbi, ...protocolErrorsAbi], functionName, args } as never);

test.serial('the taker cannot set the rate: below the maker’s floor, or in a currency the deposit does not take, reverts', async (t) => {
  const depositId = await deposit();
  // The review's reproduction: rate 1 on a 100 USDC intent (one cent of fiat bought a dollar's worth before).
  t.deepEqual(await revertOf(signalling(depositId, { conversionRate: 1n })), { errorName: 'RateBelowMinimum', args: [1n, rate('1.02')] });
  t.deepEqual(await revertOf(signalling(depositId, { conversionRate: rate('1.019999') })), {
    errorName: 'RateBelowMinimum',
    args: [rate('1.019999'), rate('1.02')],
  });
  t.deepEqual(await revertOf(signalling(depositId, { fiatCurrency: EUR, conversionRate: rate('0.95') })), {
    errorName: 'CurrencyNotAccepted',
    args: [depositId, VENMO, EUR],
  });
  await chain.confirm(await signalling(depositId, { amount: usdc('10'), conversionRate: rate('1.02') }));
  await chain.confirm(await signalling(depositId, { amount: usdc('10'), conversionRate: rate('1.10') }));
  const held = await chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [depositId] });
  t.is(held.locked, usdc('20'), 'at the floor and above it, intents lock');
});

test.serial('the maker adds, moves and removes a currency’s floor; nobody else may, and a method must be accepted first', async (t) => {
  const depositId = await deposit();
  const added = await acceptCurrency(chain, maker, depositId, VENMO, EUR, rate('0.90'));
  const moved = await acceptCurrency(chain, maker, depositId, VENMO, EUR, rate('0.93'));
  const removed = await acceptCurrency(chain, maker, depositId, VENMO, EUR, 0n);
  const names = (receipt: typeof added) => parseEventLogs({ abi: escrowAbi, logs: receipt.logs }).map(({ eventName, args }) => ({ eventName, args }));
  t.deepEqual(names(added), [{ eventName: 'DepositCurrencyAdded', args: { depositId, paymentMethod: VENMO, currency: EUR, minConversionRate: rate('0.90') } }]);
  t.deepEqual(names(moved), [
    { eventName: 'DepositMinConversionRateUpdated', args: { depositId, paymentMethod: VENMO, currency: EUR, newMinConversionRate: rate('0.93') } },
  ]);
  t.deepEqual(names(removed), [{ eventName: 'DepositCurrencyRemoved', args: { depositId, paymentMethod: VENMO, currency: EUR } }]);
  t.deepEqual(await revertOf(signalling(depositId, { fiatCurrency: EUR, conversionRate: rate('1') })), {
    errorName: 'CurrencyNotAccepted',
    args: [depositId, VENMO, EUR],
  });

  t.deepEqual(await revertOf(escrowCall(stranger, 'setCurrencyMinRate', [depositId, VENMO, USD, 1n])), {
    errorName: 'UnauthorizedCaller',
    args: [stranger.address],
  });
  const CASHAPP = keccak256(stringToHex('cashapp'));
  t.deepEqual(await revertOf(escrowCall(maker, 'setCurrencyMinRate', [depositId, CASHAPP, USD, rate('1')])), {
    errorName: 'PaymentMethodNotAccepted',
    args: [depositId, CASHAPP],
  });
});

test.serial('a rate manager moves a floor only inside the bounds the maker set, and only when the maker named it', async (t) => {
  const depositId = await deposit();
  const update = (account: LocalAccount, value: bigint, currency: Hex = USD) =>
    escrowCall(account, 'updateMinConversionRate', [depositId, VENMO, currency, value]);
  t.deepEqual(await revertOf(update(rateManager, rate('1.03'))), { errorName: 'UnauthorizedCaller', args: [rateManager.address] }, 'not named yet');

  t.deepEqual(await revertOf(escrowCall(stranger, 'setRateManager', [depositId, rateManager.address])), {
    errorName: 'UnauthorizedCaller',
    args: [stranger.address],
  });
  await chain.confirm(await escrowCall(maker, 'setRateManager', [depositId, rateManager.address]));
  t.deepEqual(
    await revertOf(update(rateManager, rate('1.03'))),
    { errorName: 'RateOutOfBounds', args: [rate('1.03'), 0n, 0n] },
    'no bounds: it may not move anything',
  );

  await chain.confirm(await escrowCall(maker, 'setRateBounds', [depositId, VENMO, USD, { min: rate('1.00'), max: rate('1.05') }]));
  await chain.confirm(await update(rateManager, rate('1.04')));
  t.is(
    await chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'minConversionRate', args: [depositId, VENMO, USD] }),
    rate('1.04'),
  );
  t.deepEqual(await revertOf(signalling(depositId, { amount: usdc('10'), conversionRate: rate('1.03') })), {
    errorName: 'RateBelowMinimum',
    args: [rate('1.03'), rate('1.04')],
  });

  t.deepEqual(await revertOf(update(rateManager, rate('1.06'))), { errorName: 'RateOutOfBounds', args: [rate('1.06'), rate('1.00'), rate('1.05')] });
  t.deepEqual(await revertOf(update(rateManager, rate('0.99'))), { errorName: 'RateOutOfBounds', args: [rate('0.99'), rate('1.00'), rate('1.05')] });
  t.deepEqual(
    await revertOf(update(rateManager, rate('1'), EUR)),
    { errorName: 'CurrencyNotAccepted', args: [depositId, VENMO, EUR] },
    'it cannot add a currency',
  );
  t.deepEqual(await revertOf(update(stranger, rate('1.01'))), { errorName: 'UnauthorizedCaller', args: [stranger.address] });
  t.deepEqual(await revertOf(escrowCall(rateManager, 'setRateBounds', [depositId, VENMO, USD, { min: 1n, max: rate('100') }])), {
    errorName: 'UnauthorizedCaller',
    args: [rateManager.address],
  });
});

test.serial('every intent needs the gating service’s approval, for these terms, this caller, once, before it expires', async (t) => {
  const depositId = await deposit();
  const impostor = privateKeyToAccount(generatePrivateKey());
  const refused = await revertOf(signalling(depositId, { amount: usdc('10') }, { gatingSigner: impostor }));
  t.deepEqual(refused, { errorName: 'InvalidGatingSignature', args: [impostor.address] });

  // Approved for the taker, sent by somebody else: a copy read from the mempool signals nothing.
  t.is((await revertOf(signalling(depositId, { amount: usdc('10') }, { approvedOwner: taker.address }, stranger))).errorName, 'InvalidGatingSignature');

  const latest = (await chain.publicClient.getBlock()).timestamp;
  t.deepEqual(await revertOf(signalling(depositId, { amount: usdc('10') }, { signatureExpiration: latest - 1n })), {
    errorName: 'GatingSignatureExpired',
    args: [latest - 1n],
  });

  const once: SignalOptions = { signatureExpiration: latest + 3_600n };
  await chain.confirm(await signalling(depositId, { amount: usdc('10') }, once));
  t.is((await revertOf(signalling(depositId, { amount: usdc('10') }, once))).errorName, 'GatingSignatureAlreadyUsed');

  t.deepEqual(await revertOf(signalling(depositId, { amount: usdc('10') }, { escrow: stranger.address })), {
    errorName: 'UnknownEscrow',
    args: [stranger.address],
  });
  t.deepEqual(await revertOf(signalling(depositId, { amount: usdc('10') }, { postIntentHook: stranger.address })), {
    errorName: 'PostIntentHookNotSupported',
    args: [stranger.address],
  });
  const takeOver = chain
    .walletFor(stranger)
    .writeContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName: 'setGatingService', args: [stranger.address] });
  t.deepEqual(await revertOf(takeOver), { errorName: 'OwnableUnauthorizedAccount', args: [stranger.address] });
});

test.serial(
  'the deposit carries its intent range, whitelist flag, dispute protection and seller automated release, set by its maker or delegate',
  async (t) => {
    const depositId = await deposit();
    const before = await chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [depositId] });
    t.like(before, { isPrivate: false, disputeProtectionEnabled: false, sellerAutomatedRelease: false, rateManager: zeroAddress });

    await chain.confirm(await escrowCall(maker, 'setIntentAmountRange', [depositId, { min: usdc('5'), max: usdc('20') }]));
    await chain.confirm(await escrowCall(maker, 'setPrivate', [depositId, true]));
    await chain.confirm(await escrowCall(maker, 'setDisputeProtectionEnabled', [depositId, true]));
    const last = await chain.confirm(await escrowCall(maker, 'setSellerAutomatedRelease', [depositId, true]));
    t.deepEqual(
      parseEventLogs({ abi: escrowAbi, logs: last.logs }).map(({ eventName, args }) => ({ eventName, args })),
      [{ eventName: 'DepositSellerAutomatedReleaseUpdated', args: { depositId, enabled: true } }],
    );
    const after = await chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [depositId] });
    t.like(after, { isPrivate: true, disputeProtectionEnabled: true, sellerAutomatedRelease: true, intentAmountRange: { min: usdc('5'), max: usdc('20') } });
    t.deepEqual(await revertOf(signalling(depositId, { amount: usdc('21') })), { errorName: 'AmountAboveMax', args: [usdc('21'), usdc('20')] });

    for (const [functionName, args] of [
      ['setIntentAmountRange', [depositId, { min: 1n, max: 2n }]],
      ['setPrivate', [depositId, false]],
      ['setDisputeProtectionEnabled', [depositId, false]],
      ['setSellerAutomatedRelease', [depositId, false]],
    ] as const) {
      t.deepEqual(await revertOf(escrowCall(stranger, functionName, args)), { errorName: 'UnauthorizedCaller', args: [stranger.address] }, functionName);
    }
    t.deepEqual(await revertOf(escrowCall(maker, 'setIntentAmountRange', [depositId, { min: usdc('3'), max: usdc('2') }])), {
      errorName: 'InvalidRange',
      args: [usdc('3'), usdc('2')],
    });
  },
);
