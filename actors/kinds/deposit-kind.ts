/**
 * The `deposit` actor kind: one per atomic deposit creation, its id the request id. Its view is
 * document 3's status object (status, chainId, depositId, escrowAddress, transactionHash null
 * until confirmed) plus what an operator and the owner check need: the wallet, the fingerprint a
 * repeated request is compared with, the submission and, once failed, why.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { depositMachine, depositStatusOf, type DepositContext, type DepositRequest } from '../../machines/index.js';
import { depositEffects, type DepositEffectsOptions } from '../deposits/deposit-effects.js';
import { defineKind, withEffects } from '../runtime/actor-kind.js';

export const DEPOSIT_KIND = 'deposit';

export function depositView(snapshot: AnyMachineSnapshot) {
  const deposit = snapshot.context as DepositContext;
  const status = depositStatusOf(snapshot.value);
  return {
    requestId: deposit.requestId,
    status,
    chainId: deposit.chainId,
    depositId: deposit.depositId.toString(),
    escrowAddress: deposit.escrow,
    // Document 3: null until confirmed; a mined batch still being checked is not confirmed.
    transactionHash: status === 'confirmed' ? deposit.transactionHash : null,
    walletAddress: deposit.wallet.toLowerCase(),
    fingerprint: deposit.fingerprint,
    amount: deposit.amount.toString(),
    submissions: deposit.attempt + 1,
    transactionId: deposit.transactionId,
    failure: deposit.failure,
    createdAt: new Date(deposit.createdAt).toISOString(),
    updatedAt: new Date(deposit.updatedAt).toISOString(),
    confirmedAt: deposit.confirmedAt === null ? null : new Date(deposit.confirmedAt).toISOString(),
  };
}

export type DepositView = ReturnType<typeof depositView>;

/** The deposit kind as callers address it; a node that creates deposits registers `depositKindWith(options)`. */
export const depositKind = defineKind({
  name: DEPOSIT_KIND,
  machine: depositMachine,
  machineVersion: 1,
  createdBy: ['REQUEST'],
  input: ({ type: _type, ...request }: { type: 'REQUEST' } & DepositRequest): DepositRequest => request,
  view: (snapshot) => depositView(snapshot),
  // The reservation reads the requests still pending on an escrow.
  viewIndexes: [{ key: { 'view.status': 1, 'view.escrowAddress': 1 }, name: 'deposit_by_status' }],
});

export function depositKindWith(options: DepositEffectsOptions): typeof depositKind {
  return withEffects(depositKind, depositEffects(options));
}
