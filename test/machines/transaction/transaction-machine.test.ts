import test from 'ava';
import type { AnyMachineSnapshot } from 'xstate';
import { fromJson, toJson } from '../../../actors/codec.js';
import { stepsOf, type Action } from '../../../actors/runtime/machine-steps.js';
import {
  CANCELLATION_GAS,
  transactionMachine,
  transactionStatusOf,
  type Attempt,
  type Hex,
  type OutcomeStatus,
  type SendingPolicy,
  type TransactionContext,
  type TransactionEvent,
  type TransactionInput,
  type TransactionOutcomeEvent,
} from '../../../machines/transaction/index.js';

type Step = [snapshot: AnyMachineSnapshot, actions: Action[]];

const steps = stepsOf(transactionMachine);

const FROM: Hex = '0x00000000000000000000000000000000000000a1';
const TO: Hex = '0x00000000000000000000000000000000000000b2';
const DATA: Hex = '0xdeadbeef';
const OWNER = { kind: 'payment', id: 'pay_1' };
const POLICY: SendingPolicy = { confirmations: 3, checkEveryMs: 4_000, bumpAfterMs: 30_000, maxFeePerGas: 1_000n };

const PREPARED_AT = 1_000;
const ESTIMATED_AT = 1_100;
const SIGNED_AT = 1_200;
const BROADCAST_AT = 1_300;

const input = (overrides: Partial<TransactionInput> = {}): TransactionInput => ({
  id: 'tx_1',
  chainId: 8453,
  from: FROM,
  to: TO,
  data: DATA,
  value: 5n,
  purpose: 'fulfillIntent',
  owner: OWNER,
  policy: POLICY,
  at: PREPARED_AT,
  ...overrides,
});

const ORIGINAL: Attempt = { hash: '0x01', raw: '0xf1', kind: 'ORIGINAL', maxFeePerGas: 100n, maxPriorityFeePerGas: 10n, signedAt: SIGNED_AT };

const estimated: TransactionEvent = { type: 'ESTIMATED', gasLimit: 60_000n, at: ESTIMATED_AT };
const signed: TransactionEvent = { type: 'SIGNED', nonce: 7n, ...ORIGINAL };
const broadcast = (hash: Hex = ORIGINAL.hash, at = BROADCAST_AT): TransactionEvent => ({ type: 'BROADCAST', hash, at });
const notMined = (at: number, included = false): TransactionEvent => ({ type: 'NOT_MINED', included, at });
const receipt = (hash: Hex, succeeded: boolean, at: number, reason: string | null = null, revertData: Hex | null = null): TransactionEvent => ({
  type: 'RECEIPT',
  hash,
  succeeded,
  blockNumber: 123n,
  gasUsed: 51_000n,
  effectiveGasPrice: 90n,
  reason,
  revertData,
  at,
});

const context = (snapshot: AnyMachineSnapshot) => snapshot.context as TransactionContext;
const types = (actions: Action[]) => actions.map((action) => action.type);
const only = (actions: Action[], type: string) => {
  const found = actions.filter((action) => action.type === type);
  if (found.length !== 1) throw new Error(`expected one ${type} action, got ${JSON.stringify(types(actions))}`);
  return found[0]!.params as Record<string, unknown>;
};
const tellOf = (actions: Action[]) => only(actions, 'tell') as { to: { kind: string; id: string }; event: TransactionOutcomeEvent };

const prepare = (overrides: Partial<TransactionInput> = {}): Step => steps.initial(input(overrides));
const send = (snapshot: AnyMachineSnapshot, event: TransactionEvent): Step => {
  const step = steps.next(snapshot, event);
  if (step[0].status === 'error') throw step[0].error;
  return step;
};
const run = (events: TransactionEvent[], overrides: Partial<TransactionInput> = {}): Step => {
  let step = prepare(overrides);
  for (const event of events) step = send(step[0], event);
  return step;
};
/** PREPARE → ESTIMATED → SIGNED → BROADCAST: sent once, looking for its receipt. */
const submitted = (overrides: Partial<TransactionInput> = {}) => run([estimated, signed, broadcast()], overrides);
/** The event the waiting state's delayed raise carries: what the runtime's timer row fires. */
const timerEventOf = (actions: Action[]) => (only(actions, 'xstate.raise') as { event: TransactionEvent }).event;

