/**
 * The transaction model's inputs: a transaction an owner waits on and one nobody does,
 * and what its effects report back. Hashes follow the attempts: a receipt and a broadcast
 * name the latest attempt, a replacement is a fee bump or, once a cancel was asked for,
 * a cancellation. NOT_MINED comes included (no bump), fresh (no bump yet) or stale.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { transactionKindFor } from '../../../actors/kinds/index.js';
import type { RelayerChain } from '../../../actors/adapters/chain/relayer-chain.js';
import { latestAttempt, type Hex, type SendingPolicy, type TransactionContext, type TransactionEvent } from '../../../machines/transaction/index.js';
import { sample, type Variant } from '../../support/model-paths.js';

const FROM: Hex = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';
const POLICY: SendingPolicy = { confirmations: 1, checkEveryMs: 2_000, bumpAfterMs: 60_000, maxFeePerGas: 200_000_000_000n };

/** The effects are stood in for by the runner: nothing reaches the chain. */
const unreachable = () => Promise.reject(new Error('the model tests never reach the chain'));
const CHAIN: RelayerChain = {
  chainId: 31337,
  wallets: [FROM],
  estimateGas: unreachable,
  fees: unreachable,
  nonce: unreachable,
  sign: unreachable,
  broadcast: unreachable,
  receipt: unreachable,
  blockNumber: unreachable,
  revertOf: unreachable,
};

export const TRANSACTION_KIND = transactionKindFor({ chain: CHAIN, policy: POLICY });

const SIGNED_AT = Date.UTC(2026, 10, 23, 12);
const prepare = (owner: { kind: string; id: string } | null) => ({
  type: 'PREPARE',
  to: '0x000000000000000000000000000000000000c0de',
  data: '0xabcdef',
  value: 0n,
  purpose: 'fulfillIntent',
  owner,
  at: SIGNED_AT,
});

export const TRANSACTION_VARIANTS: Variant[] = [
  { name: 'owned', id: 'tx_model_owned', create: prepare({ kind: 'payment', id: 'pay_model' }) },
  { name: 'unowned', id: 'tx_model_unowned', create: prepare(null) },
];

const fees = { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
const hashOf = (digit: string): Hex => `0x${digit.repeat(64)}`;

export function transactionEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const context = snapshot.context as TransactionContext;
  const latest = latestAttempt(context);
  const count = context.attempts.length;
  const replacement = context.cancelRequested || latest?.kind === 'CANCELLATION' ? 'CANCELLATION' : 'FEE_BUMP';
  const events: TransactionEvent[] = [
    { type: 'ESTIMATED', gasLimit: 60_000n, at: SIGNED_AT + 100 },
    { type: 'SIMULATION_REVERTED', reason: 'IntentNotFound(0x01)', revertData: '0xdeadbeef', at: SIGNED_AT + 100 },
    { type: 'SIGNED', nonce: 7n, hash: hashOf('1'), raw: '0x01', kind: 'ORIGINAL', ...fees, signedAt: SIGNED_AT + 200 },
    { type: 'REPLACEMENT_SIGNED', hash: hashOf(String(count + 1)), raw: '0x02', kind: replacement, ...fees, signedAt: SIGNED_AT + 300 },
    { type: 'BUMP_CAPPED', at: SIGNED_AT + 300 },
    { type: 'NONCE_TOO_LOW', at: SIGNED_AT + 400 },
    { type: 'NONCE_USED_ELSEWHERE', at: SIGNED_AT + 500 },
    { type: 'CANCEL', at: SIGNED_AT + 150 },
    sample('included', { type: 'NOT_MINED', included: true, at: SIGNED_AT + 1_000 }),
    sample('fresh', { type: 'NOT_MINED', included: false, at: SIGNED_AT + 1_000 }),
    sample('stale', { type: 'NOT_MINED', included: false, at: SIGNED_AT + 120_000 }),
  ];
  if (latest) {
    events.push({ type: 'BROADCAST', hash: latest.hash, at: SIGNED_AT + 400 });
    const receipt = { hash: latest.hash, blockNumber: 12n, gasUsed: 50_000n, effectiveGasPrice: 1_500_000_000n, revertData: null, at: SIGNED_AT + 2_000 };
    events.push(sample('succeeded', { type: 'RECEIPT', ...receipt, succeeded: true, reason: null }));
    events.push(sample('reverted', { type: 'RECEIPT', ...receipt, succeeded: false, reason: 'Error("no")' }));
  }
  return events;
}

/** What the guards read: whether a cancel was asked for, and the kinds of attempts so far (two at most matter). */
export function transactionAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const context = snapshot.context as TransactionContext;
  return {
    value: snapshot.value,
    cancelRequested: context.cancelRequested,
    submitted: context.submittedAt !== null,
    attempts: context.attempts.slice(-2).map((attempt) => attempt.kind),
    cancellation: context.attempts.some((attempt) => attempt.kind === 'CANCELLATION'),
  };
}
