/**
 * The `payout` actor kind: one per payout (`po_…`), its id derived from the merchant and the
 * Idempotency-Key, so the actor itself is the key's record: a second request with the key
 * finds it, whether its first request is still preparing, failed to prepare, or created it.
 * The view is what reads and lists serve without waking the actor: the PayoutView, and at
 * the top level what lists filter on and the create compares (never in an answer).
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import {
  fundingStatusOf,
  payoutMachine,
  toPayoutView,
  type PayoutContext,
  type PayoutEvent,
  type PayoutPhase,
  type PayoutStatus,
} from '../../machines/payout/index.js';
import { defineKind, type Rejection } from '../runtime/actor-kind.js';
import { cashoutActions } from '../../machines/payout/cashout-actions.js';
import { customerSideStart } from '../../machines/payout/payout-machine.js';
import { methodView } from '../../machines/payout/payout-methods.js';
import { topState } from '../../machines/top-state.js';

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as PayoutContext;

/** The top state: a document 2 status, or one of the two before a payout exists. */
export function payoutPhaseOf(value: unknown): PayoutPhase {
  return topState(value) as PayoutPhase;
}

/** A confirm's listing or send is on its way: READY's LISTING_PENDING or SENDING. */
function listingPending(value: unknown): boolean {
  const ready = typeof value === 'object' && value !== null ? (value as { READY?: string }).READY : undefined;
  return ready === 'LISTING_PENDING' || ready === 'SENDING';
}

/** Funding is open until the deadline passes: AWAITING_FUNDING's WATCHING, not its CLOSING. */
function fundingOpen(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { AWAITING_FUNDING?: string }).AWAITING_FUNDING === 'WATCHING';
}

const CREATED_PHASES = new Set<PayoutPhase>(['AWAITING_FUNDING', 'FUNDED', 'READY', 'LISTING', 'PAYING', 'SETTLED', 'CANCELLED', 'EXPIRED']);

export function payoutView(snapshot: AnyMachineSnapshot) {
  const context = contextOf(snapshot);
  const phase = payoutPhaseOf(snapshot.value);
  const created = CREATED_PHASES.has(phase);
  return {
    payout: created ? toPayoutView(context, phase as PayoutStatus, fundingOpen(snapshot.value)) : null,
    phase,
    /** Whether routes show it: a payout whose preparation has not succeeded does not exist for the merchant. */
    listed: created,
    merchantId: context.merchantId,
    status: created ? (phase as PayoutStatus) : null,
    fundingStatus: created ? fundingStatusOf(context, phase as PayoutStatus) : null,
    // Internal: what the list filters on and the create compares; never in an answer.
    customerEmail: context.customerEmail,
    merchantReference: context.merchantReference,
    idempotencyKey: context.idempotencyKey,
    requestHash: context.requestHash,
    requestId: context.requestId,
    /** The customer's account at the wallet provider: who may act on the payout's checkout. */
    walletUserId: context.walletUserId,
    /** What the customer's checkout offers and shows. */
    rails: context.terms.rails,
    timeline: context.timeline,
    walletAddress: context.walletAddress,
    actions: created ? cashoutActions(context, phase as PayoutStatus, listingPending(snapshot.value)) : [],
    method: context.method ? methodView(context.method) : null,
    listingError: context.listingError ?? context.sendError,
    preparationError: context.preparationError,
    hasFundingRecord: context.transfers.length > 0,
    /** The order this payout refunds (docs/refunds.md), or null for a payout of its own. */
    refundOf: context.refundOf ?? null,
    createdAt: context.createdAt,
  };
}

export type PayoutKindView = ReturnType<typeof payoutView>;