test('PREPARE starts PREPARED.estimating with empty attempts and emits estimate with the call', (t) => {
  const [snapshot, actions] = prepare();
  t.deepEqual(snapshot.value, { PREPARED: 'estimating' });
  t.is(transactionStatusOf(snapshot.value), 'PREPARED');
  t.like(context(snapshot), {
    gasLimit: null,
    nonce: null,
    attempts: [],
    cancelRequested: false,
    submittedAt: null,
    outcome: null,
    createdAt: PREPARED_AT,
    updatedAt: PREPARED_AT,
  });
  t.deepEqual(types(actions), ['estimate', 'xstate.raise'], 'the estimate, and the deadline of an unsent transaction');
  t.deepEqual(only(actions, 'estimate'), { transactionId: 'tx_1', from: FROM, to: TO, data: DATA, value: 5n });
  t.is(only(actions, 'xstate.raise').delay, 120_000);
});

test('ESTIMATED moves to signing, records the gas limit, and emits sign with the gas limit and the fee cap', (t) => {
  const [snapshot, actions] = run([estimated]);
  t.deepEqual(snapshot.value, { PREPARED: 'signing' });
  t.is(context(snapshot).gasLimit, 60_000n);
  t.is(context(snapshot).updatedAt, ESTIMATED_AT);
  t.deepEqual(types(actions), ['xstate.cancel', 'sign'], 'priced: the unsent deadline is cancelled');
  t.deepEqual(only(actions, 'sign'), { transactionId: 'tx_1', chainId: 8453, from: FROM, to: TO, data: DATA, value: 5n, gasLimit: 60_000n, cap: 1_000n });
});

test('SIGNED records the nonce and the attempt, and emits broadcast with the signed raw bytes', (t) => {
  const [snapshot, actions] = run([estimated, signed]);
  t.deepEqual(snapshot.value, { PREPARED: 'broadcasting' });
  t.is(context(snapshot).nonce, 7n);
  t.deepEqual(context(snapshot).attempts, [ORIGINAL]);
  t.is(context(snapshot).updatedAt, SIGNED_AT);
  t.deepEqual(types(actions), ['broadcast']);
  t.deepEqual(only(actions, 'broadcast'), { transactionId: 'tx_1', hash: '0x01', raw: '0xf1' });
});

test('BROADCAST moves to SUBMITTED.checking, sets submittedAt, and emits checkReceipt with the nonce, hashes and raw', (t) => {
  const [snapshot, actions] = submitted();
  t.deepEqual(snapshot.value, { SUBMITTED: 'checking' });
  t.is(transactionStatusOf(snapshot.value), 'SUBMITTED');
  t.is(context(snapshot).submittedAt, BROADCAST_AT);
  t.is(context(snapshot).updatedAt, BROADCAST_AT);
  t.deepEqual(types(actions), ['checkReceipt']);
  t.deepEqual(only(actions, 'checkReceipt'), {
    transactionId: 'tx_1',
    from: FROM,
    to: TO,
    data: DATA,
    value: 5n,
    nonce: 7n,
    hashes: ['0x01'],
    raw: '0xf1',
    confirmations: 3,
  });
});

