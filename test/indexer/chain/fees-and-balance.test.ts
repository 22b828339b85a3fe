/**
 * Where released USDC goes, on a real anvil: the protocol fee and the referrer's fee come out of
 * the released amount, to the unit, and whatever sequence of deposits, intents, fulfilments,
 * cancels, prunes and withdrawals runs, the escrow holds exactly what its deposits say they hold
 * and the orchestrator keeps nothing. Serial: one chain, its nonces and its clock.
 */
import test from 'ava';
import fc from 'fast-check';
import { BaseError, ContractFunctionRevertedError, keccak256, parseEventLogs, parseUnits, stringToHex, zeroAddress, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  DEFAULT_INTENT_EXPIRATION_SECONDS,
  anvilTestAccount,
  escrowAbi,
  mockUSDCAbi,
  orchestratorAbi,
  protocolErrorsAbi,
  startLocalChain,
  type LocalChain,
} from '../../../indexer/chain/index.js';
import { revertOf } from '../../support/chain-revert.js';
import { fulfilOn, paymentEvidence, witnessAttestation } from '../../support/local-attestation.js';
import { depositOn } from '../../support/local-deposit.js';
import { acceptCurrency, signalOn, type IntentTerms } from '../../support/local-intent.js';

const usdc = (amount: string): bigint => parseUnits(amount, 6);
const RATE = parseUnits('1.02', 18);
const VENMO = keccak256(stringToHex('venmo'));
const USD = keccak256(stringToHex('USD'));
const MAKER_PAYEE = keccak256(stringToHex('maker-id'));

const witness = privateKeyToAccount(generatePrivateKey());
const maker = anvilTestAccount(2);
const taker = anvilTestAccount(3);
const payee = anvilTestAccount(4);
const stranger = anvilTestAccount(5);
const referrer = anvilTestAccount(8);
const feeRecipient = anvilTestAccount(9);

let chain: LocalChain;

test.before(async () => {
  chain = await startLocalChain({ witness: witness.address });
});

test.after.always(async () => {
  await chain?.stop();
});

const balanceOf = (account: Address) => chain.publicClient.readContract({ address: chain.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [account] });

const orchestratorCall = (functionName: string, args: readonly unknown[], account = chain.deployer) =>
  chain.walletFor(account).writeContract({ address: chain.orchestrator, abi: [...orchestratorAbi, ...protocolErrorsAbi], functionName, args } as never);

async function deposit(amount: bigint): Promise<bigint> {
  await chain.mintUsdc(maker.address, amount);
  const { depositId } = await depositOn(chain, maker, amount, { range: { min: 1n, max: amount } });
  await chain.confirm(
    await chain
      .walletFor(maker)
      .writeContract({ address: chain.escrow, abi: escrowAbi, functionName: 'setPaymentMethod', args: [depositId, VENMO, MAKER_PAYEE] }),
  );
  await acceptCurrency(chain, maker, depositId, VENMO, USD, RATE);
  return depositId;
}

const venmoIntent = (depositId: bigint, amount: bigint, extra: Partial<IntentTerms> = {}): IntentTerms => ({
  depositId,
  amount,
  to: payee.address,
  paymentMethod: VENMO,
  fiatCurrency: USD,
  conversionRate: RATE,
  ...extra,
});

async function signal(depositId: bigint, amount: bigint, extra: Partial<IntentTerms> = {}): Promise<{ intentHash: Hash; timestamp: bigint }> {
  const receipt = await chain.confirm(await signalOn(chain, taker, venmoIntent(depositId, amount, extra)));
  const [signaled] = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentSignaled' });
  return { intentHash: signaled!.args.intentHash, timestamp: signaled!.args.timestamp };
}

let payments = 0;

/** The witness's attestation that the intent was paid, releasing `releaseAmount`. */
const attested = (intent: { intentHash: Hash; timestamp: bigint }, amount: bigint, releaseAmount: bigint) =>
  witnessAttestation(
    chain,
    [witness],
    intent.intentHash,
    releaseAmount,
    paymentEvidence({ ...intent, amount, paymentMethod: VENMO, fiatCurrency: USD, payeeDetails: MAKER_PAYEE, conversionRate: RATE }, `payment-${payments++}`),
  );

const fulfil = async (attestation: Awaited<ReturnType<typeof attested>>) => chain.confirm(await fulfilOn(chain, stranger, attestation));

