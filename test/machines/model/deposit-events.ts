/**
 * The deposit model's inputs: one atomic-create request (deposit 7 reserved), and what its
 * effects and the relayer report back. Each submission `n` is reported for deposit `7 + n`
 * under the relayer transaction `<requestId>-batch-<n>`, as the effects name them; the
 * outcomes cover every way the machine judges one: mined, a lost race for the id
 * (`DepositIdTaken`), an expired batch, a simulation revert (no hash), a revert on chain, a
 * dropped and a replaced transaction, an outcome of an earlier submission's transaction, and
 * one that comes before its submission's BATCH_SUBMITTED. A BATCH_SUBMITTED of an earlier
 * submission is offered too: no transition takes it, so the walk never sends it.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { ATOMIC_CREATE_PURPOSE, type DepositChain, type EmbeddedWalletProvider } from '../../../actors/deposits/index.js';
import { batchTransactionId } from '../../../machines/index.js';
import { depositKindWith } from '../../../actors/kinds/index.js';
import type { Relayer } from '../../../actors/relayer/relayer.js';
import type { DepositContext, DepositEvent, DepositRequest, SetupCall } from '../../../machines/deposit/index.js';
import type { Hex } from 'viem';
import type { OutcomeStatus } from '../../../machines/transaction/index.js';
import { sample, type Variant } from '../../support/model-paths.js';

/** The effects are stood in for by the runner: nothing reaches the chain, the wallet provider or the relayer. */
const unreachable = () => Promise.reject(new Error('the model tests never reach the chain, the wallet provider or the relayer'));

const ESCROW: Hex = '0x00000000000000000000000000000000000e5c40';
const USDC: Hex = '0x0000000000000000000000000000000000005dc0';

const CHAIN: DepositChain = {
  targets: {
    chainId: 31337,
    usdc: USDC,
    escrow: ESCROW,
    depositAssertions: '0x00000000000000000000000000000000000a5517',
    batchExecutor: '0x000000000000000000000000000000000000ba7c',
  },
  depositCount: unreachable,
  depositorOf: unreachable,
  delegatesToExecutor: unreachable,
  accountNonce: unreachable,
  latestBlockTime: unreachable,
  dustThreshold: unreachable,
};

const WALLETS: EmbeddedWalletProvider = { wallet: unreachable };

/** The relayer's three calls; the class itself wants an actor system. */
const RELAYER: Pick<Relayer, 'send' | 'cancel' | 'read'> = { send: unreachable, cancel: unreachable, read: unreachable };

export const DEPOSIT_KIND = depositKindWith({
  chain: CHAIN,
  wallets: WALLETS,
  relayer: RELAYER as Relayer,
  deposits: () => {
    throw new Error('the model tests never reserve a deposit id');
  },
  batchTtlSeconds: 3_600n,
});

const REQUEST_ID = '7d8e5a52-1c0b-4b8e-9f5e-3d1a2b4c5d6e';
const WALLET: Hex = '0xA0Ee7A142d267C1f36714E4a8F75612F20a79720';
const RESERVED = 7n;
const AT = Date.UTC(2026, 10, 23, 12);

const CALLS: SetupCall[] = [
  { field: 'calls.approve', functionName: 'approve', target: USDC, data: '0x095ea7b3', takesDepositId: false },
  { field: 'calls.createDeposit', functionName: 'createDeposit', target: ESCROW, data: '0x1e1a4a26', takesDepositId: false },
  { field: 'calls.configureDeposit', functionName: 'setPaymentMethod', target: ESCROW, data: '0x5e7a0000', takesDepositId: true },
];

const request: DepositRequest = {
  requestId: REQUEST_ID,
  wallet: WALLET,
  chainId: 31337,
  escrow: ESCROW,
  fingerprint: 'f1ngerpr1nt',
  calls: CALLS,
  amount: 100_000_000n,
  depositId: RESERVED,
  at: AT,
};

export const DEPOSIT_VARIANTS: Variant[] = [{ name: 'atomic create', id: REQUEST_ID, create: { type: 'REQUEST', ...request } }];