test('NOT_MINED before bumpAfterMs waits, with one delayed raise of checkEveryMs; the timer firing checks again', (t) => {
  const [checking] = submitted();
  const [waiting, actions] = send(checking, notMined(SIGNED_AT + POLICY.bumpAfterMs - 1));
  t.deepEqual(waiting.value, { SUBMITTED: 'waiting' });
  t.deepEqual(types(actions), ['xstate.raise']);
  const raise = only(actions, 'xstate.raise');
  t.is(raise.delay, 4_000);
  t.is(typeof raise.id, 'string');

  const [again, next] = send(waiting, timerEventOf(actions));
  t.deepEqual(again.value, { SUBMITTED: 'checking' });
  t.deepEqual(types(next), ['xstate.cancel', 'checkReceipt']);
  t.is(only(next, 'xstate.cancel').sendId, raise.id, 'leaving waiting cancels its own timer');
  t.like(only(next, 'checkReceipt'), { nonce: 7n, hashes: ['0x01'], raw: '0xf1' });
});

test('NOT_MINED at bumpAfterMs after signing replaces the attempt: signReplacement of kind FEE_BUMP from its fees', (t) => {
  const [checking] = submitted();
  const [replacing, actions] = send(checking, notMined(SIGNED_AT + POLICY.bumpAfterMs));
  t.deepEqual(replacing.value, { SUBMITTED: 'replacing' });
  t.deepEqual(types(actions), ['signReplacement']);
  t.deepEqual(only(actions, 'signReplacement'), {
    transactionId: 'tx_1',
    chainId: 8453,
    from: FROM,
    nonce: 7n,
    kind: 'FEE_BUMP',
    to: TO,
    data: DATA,
    value: 5n,
    gasLimit: 60_000n,
    previous: { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n },
    cap: 1_000n,
  });
});

test('NOT_MINED with a receipt lacking confirmations waits, however late: no bump', (t) => {
  const [checking] = submitted();
  const [waiting, actions] = send(checking, notMined(SIGNED_AT + 10 * POLICY.bumpAfterMs, true));
  t.deepEqual(waiting.value, { SUBMITTED: 'waiting' });
  t.deepEqual(types(actions), ['xstate.raise']);
});

test('a bump, signed and sent, is checked with both hashes and its own raw; submittedAt stays the first broadcast', (t) => {
  const [replacing] = send(submitted()[0], notMined(SIGNED_AT + POLICY.bumpAfterMs));
  const bump: Attempt = { hash: '0x02', raw: '0xf2', kind: 'FEE_BUMP', maxFeePerGas: 113n, maxPriorityFeePerGas: 12n, signedAt: 40_000 };
  const [rebroadcasting, signedActions] = send(replacing, { type: 'REPLACEMENT_SIGNED', ...bump });
  t.deepEqual(rebroadcasting.value, { SUBMITTED: 'rebroadcasting' });
  t.deepEqual(context(rebroadcasting).attempts, [ORIGINAL, bump]);
  t.is(context(rebroadcasting).nonce, 7n, 'a replacement keeps the nonce');
  t.deepEqual(only(signedActions, 'broadcast'), { transactionId: 'tx_1', hash: '0x02', raw: '0xf2' });

  const [checking, actions] = send(rebroadcasting, broadcast('0x02', 40_100));
  t.deepEqual(checking.value, { SUBMITTED: 'checking' });
  t.is(context(checking).submittedAt, BROADCAST_AT);
  t.is(context(checking).updatedAt, 40_100);
  t.like(only(actions, 'checkReceipt'), { hashes: ['0x01', '0x02'], raw: '0xf2' });

  // The next bump is measured from the bump's signing, not the original's.
  t.deepEqual(send(checking, notMined(40_000 + POLICY.bumpAfterMs - 1))[0].value, { SUBMITTED: 'waiting' });
  const [again, bumpActions] = send(checking, notMined(40_000 + POLICY.bumpAfterMs));
  t.deepEqual(again.value, { SUBMITTED: 'replacing' });
  t.like(only(bumpActions, 'signReplacement'), { kind: 'FEE_BUMP', previous: { maxFeePerGas: 113n, maxPriorityFeePerGas: 12n } });
});

