import test from 'ava';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { MAX_SUBMISSIONS, depositMachine, depositStatusOf, type DepositContext, type DepositEvent, type TransactionOutcome } from '../../../machines/index.js';

const request = {
  requestId: '8d92c464-d7c6-4be8-894e-813619b41e34',
  wallet: '0xBcd4042DE499D14e55001CcbB24a551F3b954096',
  chainId: 31337,
  escrow: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  fingerprint: 'f',
  calls: [],
  amount: 5n,
  depositId: 7n,
  at: 1,
} as const;

const outcome = (transactionId: string, fields: Partial<TransactionOutcome>): DepositEvent => ({
  type: 'TRANSACTION_OUTCOME',
  transactionId,
  purpose: 'atomicCreateDeposit',
  outcome: {
    status: 'MINED',
    hash: `0x${'ab'.repeat(32)}`,
    blockNumber: 3n,
    gasUsed: 1n,
    effectiveGasPrice: 1n,
    reason: null,
    revertData: null,
    at: 5,
    ...fields,
  },
});

function start() {
  const [snapshot, actions] = initialTransition(depositMachine, { ...request, calls: [] });
  return { snapshot: snapshot as AnyMachineSnapshot, actions };
}

function step(snapshot: AnyMachineSnapshot, event: DepositEvent) {
  const [next, actions] = transition(depositMachine, snapshot as never, event);
  return { snapshot: next as AnyMachineSnapshot, actions, context: next.context as DepositContext };
}

const submitted = (snapshot: AnyMachineSnapshot, attempt: number, depositId: bigint) =>
  step(snapshot, { type: 'BATCH_SUBMITTED', attempt, depositId, transactionId: `tx-${attempt}`, at: 2 });

test('submitted, mined, the deposit found: confirmed with the hash; the first submission uses the reserved id', (t) => {
  const first = start();
  t.deepEqual(
    first.actions.map((action) => [action.type, (action.params as { depositId: bigint | null }).depositId]),
    [['submitBatch', 7n]],
  );
  let { snapshot } = submitted(first.snapshot, 0, 7n);
  t.deepEqual(snapshot.value, { pending: 'submitted' });
  const mined = step(snapshot, outcome('tx-0', {}));
  t.deepEqual(mined.snapshot.value, { pending: 'checking' });
  t.is(mined.actions[0]!.type, 'checkDeposit');
  snapshot = step(mined.snapshot, { type: 'DEPOSIT_CHECKED', attempt: 0, held: true, at: 6 }).snapshot;
  t.is(depositStatusOf(snapshot.value), 'confirmed');
  t.like(snapshot.context, { transactionHash: `0x${'ab'.repeat(32)}`, confirmedAt: 6, failure: null });
});

test('a batch that lost its id submits again, reserving a new one, at most MAX_SUBMISSIONS times', (t) => {
  let { snapshot } = start();
  for (let attempt = 0; attempt < MAX_SUBMISSIONS; attempt++) {
    snapshot = submitted(snapshot, attempt, 7n + BigInt(attempt)).snapshot;
    const lost = step(snapshot, outcome(`tx-${attempt}`, { status: 'FAILED', reason: `DepositIdTaken(${7 + attempt}, ${8 + attempt})` }));
    snapshot = lost.snapshot;
    if (attempt + 1 < MAX_SUBMISSIONS) {
      t.deepEqual(snapshot.value, { pending: 'submitting' });
      t.deepEqual(
        lost.actions.map((action) => [action.type, (action.params as { depositId: bigint | null }).depositId]),
        [['submitBatch', null]],
        'a later submission reserves afresh',
      );
      t.is(lost.context.attempt, attempt + 1);
    }
  }
  t.is(depositStatusOf(snapshot.value), 'failed');
  t.like((snapshot.context as DepositContext).failure, { code: 'SUBMISSION_FAILED' });
});

test('a simulation revert is the maker’s calls: failed CALLDATA_REVERTS, no second submission', (t) => {
  const { snapshot } = submitted(start().snapshot, 0, 7n);
  const failed = step(snapshot, outcome('tx-0', { status: 'FAILED', hash: null, reason: 'ERC20InsufficientBalance(0x1, 0, 5)' }));
  t.is(depositStatusOf(failed.snapshot.value), 'failed');
  t.deepEqual(failed.context.failure, { code: 'CALLDATA_REVERTS', message: 'the batch would revert: ERC20InsufficientBalance(0x1, 0, 5)' });
  t.deepEqual(
    failed.actions.filter((action) => action.type === 'submitBatch'),
    [],
  );
});

test('a revert on chain for another reason fails SUBMISSION_FAILED; a dropped transaction submits again', (t) => {
  const { snapshot } = submitted(start().snapshot, 0, 7n);
  t.like(step(snapshot, outcome('tx-0', { status: 'FAILED', reason: 'AmountBelowMin(1, 2)' })).context.failure, { code: 'SUBMISSION_FAILED' });
  t.deepEqual(step(snapshot, outcome('tx-0', { status: 'DROPPED', hash: null })).snapshot.value, { pending: 'submitting' });
});

test('mined without the deposit (the delegation did not take) submits again; the outcome of an older submission is only acknowledged', (t) => {
  const mined = step(submitted(start().snapshot, 0, 7n).snapshot, outcome('tx-0', {}));
  const missing = step(mined.snapshot, { type: 'DEPOSIT_CHECKED', attempt: 0, held: false, at: 6 });
  t.deepEqual(missing.snapshot.value, { pending: 'submitting' });
  const resubmitted = submitted(missing.snapshot, 1, 8n);
  const stale = step(resubmitted.snapshot, outcome('tx-0', { status: 'FAILED', reason: 'x' }));
  t.deepEqual(stale.snapshot.value, { pending: 'submitted' }, 'the old transaction’s outcome changes nothing');
  t.is(stale.context.attempt, 1);
});

test('the wallet gone at submission fails the request', (t) => {
  const refused = step(start().snapshot, { type: 'SUBMISSION_REFUSED', attempt: 0, failure: { code: 'EMBEDDED_WALLET_NOT_FOUND', message: 'gone' }, at: 2 });
  t.is(depositStatusOf(refused.snapshot.value), 'failed');
  t.like(refused.context.failure, { code: 'EMBEDDED_WALLET_NOT_FOUND' });
});

test('an outcome that comes before the submission’s own report is kept, and judged once the report comes', (t) => {
  const early = step(start().snapshot, outcome('8d92c464-d7c6-4be8-894e-813619b41e34-batch-0', {}));
  t.deepEqual(early.snapshot.value, { pending: 'submitting' });
  const reported = step(early.snapshot, {
    type: 'BATCH_SUBMITTED',
    attempt: 0,
    depositId: 7n,
    transactionId: '8d92c464-d7c6-4be8-894e-813619b41e34-batch-0',
    at: 3,
  });
  t.deepEqual(reported.snapshot.value, { pending: 'checking' }, 'the mined outcome was replayed');
  t.is(reported.context.earlyOutcome, null);
  t.is(reported.actions.filter((action) => action.type === 'checkDeposit').length, 1);
  const stranger = step(start().snapshot, outcome('another-transaction', {}));
  t.is(stranger.context.earlyOutcome, null, 'an outcome of another transaction is only acknowledged');
});