test.serial('the protocol fee and the referrer’s fee come out of what is released, and with `to`’s share sum to it exactly', async (t) => {
  t.deepEqual(await revertOf(orchestratorCall('setProtocolFee', [1001n, feeRecipient.address])), { errorName: 'ProtocolFeeTooHigh', args: [1001n, 1000n] });
  t.deepEqual(await revertOf(orchestratorCall('setProtocolFee', [100n, zeroAddress])), { errorName: 'ZeroAddress', args: [] });
  t.deepEqual(await revertOf(orchestratorCall('setProtocolFee', [100n, stranger.address], stranger)), {
    errorName: 'OwnableUnauthorizedAccount',
    args: [stranger.address],
  });
  await chain.confirm(await orchestratorCall('setProtocolFee', [100n, feeRecipient.address]));

  const depositId = await deposit(usdc('100'));
  const tooMuch = parseUnits('0.1', 18) + 1n;
  t.deepEqual(await revertOf(signalOn(chain, taker, venmoIntent(depositId, usdc('1'), { referrer: referrer.address, referrerFee: tooMuch }))), {
    errorName: 'ReferrerFeeTooHigh',
    args: [tooMuch, parseUnits('0.1', 18)],
  });
  t.deepEqual(await revertOf(signalOn(chain, taker, venmoIntent(depositId, usdc('1'), { referrerFee: 1n }))), { errorName: 'ReferrerRequired', args: [] });

  // 12.345678 USDC at 1% and 2%: both fees round down, `to` gets every unit they leave.
  const amount = usdc('12.345678');
  const intent = await signal(depositId, amount, { referrer: referrer.address, referrerFee: parseUnits('0.02', 18) });
  const before = await Promise.all([payee.address, referrer.address, feeRecipient.address].map(balanceOf));
  const receipt = await fulfil(await attested(intent, amount, amount));
  const after = await Promise.all([payee.address, referrer.address, feeRecipient.address].map(balanceOf));
  const [toGot, referrerGot, protocolGot] = after.map((balance, i) => balance - before[i]!);
  t.is(protocolGot, 123_456n);
  t.is(referrerGot, 246_913n);
  t.is(toGot, 11_975_309n);
  t.is(toGot! + referrerGot! + protocolGot!, amount);
  t.deepEqual(
    parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs }).map(({ eventName, args }) => ({ eventName, args })),
    [
      { eventName: 'ProtocolFeePaid', args: { intentHash: intent.intentHash, recipient: feeRecipient.address, amount: 123_456n } },
      { eventName: 'ReferrerFeePaid', args: { intentHash: intent.intentHash, referrer: referrer.address, amount: 246_913n } },
      { eventName: 'IntentFulfilled', args: { intentHash: intent.intentHash, fundsTransferredTo: payee.address, amount: 11_975_309n, isManualRelease: false } },
    ],
  );
  t.is(await balanceOf(chain.orchestrator), 0n);

  // A release by the maker's hand pays the same fees.
  const manual = await signal(depositId, usdc('10'), { referrer: referrer.address, referrerFee: parseUnits('0.02', 18) });
  const released = await chain.confirm(
    await chain
      .walletFor(maker)
      .writeContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName: 'releaseFundsToPayer', args: [manual.intentHash] }),
  );
  t.deepEqual(
    parseEventLogs({ abi: orchestratorAbi, logs: released.logs }).map(({ args }) => (args as { amount: bigint }).amount),
    [usdc('0.1'), usdc('0.2'), usdc('9.7')],
  );
});

type Step =
  | { kind: 'deposit'; amount: bigint }
  | { kind: 'add'; deposit: number; amount: bigint }
  | { kind: 'signal'; deposit: number; amount: bigint; referred: boolean }
  | { kind: 'fulfil'; intent: number; quarters: bigint }
  | { kind: 'release'; intent: number }
  | { kind: 'cancel'; intent: number }
  | { kind: 'prune'; intent: number }
  | { kind: 'withdraw'; deposit: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('deposit' as const), amount: fc.bigInt({ min: 1n, max: usdc('50') }) }),
  fc.record({ kind: fc.constant('add' as const), deposit: fc.nat(), amount: fc.bigInt({ min: 1n, max: usdc('20') }) }),
  fc.record({ kind: fc.constant('signal' as const), deposit: fc.nat(), amount: fc.bigInt({ min: 1n, max: usdc('30') }), referred: fc.boolean() }),
  fc.record({ kind: fc.constant('fulfil' as const), intent: fc.nat(), quarters: fc.bigInt({ min: 0n, max: 4n }) }),
  fc.record({ kind: fc.constant('release' as const), intent: fc.nat() }),
  fc.record({ kind: fc.constant('cancel' as const), intent: fc.nat() }),
  fc.record({ kind: fc.constant('prune' as const), intent: fc.nat() }),
  fc.record({ kind: fc.constant('withdraw' as const), deposit: fc.nat() }),
);