test('a successful RECEIPT ends MINED and tells the owner TRANSACTION_OUTCOME with the receipt', (t) => {
  const [mined, actions] = send(submitted()[0], receipt('0x01', true, 9_000));
  t.is(mined.value, 'MINED');
  t.is(mined.status, 'done');
  const expected = { status: 'MINED', hash: '0x01', blockNumber: 123n, gasUsed: 51_000n, effectiveGasPrice: 90n, reason: null, revertData: null, at: 9_000 };
  t.deepEqual(context(mined).outcome, expected);
  t.deepEqual(types(actions), ['tell']);
  t.deepEqual(tellOf(actions), { to: OWNER, event: { type: 'TRANSACTION_OUTCOME', transactionId: 'tx_1', purpose: 'fulfillIntent', outcome: expected } });
  t.false(mined.can({ type: 'CANCEL', at: 9_100 }), 'a final state takes nothing more');
});

test('a reverted RECEIPT ends FAILED with the reason and revert data, told to the owner', (t) => {
  const [failed, actions] = send(submitted()[0], receipt('0x01', false, 9_000, 'IntentNotFound(0x12)', '0xabcd'));
  t.is(failed.value, 'FAILED');
  t.like(context(failed).outcome, { status: 'FAILED', hash: '0x01', reason: 'IntentNotFound(0x12)', revertData: '0xabcd', gasUsed: 51_000n, at: 9_000 });
  t.like(tellOf(actions).event.outcome, { status: 'FAILED', reason: 'IntentNotFound(0x12)', revertData: '0xabcd' });
});

test('a RECEIPT of the cancellation attempt ends REPLACED', (t) => {
  const [checking] = send(submitted()[0], { type: 'CANCEL', at: 2_000 });
  t.deepEqual(checking.value, { SUBMITTED: 'checking' });
  t.true(context(checking).cancelRequested);
  const [replacing] = send(checking, notMined(2_100));
  const cancellation: Attempt = { hash: '0x0c', raw: '0xfc', kind: 'CANCELLATION', maxFeePerGas: 113n, maxPriorityFeePerGas: 12n, signedAt: 2_200 };
  const [rebroadcasting] = send(replacing, { type: 'REPLACEMENT_SIGNED', ...cancellation });
  const [again] = send(rebroadcasting, broadcast('0x0c', 2_300));
  const [replaced, actions] = send(again, receipt('0x0c', true, 3_000));
  t.is(replaced.value, 'REPLACED');
  t.like(context(replaced).outcome, { status: 'REPLACED', hash: '0x0c', at: 3_000 });
  t.like(tellOf(actions), { to: OWNER, event: { type: 'TRANSACTION_OUTCOME', outcome: { status: 'REPLACED', hash: '0x0c' } } });
});

test('a RECEIPT of the original after a cancellation was sent still ends MINED', (t) => {
  const [checking] = send(submitted()[0], { type: 'CANCEL', at: 2_000 });
  const [replacing] = send(checking, notMined(2_100));
  const cancellation: Attempt = { hash: '0x0c', raw: '0xfc', kind: 'CANCELLATION', maxFeePerGas: 113n, maxPriorityFeePerGas: 12n, signedAt: 2_200 };
  const [rebroadcasting] = send(replacing, { type: 'REPLACEMENT_SIGNED', ...cancellation });
  const [again] = send(rebroadcasting, broadcast('0x0c', 2_300));
  const [mined] = send(again, receipt('0x01', true, 3_000));
  t.is(mined.value, 'MINED');
  t.like(context(mined).outcome, { status: 'MINED', hash: '0x01' });
});

test('NONCE_USED_ELSEWHERE ends DROPPED and tells the owner why', (t) => {
  const [dropped, actions] = send(submitted()[0], { type: 'NONCE_USED_ELSEWHERE', at: 5_000 });
  t.is(dropped.value, 'DROPPED');
  t.like(context(dropped).outcome, { status: 'DROPPED', hash: null, reason: 'another transaction of the sending key spent its nonce', at: 5_000 });
  t.like(tellOf(actions).event, { type: 'TRANSACTION_OUTCOME', transactionId: 'tx_1', outcome: { status: 'DROPPED' } });
});