/** The deposit submission `attempt` is built for: the reservation first, then the next id each time it was lost. */
export const depositIdOf = (attempt: number): bigint => RESERVED + BigInt(attempt);

/** The hash of submission `attempt`'s transaction. */
export const minedHashOf = (attempt: number): Hex => `0x${String(attempt + 1).repeat(64)}`;

function outcome(label: string, transactionId: string, attempt: number, status: OutcomeStatus, hash: Hex | null, reason: string | null): DepositEvent {
  const mined = hash !== null;
  return sample(label, {
    type: 'TRANSACTION_OUTCOME',
    transactionId,
    purpose: ATOMIC_CREATE_PURPOSE,
    outcome: {
      status,
      hash,
      blockNumber: mined ? 12n + BigInt(attempt) : null,
      gasUsed: mined ? 410_000n : null,
      effectiveGasPrice: mined ? 1_500_000_000n : null,
      reason,
      revertData: reason === null ? null : '0xdeadbeef',
      at: AT + 2_000,
    },
  });
}

export function depositEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const { attempt, transactionId } = snapshot.context as DepositContext;
  const reserved = depositIdOf(attempt);
  const hash = minedHashOf(attempt);
  const events: DepositEvent[] = [
    sample('current', { type: 'BATCH_SUBMITTED', attempt, depositId: reserved, transactionId: batchTransactionId(REQUEST_ID, attempt), at: AT + 1_000 }),
    sample('no wallet', {
      type: 'SUBMISSION_REFUSED',
      attempt,
      failure: { code: 'EMBEDDED_WALLET_NOT_FOUND', message: `the wallet provider holds no embedded wallet ${WALLET}` },
      at: AT + 1_000,
    }),
    sample('held', { type: 'DEPOSIT_CHECKED', attempt, held: true, at: AT + 3_000 }),
    sample('missing', { type: 'DEPOSIT_CHECKED', attempt, held: false, at: AT + 3_000 }),
  ];
  if (transactionId !== null) {
    // The outcomes of the submission's transaction, once its BATCH_SUBMITTED named it.
    events.push(
      outcome('mined', transactionId, attempt, 'MINED', hash, null),
      outcome('id taken', transactionId, attempt, 'FAILED', hash, `DepositIdTaken(${reserved}, ${reserved + 1n})`),
      outcome('expired', transactionId, attempt, 'FAILED', hash, 'BatchExpired(1795435200)'),
      outcome(
        'simulation revert',
        transactionId,
        attempt,
        'FAILED',
        null,
        'ERC20InsufficientBalance(0xa0ee7a142d267c1f36714e4a8f75612f20a79720, 0, 100000000)',
      ),
      outcome('reverted on chain', transactionId, attempt, 'FAILED', hash, 'AmountBelowMin()'),
      outcome('dropped', transactionId, attempt, 'DROPPED', null, 'the nonce was used by another transaction'),
      outcome('replaced', transactionId, attempt, 'REPLACED', `0x${'e'.repeat(64)}`, null),
    );
  } else {
    // Before its BATCH_SUBMITTED: the transaction the effect handed to the relayer (a rerun effect reports late) mined already.
    events.push(outcome('mined before its report', batchTransactionId(REQUEST_ID, attempt), attempt, 'MINED', hash, null));
  }
  if (attempt > 0) {
    // An earlier submission's report, and its transaction's outcome, arriving late: both were judged already.
    const older = attempt - 1;
    events.push(
      sample('older', {
        type: 'BATCH_SUBMITTED',
        attempt: older,
        depositId: depositIdOf(older),
        transactionId: batchTransactionId(REQUEST_ID, older),
        at: AT + 1_000,
      }),
    );
    events.push(
      outcome(
        'stale',
        batchTransactionId(REQUEST_ID, older),
        older,
        'FAILED',
        minedHashOf(older),
        `DepositIdTaken(${depositIdOf(older)}, ${depositIdOf(older) + 1n})`,
      ),
    );
  }
  return events;
}

/** What the guards read besides the event: the submission (its transaction id follows from it and the state). */
export function depositAbstraction(snapshot: AnyMachineSnapshot): unknown {
  return { value: snapshot.value, attempt: (snapshot.context as DepositContext).attempt };
}