/** Runs a step; a step the contracts refuse (a revert) changes nothing, which the invariant checks too. */
async function run(next: Step, deposits: bigint[], intents: { intentHash: Hash; timestamp: bigint; amount: bigint }[]): Promise<void> {
  const pick = <T>(items: T[], index: number): T | undefined => (items.length ? items[index % items.length] : undefined);
  try {
    switch (next.kind) {
      case 'deposit':
        deposits.push(await deposit(next.amount));
        return;
      case 'add': {
        const depositId = pick(deposits, next.deposit);
        if (depositId === undefined) return;
        await chain.mintUsdc(maker.address, next.amount);
        const wallet = chain.walletFor(maker);
        await chain.confirm(await wallet.writeContract({ address: chain.usdc, abi: mockUSDCAbi, functionName: 'approve', args: [chain.escrow, next.amount] }));
        await chain.confirm(
          await wallet.writeContract({
            address: chain.escrow,
            abi: [...escrowAbi, ...protocolErrorsAbi],
            functionName: 'addFunds',
            args: [depositId, next.amount],
          }),
        );
        return;
      }
      case 'signal': {
        const depositId = pick(deposits, next.deposit);
        if (depositId === undefined) return;
        const extra = next.referred ? { referrer: referrer.address, referrerFee: parseUnits('0.015', 18) } : {};
        intents.push({ ...(await signal(depositId, next.amount, extra)), amount: next.amount });
        return;
      }
      case 'fulfil': {
        const intent = pick(intents, next.intent);
        if (!intent) return;
        await fulfil(await attested(intent, intent.amount, (intent.amount * next.quarters) / 4n));
        return;
      }
      case 'release': {
        const intent = pick(intents, next.intent);
        if (!intent) return;
        await chain.confirm(
          await chain.walletFor(maker).writeContract({
            address: chain.orchestrator,
            abi: [...orchestratorAbi, ...protocolErrorsAbi],
            functionName: 'releaseFundsToPayer',
            args: [intent.intentHash],
          }),
        );
        return;
      }
      case 'cancel':
      case 'prune': {
        const intent = pick(intents, next.intent);
        if (!intent) return;
        if (next.kind === 'prune') await chain.advanceTime(Number(DEFAULT_INTENT_EXPIRATION_SECONDS));
        const account = next.kind === 'cancel' ? taker : stranger;
        await chain.confirm(await orchestratorCall('cancelIntent', [intent.intentHash], account));
        return;
      }
      case 'withdraw': {
        const depositId = pick(deposits, next.deposit);
        if (depositId === undefined) return;
        await chain.confirm(
          await chain
            .walletFor(maker)
            .writeContract({ address: chain.escrow, abi: [...escrowAbi, ...protocolErrorsAbi], functionName: 'withdrawDeposit', args: [depositId] }),
        );
        return;
      }
    }
  } catch (error) {
    // A revert is the contracts' answer; anything else is the test's own failure.
    const reverted = error instanceof BaseError && error.walk((cause) => cause instanceof ContractFunctionRevertedError);
    if (!reverted && !(error instanceof Error && /reverted/.test(error.message))) throw error;
  }
}

/** What every deposit the escrow ever opened says it holds, remaining plus locked; a closed one holds nothing. */
async function heldByDeposits(): Promise<bigint> {
  const count = await chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'depositCount' });
  let total = 0n;
  for (let id = 1n; id <= count; id++) {
    const held = await chain.publicClient
      .readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [id] })
      .then((deposit) => deposit.available + deposit.locked)
      .catch((error: unknown) => {
        if (error instanceof BaseError && error.walk((cause) => cause instanceof ContractFunctionRevertedError)) return 0n;
        throw error;
      });
    total += held;
  }
  return total;
}

test.serial(
  'for any sequence of deposits, intents, fulfilments, cancels, prunes and withdrawals, the escrow holds exactly its deposits’ remaining plus locked amounts',
  async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 16 }), async (steps) => {
        const deposits: bigint[] = [];
        const intents: { intentHash: Hash; timestamp: bigint; amount: bigint }[] = [];
        for (const next of steps) {
          await run(next, deposits, intents);
          const [escrowHolds, depositsHold] = [await balanceOf(chain.escrow), await heldByDeposits()];
          if (escrowHolds !== depositsHold)
            throw new Error(
              `after ${JSON.stringify(next, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}: escrow holds ${escrowHolds}, deposits say ${depositsHold}`,
            );
          if ((await balanceOf(chain.orchestrator)) !== 0n) throw new Error('the orchestrator kept tokens');
        }
      }),
      { numRuns: 30 },
    );
    t.is(await balanceOf(chain.escrow), await heldByDeposits());
  },
);