test('SIMULATION_REVERTED ends FAILED before a nonce is spent: nonce null, no sign, the reason told', (t) => {
  const [failed, actions] = run([{ type: 'SIMULATION_REVERTED', reason: 'Error("no")', revertData: '0x08c379a0', at: 1_050 }]);
  t.is(failed.value, 'FAILED');
  t.is(context(failed).nonce, null);
  t.deepEqual(context(failed).attempts, []);
  t.is(context(failed).gasLimit, null);
  t.deepEqual(context(failed).outcome, {
    status: 'FAILED',
    hash: null,
    blockNumber: null,
    gasUsed: null,
    effectiveGasPrice: null,
    reason: 'Error("no")',
    revertData: '0x08c379a0',
    at: 1_050,
  });
  t.deepEqual(types(actions), ['xstate.cancel', 'tell'], 'no sign, no broadcast');
  t.like(tellOf(actions).event.outcome, { status: 'FAILED', reason: 'Error("no")' });
});

test('CANCEL while estimating ends FAILED without signing', (t) => {
  const [failed, actions] = run([{ type: 'CANCEL', at: 1_050 }]);
  t.is(failed.value, 'FAILED');
  t.like(context(failed), { nonce: null, cancelRequested: true, attempts: [], updatedAt: 1_050 });
  t.like(context(failed).outcome, { status: 'FAILED', reason: 'cancelled by its owner before it was signed', at: 1_050 });
  t.deepEqual(types(actions), ['xstate.cancel', 'tell']);
  t.false(failed.can(estimated), 'a late estimate is not taken');
});

test('a transaction the chain leaves unpriced past unsentFailMs ends FAILED unsent, and its owner hears it', (t) => {
  const [estimating, entry] = prepare({ policy: { ...POLICY, unsentFailMs: 5_000 } });
  t.is(only(entry, 'xstate.raise').delay, 5_000);
  const [failed, actions] = send(estimating, timerEventOf(entry));
  t.is(failed.value, 'FAILED');
  t.like(context(failed), { nonce: null, attempts: [], updatedAt: PREPARED_AT + 5_000 });
  t.like(context(failed).outcome, {
    status: 'FAILED',
    reason: 'not sent: the chain did not answer while the transaction was being priced',
    at: PREPARED_AT + 5_000,
  });
  t.deepEqual(types(actions), ['xstate.cancel', 'tell']);
  t.deepEqual(tellOf(actions), {
    to: OWNER,
    event: { type: 'TRANSACTION_OUTCOME', transactionId: 'tx_1', purpose: 'fulfillIntent', outcome: context(failed).outcome! },
  });
  t.false(failed.can(estimated), 'a late estimate is not taken');
});

test('CANCEL while signing, then SIGNED: the nonce is spent on a CANCELLATION, and the original is never broadcast', (t) => {
  const [signing, cancelActions] = run([estimated, { type: 'CANCEL', at: 1_150 }]);
  t.deepEqual(signing.value, { PREPARED: 'signing' });
  t.true(context(signing).cancelRequested);
  t.deepEqual(cancelActions, []);

  const [replacing, actions] = send(signing, signed);
  t.deepEqual(replacing.value, { SUBMITTED: 'replacing' });
  t.is(context(replacing).nonce, 7n);
  t.deepEqual(types(actions), ['signReplacement']);
  t.deepEqual(only(actions, 'signReplacement'), {
    transactionId: 'tx_1',
    chainId: 8453,
    from: FROM,
    nonce: 7n,
    kind: 'CANCELLATION',
    to: FROM,
    data: '0x',
    value: 0n,
    gasLimit: CANCELLATION_GAS,
    previous: null,
    cap: 1_000n,
  });
  t.is(CANCELLATION_GAS, 21_000n);
});

