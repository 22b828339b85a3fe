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
import { unpaidUsdc } from '../../machines/payout/listing-state.js';
import { formatTokenAmount, formatUsdcCents } from '../../machines/money.js';
import { bridgeView, settleTxOf } from '../../machines/payout/bridge-view.js';
import { customerSideStart } from '../../machines/payout/payout-machine.js';
import { connectsAccount, methodView } from '../../machines/payout/payout-methods.js';
import { topState } from '../../machines/top-state.js';

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as PayoutContext;

/** The top state: a document 2 status, or one of the two before a payout exists. */
export function payoutPhaseOf(value: unknown): PayoutPhase {
  return topState(value) as PayoutPhase;
}

/** Something the customer started is on its way: a listing, a send, a listing's exit or a bridge. Nothing else may start meanwhile. */
function listingPending(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { READY: ready, LISTING: listing } = value as { READY?: string; LISTING?: string };
  return (ready !== undefined && ready !== 'IDLE') || (listing !== undefined && listing !== 'OPEN');
}

/** A bridge QUOTED or BRIDGING: document 2 blocks every customer action with CASHOUT_PAYOUT_BRIDGING until it ends. */
function bridgeLive(context: PayoutContext): boolean {
  const status = context.bridges.at(-1)?.status;
  return status === 'QUOTED' || status === 'BRIDGING';
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
    // A view holds no bigint: each issue's amount in its unit's decimals (a route refund is in the funding token).
    fundingIssues: context.issues.map((issue) => ({
      kind: issue.kind,
      transferId: issue.transferId,
      amount: issue.kind === 'ROUTE_REFUND' ? formatTokenAmount(issue.amount, context.funding.decimals) : formatUsdcCents(issue.amount),
      unit: issue.kind === 'ROUTE_REFUND' ? context.funding.symbol : 'USDC',
      txHash: issue.txHash,
      occurredAt: issue.occurredAt,
    })),
    walletAddress: context.walletAddress,
    actions: created ? cashoutActions(context, phase as PayoutStatus, listingPending(snapshot.value)) : [],
    method: context.method ? methodView(context.method) : null,
    /** A Venmo, Cash App or PayPal method's account connection: whether it is connected (or skipped), and until when. */
    connection: context.method?.kind === 'FIAT' ? { status: context.method.connection, connectedUntil: context.method.connectedUntil ?? null } : null,
    /** Internal: the saved fiat method's normalised account, what a connection must attest; never in an answer. */
    payeeId: context.method?.kind === 'FIAT' ? context.method.payeeId : null,
    listingError: context.listingError ?? context.sendError,
    bridge: bridgeView(context),
    settleTx: created ? settleTxOf(context, phase as PayoutStatus) : null,
    /** USDC still the customer's to be paid, in base units: what a quote prices and a send-to-address sends. */
    unpaidUsdc: unpaidUsdc(context).toString(),
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
    case 'SEND_TO_ADDRESS':
    case 'WITHDRAW':
    case 'RELIST':
    case 'CONNECTED':
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
  command: Extract<PayoutEvent, { type: 'SAVE_METHOD' | 'SKIP_CONNECT' | 'CONFIRM' | 'SEND_TO_ADDRESS' | 'WITHDRAW' | 'RELIST' | 'CONNECTED' }>,
): Rejection | null {
  const actions = cashoutActions(context, status, pending);
  const refuse = (code: Rejection['code'], message: string): Rejection => ({ code, message, details: { status, actions } });
  if (bridgeLive(context)) return refuse('CASHOUT_PAYOUT_BRIDGING', 'Your payout is with the provider on its way to your address: wait for it to arrive');
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
    case 'CONNECTED': {
      const method = context.method;
      if (!actions.includes('SAVE_METHOD') || method?.kind !== 'FIAT' || !connectsAccount(method.rail))
        return refuse('CASHOUT_METHOD_LOCKED', 'There is no account to connect on this payout now');
      return method.payeeId === command.payeeId
        ? null
        : { code: 'CASHOUT_PAYEE_HANDLE_INVALID', message: `The ${method.rail} account you signed in to is not ${method.handle}` };
    }
    case 'CONFIRM': {
      if (!actions.includes('CONFIRM')) return refuse('CASHOUT_NOT_READY', 'Choose how to be paid first');
      const method = context.method;
      // Document 2: a listing needs a deposit of 10 to 1,000 USDC (the node's floor); a crypto send has no such range.
      if (method?.kind === 'FIAT' && unpaidUsdc(context) < BigInt(command.minUsdc))
        return {
          code: 'CASHOUT_AMOUNT_OUTSIDE_RAIL_LIMITS',
          message: `${formatUsdcCents(unpaidUsdc(context))} USDC is below the smallest listing (${formatUsdcCents(BigInt(command.minUsdc))} USDC): choose a crypto address instead`,
        };
      if (method?.kind === 'FIAT' && method.connection === 'CONNECTED' && method.connectedUntil !== undefined && command.at > method.connectedUntil)
        return {
          code: 'CASHOUT_CREDENTIAL_INACTIVE',
          message: `Your ${method.rail} connection has lapsed: connect the account again, or continue without connecting`,
        };
      if (command.bridge && BigInt(command.bridge.usdcAmount) !== unpaidUsdc(context))
        return refuse('CASHOUT_CONFIRM_CONFLICT', 'Your payout changed while it was priced: look again and confirm');
      return null;
    }
    case 'SEND_TO_ADDRESS':
      if (!actions.includes('SEND_TO_ADDRESS'))
        return refuse('CASHOUT_SEND_NOT_ALLOWED', 'Sending to an address needs part paid by a buyer, the rest listed and no buyer paying now');
      if (!context.terms.rails.includes(command.method.rail))
        return { code: 'CASHOUT_PAYOUT_NETWORK_UNAVAILABLE', message: `This payout does not offer ${command.method.rail}` };
      if (BigInt(command.remainderUsdc) !== unpaidUsdc(context))
        return refuse('CASHOUT_REMAINDER_CHANGED', 'What is left changed before it could be sent: look again and retry');
      return null;
    case 'RELIST':
      return actions.includes('RELIST')
        ? null
        : refuse(
            'CASHOUT_RELIST_NOT_ALLOWED',
            status === 'LISTING'
              ? 'The listing already takes what is left, or what is left is below the smallest listing'
              : `A ${status} payout cannot be listed again now`,
          );
    case 'WITHDRAW':
      if (status === 'PAYING') return refuse('CASHOUT_BUYER_PAYMENT_ACTIVE', 'A buyer is paying you now: the listing can be taken back once they finish');
      return actions.includes('WITHDRAW') ? null : refuse('CASHOUT_ATTEMPT_NOT_LISTED', 'Nothing is listed to take back');
  }
}

function startCustomerSide(persisted: Record<string, unknown>): Record<string, unknown> {
  return { ...persisted, context: { ...customerSideStart(), ...(persisted.context as Record<string, unknown>) } };
}

export const payoutKind = defineKind({
  name: 'payout',
  machine: payoutMachine,
  machineVersion: 3,
  // Version 2 added the customer's side, version 3 its bridges and listing exits: a payout stored before has none of them yet.
  migrations: {
    1: startCustomerSide,
    // LISTING gained substates (a listing stored as a plain LISTING is an open one), and a listing its dust threshold (none known: nothing swept is assumed) and its range's max (as listed).
    2: (persisted) => {
      const context = persisted.context as { listing?: Record<string, unknown> | null };
      const listing = context.listing
        ? { ...context.listing, dustUsdc: 0n, maxUsdc: (context.listing.listedUsdc as bigint) < 1_000_000_000n ? context.listing.listedUsdc : 1_000_000_000n }
        : context.listing;
      return startCustomerSide({
        ...persisted,
        value: persisted.value === 'LISTING' ? { LISTING: 'OPEN' } : persisted.value,
        context: { ...context, listing },
      });
    },
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
