/**
 * The `transaction` actor kind: one per chain transaction the relayer sends. Its view
 * is what an operator reads: where the transaction stands, its attempts (without the
 * signed bytes) and its outcome, amounts as decimal strings.
 */
import { createHash } from 'node:crypto';
import type { AnyMachineSnapshot } from 'xstate';
import {
  delegationOf,
  latestAttempt,
  transactionMachine,
  transactionStatusOf,
  type Hex,
  type SendingPolicy,
  type TransactionContext,
  type TransactionInput,
  type TransactionRequest,
} from '../../machines/transaction/index.js';
import type { RelayerChain } from '../adapters/chain/relayer-chain.js';
import { transactionEffects } from '../relayer/transaction-effects.js';
import { defineKind, withEffects, type Rejection } from '../runtime/actor-kind.js';

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as TransactionContext;

export function transactionView(snapshot: AnyMachineSnapshot) {
  const tx = contextOf(snapshot);
  const outcome = tx.outcome;
  return {
    id: tx.id,
    status: transactionStatusOf(snapshot.value),
    // The inner step, for an operator: estimating, signing, broadcasting, checking, waiting, replacing, rebroadcasting.
    step: typeof snapshot.value === 'string' ? null : Object.values(snapshot.value as Record<string, string>)[0]!,
    purpose: tx.purpose,
    owner: tx.owner,
    chainId: tx.chainId,
    from: tx.from,
    to: tx.to,
    data: tx.data,
    // Whose code the transaction installs (EIP-7702): the delegating accounts and the code they point at.
    delegations: (tx.authorizationList ?? []).map((authorization) => ({
      address: authorization.address,
      chainId: authorization.chainId,
      nonce: authorization.nonce,
    })),
    value: tx.value.toString(),
    gasLimit: tx.gasLimit?.toString() ?? null,
    nonce: tx.nonce?.toString() ?? null,
    hash: outcome?.hash ?? latestAttempt(tx)?.hash ?? null,
    attempts: tx.attempts.map((attempt) => ({
      hash: attempt.hash,
      kind: attempt.kind,
      maxFeePerGas: attempt.maxFeePerGas.toString(),
      maxPriorityFeePerGas: attempt.maxPriorityFeePerGas.toString(),
      signedAt: attempt.signedAt,
    })),
    cancelRequested: tx.cancelRequested,
    outcome: outcome && {
      status: outcome.status,
      hash: outcome.hash,
      blockNumber: outcome.blockNumber?.toString() ?? null,
      gasUsed: outcome.gasUsed?.toString() ?? null,
      effectiveGasPrice: outcome.effectiveGasPrice?.toString() ?? null,
      reason: outcome.reason,
      revertData: outcome.revertData,
      at: outcome.at,
    },
    submittedAt: tx.submittedAt,
    createdAt: tx.createdAt,
    updatedAt: tx.updatedAt,
  };
}

export type TransactionView = ReturnType<typeof transactionView>;

export interface TransactionKindOptions {
  chain: RelayerChain;
  policy: SendingPolicy;
}

/** The wallet a transaction sends from: the one its PREPARE names, else one picked by its id, so a retried PREPARE picks the same. */
export function walletFor(wallets: readonly Hex[], id: string, requested?: unknown): Hex {
  if (typeof requested === 'string') {
    const found = wallets.find((wallet) => wallet.toLowerCase() === requested.toLowerCase());
    if (!found) throw new TypeError(`the relayer holds no key for ${requested}`);
    return found;
  }
  const digest = createHash('sha256').update(id).digest();
  return wallets[digest.readUInt32BE(0) % wallets.length]!;
}

/** What a caller sends to prepare a transaction; the relayer node fills in its chain, wallet and policy. */
export type PrepareTransactionEvent = { type: 'PREPARE'; at: number; from?: string } & TransactionRequest;

/**
 * The transaction kind as callers address it. A relayer node registers `transactionKindFor`,
 * which knows the chain and the sending policy the machine's input is made with.
 */
export const transactionKind = defineKind<typeof transactionMachine, TransactionView, TransactionView, 'PREPARE', PrepareTransactionEvent>({
  name: 'transaction',
  machine: transactionMachine,
  machineVersion: 1,
  createdBy: ['PREPARE'],
  view: (snapshot) => transactionView(snapshot),
  check: (snapshot, event): Rejection | null => {
    if (event.type === 'CANCEL' && snapshot.status === 'done') {
      return {
        code: 'TRANSACTION_FINAL',
        message: `transaction ${contextOf(snapshot).id} has already ended ${transactionStatusOf(snapshot.value)}`,
      };
    }
    return null;
  },
  viewIndexes: [{ key: { 'view.status': 1, 'view.from': 1, 'view.createdAt': 1 }, name: 'transaction_by_status' }],
});

export function transactionKindFor({ chain, policy }: TransactionKindOptions): typeof transactionKind {
  if (chain.wallets.length === 0) throw new Error('the relayer needs at least one key to send from');
  return {
    ...withEffects(transactionKind, transactionEffects(chain)),
    input: (prepare, id): TransactionInput => ({
      id,
      chainId: chain.chainId,
      from: walletFor(chain.wallets, id, prepare.from),
      to: prepare.to,
      data: prepare.data,
      value: BigInt(prepare.value ?? 0n),
      purpose: prepare.purpose,
      owner: prepare.owner ?? null,
      ...delegationOf(prepare),
      policy,
      at: prepare.at,
    }),
  };
}