test('CANCEL while waiting replaces at once with a CANCELLATION, before bumpAfterMs', (t) => {
  const [waiting] = send(submitted()[0], notMined(1_400));
  const [replacing, actions] = send(waiting, { type: 'CANCEL', at: 1_500 });
  t.deepEqual(replacing.value, { SUBMITTED: 'replacing' });
  t.true(context(replacing).cancelRequested);
  t.deepEqual(types(actions), ['xstate.cancel', 'signReplacement']);
  t.like(only(actions, 'signReplacement'), { kind: 'CANCELLATION', to: FROM, data: '0x', value: 0n, gasLimit: 21_000n });
});

test('a bump of a cancellation is still a cancellation', (t) => {
  const [waiting] = send(submitted()[0], notMined(1_400));
  const [replacing] = send(waiting, { type: 'CANCEL', at: 1_500 });
  const cancellation: Attempt = { hash: '0x0c', raw: '0xfc', kind: 'CANCELLATION', maxFeePerGas: 113n, maxPriorityFeePerGas: 12n, signedAt: 1_600 };
  const [rebroadcasting] = send(replacing, { type: 'REPLACEMENT_SIGNED', ...cancellation });
  const [checking] = send(rebroadcasting, broadcast('0x0c', 1_700));
  // A cancellation exists: no second one at once; the bump waits its time.
  t.deepEqual(send(checking, notMined(1_800))[0].value, { SUBMITTED: 'waiting' });
  const [again, actions] = send(checking, notMined(1_600 + POLICY.bumpAfterMs));
  t.deepEqual(again.value, { SUBMITTED: 'replacing' });
  t.like(only(actions, 'signReplacement'), {
    kind: 'CANCELLATION',
    to: FROM,
    data: '0x',
    value: 0n,
    gasLimit: 21_000n,
    previous: { maxFeePerGas: 113n, maxPriorityFeePerGas: 12n },
  });
});

test('BUMP_CAPPED leaves the attempt as it is and waits, with the check timer', (t) => {
  const [replacing] = send(submitted()[0], notMined(SIGNED_AT + POLICY.bumpAfterMs));
  const [waiting, actions] = send(replacing, { type: 'BUMP_CAPPED', at: 31_500 });
  t.deepEqual(waiting.value, { SUBMITTED: 'waiting' });
  t.deepEqual(context(waiting).attempts, [ORIGINAL]);
  t.deepEqual(types(actions), ['xstate.raise']);
  t.is(only(actions, 'xstate.raise').delay, POLICY.checkEveryMs);
});

test('NONCE_TOO_LOW while broadcasting goes to checking, to find which transaction took the nonce', (t) => {
  const [checking, actions] = run([estimated, signed, { type: 'NONCE_TOO_LOW', at: 1_300 }]);
  t.deepEqual(checking.value, { SUBMITTED: 'checking' });
  t.is(context(checking).submittedAt, null, 'nothing of ours was accepted by the node');
  t.deepEqual(types(actions), ['checkReceipt']);
  t.like(only(actions, 'checkReceipt'), { nonce: 7n, hashes: ['0x01'], raw: null }, 'the nonce is spent: nothing to send again');
});

test('NONCE_TOO_LOW while rebroadcasting a bump goes back to checking', (t) => {
  const [replacing] = send(submitted()[0], notMined(SIGNED_AT + POLICY.bumpAfterMs));
  const bump: Attempt = { hash: '0x02', raw: '0xf2', kind: 'FEE_BUMP', maxFeePerGas: 113n, maxPriorityFeePerGas: 12n, signedAt: 40_000 };
  const [rebroadcasting] = send(replacing, { type: 'REPLACEMENT_SIGNED', ...bump });
  const [checking, actions] = send(rebroadcasting, { type: 'NONCE_TOO_LOW', at: 40_100 });
  t.deepEqual(checking.value, { SUBMITTED: 'checking' });
  t.like(only(actions, 'checkReceipt'), { hashes: ['0x01', '0x02'], raw: '0xf2' });
});