export function payoutRefusal(snapshot: AnyMachineSnapshot, event: EventObject): Rejection | null {
  const context = contextOf(snapshot);
  const phase = payoutPhaseOf(snapshot.value);
  const command = event as PayoutEvent;
  switch (command.type) {
    case 'CANCEL': {
      const fundingStatus = CREATED_PHASES.has(phase) ? fundingStatusOf(context, phase as PayoutStatus) : null;
      if (phase !== 'AWAITING_FUNDING' || fundingStatus !== 'AWAITING_FUNDING')
        return {
          code: 'PAYOUT_NOT_CANCELLABLE',
          message: `payout ${context.id} is ${phase} with funding ${fundingStatus ?? 'not opened'}: only a payout still awaiting its first funding can be cancelled`,
          details: { status: phase, fundingStatus },
        };
      if (context.transfers.length > 0)
        return {
          code: 'PAYOUT_FUNDING_DETECTED',
          message: `the conversion provider has a record at payout ${context.id}'s deposit address: it expires at its deadline if no USDC arrives and nothing is converting`,
        };
      return null;
    }
    case 'RETRY':
      return phase === 'NOT_CREATED' ? null : { code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS', message: `payout ${context.id} is ${phase}` };
    case 'REMOVE_RAIL':
      if (!context.terms.rails.includes(command.rail))
        return {
          code: 'PAYOUT_RAIL_NOT_OFFERED',
          message: `payout ${context.id} does not offer ${command.rail} (it offers ${context.terms.rails.join(', ') || 'nothing'})`,
        };
      if (phase !== 'AWAITING_FUNDING' && phase !== 'FUNDED')
        return { code: 'PAYOUT_RAILS_FINAL', message: `payout ${context.id} is ${phase}: its rails no longer change` };
      return null;
    case 'SAVE_METHOD':
    case 'SKIP_CONNECT':
    case 'CONFIRM':
      return CREATED_PHASES.has(phase) ? checkoutRefusal(context, phase as PayoutStatus, listingPending(snapshot.value), command) : null;
    default:
      return null;
  }
}

/** The customer's actions, refused with the payout's status and what it offers instead (document 2's customer 409s). */
function checkoutRefusal(
  context: PayoutContext,
  status: PayoutStatus,
  pending: boolean,
  command: Extract<PayoutEvent, { type: 'SAVE_METHOD' | 'SKIP_CONNECT' | 'CONFIRM' }>,
): Rejection | null {
  const actions = cashoutActions(context, status, pending);
  const refuse = (code: Rejection['code'], message: string): Rejection => ({ code, message, details: { status, actions } });
  if (pending) return refuse('CASHOUT_SEND_IN_PROGRESS', 'The listing or transfer is on its way: wait for it');
  switch (command.type) {
    case 'SAVE_METHOD':
      if (!actions.includes('SAVE_METHOD')) return refuse('CASHOUT_METHOD_LOCKED', `The payout is ${status}: its method can no longer change`);
      if (!context.terms.rails.includes(command.method.rail))
        return command.method.kind === 'FIAT'
          ? { code: 'CASHOUT_RAIL_UNAVAILABLE', message: `This payout does not offer ${command.method.rail}` }
          : { code: 'CASHOUT_PAYOUT_NETWORK_UNAVAILABLE', message: `This payout does not offer ${command.method.rail}` };
      return null;
    case 'SKIP_CONNECT':
      return actions.includes('SKIP_CONNECT') ? null : refuse('CASHOUT_SKIP_NOT_ALLOWED', 'There is no account connection to skip');
    case 'CONFIRM':
      return actions.includes('CONFIRM') ? null : refuse('CASHOUT_NOT_READY', 'Choose how to be paid first');
  }
}

export const payoutKind = defineKind({
  name: 'payout',
  machine: payoutMachine,
  machineVersion: 2,
  // Version 2 added the customer's side: a payout stored before it has none of it yet.
  migrations: {
    1: (persisted) => ({
      ...persisted,
      context: {
        ...customerSideStart(),
        ...(persisted.context as Record<string, unknown>),
      },
    }),
  },
  createdBy: ['CREATE'],
  view: (snapshot) => payoutView(snapshot),
  check: payoutRefusal,
  viewIndexes: [
    { key: { 'view.merchantId': 1, 'view.listed': 1, 'view.createdAt': -1 }, name: 'payout_by_merchant_newest' },
    { key: { 'view.merchantId': 1, 'view.status': 1, 'view.createdAt': -1 }, name: 'payout_by_merchant_status_newest' },
    { key: { 'view.requestId': 1 }, name: 'payout_by_funding_request' },
  ],
});