test('no tell when the owner is null, whatever the outcome', (t) => {
  const owner = null;
  const outcomes: Array<[OutcomeStatus, Step]> = [
    ['MINED', send(submitted({ owner })[0], receipt('0x01', true, 9_000))],
    ['FAILED', send(submitted({ owner })[0], receipt('0x01', false, 9_000, 'reverted'))],
    ['DROPPED', send(submitted({ owner })[0], { type: 'NONCE_USED_ELSEWHERE', at: 9_000 })],
    ['FAILED', run([{ type: 'SIMULATION_REVERTED', reason: 'no', revertData: null, at: 1_050 }], { owner })],
    ['FAILED', run([{ type: 'CANCEL', at: 1_050 }], { owner })],
  ];
  for (const [status, [snapshot, actions]] of outcomes) {
    t.is(snapshot.value, status);
    t.is(context(snapshot).outcome?.status, status);
    t.deepEqual(
      types(actions).filter((type) => type !== 'xstate.cancel'),
      [],
      `${status}: no action but cancelling the unsent deadline`,
    );
  }
});

test('a persisted snapshot, through the bigint codec, restores to the same state and takes the next event', (t) => {
  const [waiting] = send(submitted()[0], notMined(1_400));
  const json = toJson(transactionMachine.getPersistedSnapshot(waiting));
  t.regex(json, /"__bigint":"7"/);
  const restored = transactionMachine.resolveState(fromJson<Parameters<typeof transactionMachine.resolveState>[0]>(json));
  t.deepEqual(restored.value, { SUBMITTED: 'waiting' });
  t.deepEqual(restored.context, waiting.context);
  t.is(typeof context(restored).nonce, 'bigint');
  t.is(typeof context(restored).policy.maxFeePerGas, 'bigint');

  const [replacing, actions] = send(restored, { type: 'CANCEL', at: 1_500 });
  t.deepEqual(replacing.value, { SUBMITTED: 'replacing' });
  t.deepEqual(types(actions), ['xstate.cancel', 'signReplacement'], 'restoring runs no entry actions again');
  t.like(only(actions, 'signReplacement'), { kind: 'CANCELLATION', nonce: 7n, previous: { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }, cap: 1_000n });

  // And a second round trip from a later state still ends with the owner told.
  const again = transactionMachine.resolveState(
    fromJson<Parameters<typeof transactionMachine.resolveState>[0]>(toJson(transactionMachine.getPersistedSnapshot(replacing))),
  );
  const cancellation: Attempt = { hash: '0x0c', raw: '0xfc', kind: 'CANCELLATION', maxFeePerGas: 113n, maxPriorityFeePerGas: 12n, signedAt: 1_600 };
  const [rebroadcasting] = send(again, { type: 'REPLACEMENT_SIGNED', ...cancellation });
  const [checking] = send(rebroadcasting, broadcast('0x0c', 1_700));
  const [replaced, last] = send(checking, receipt('0x0c', true, 2_000));
  t.is(replaced.value, 'REPLACED');
  t.like(tellOf(last), { to: OWNER, event: { outcome: { status: 'REPLACED', hash: '0x0c', blockNumber: 123n } } });
});

// Found in review: the cancelled original, never sent, must not go out through a look for its receipt.
test('after CANCEL while signing and BUMP_CAPPED, no check sends the cancelled original', (t) => {
  const atCap: TransactionEvent = { type: 'SIGNED', nonce: 7n, ...ORIGINAL, maxFeePerGas: POLICY.maxFeePerGas, maxPriorityFeePerGas: 10n };
  const [replacing] = run([estimated, { type: 'CANCEL', at: 1_150 }, atCap]);
  const [waiting, capped] = send(replacing, { type: 'BUMP_CAPPED', at: 1_250 });
  const [, actions] = send(waiting, timerEventOf(capped));
  const carried = actions.filter((action) => (action.params as { raw?: Hex } | undefined)?.raw === ORIGINAL.raw);
  t.deepEqual(carried, []);
});
