/**
 * Model-based tests of the payout machine on the `payout` kind, against document 2's tables
 * (../shared/spec/2-payout-api.md, "States and transitions" and "Funding behaviour") as far
 * as the merchant's side reaches: created, funded, partially funded, expired, cancelled,
 * and money arriving after funding closed. PREPARING and NOT_CREATED come before document
 * 2's states: PREPARING counts as (new), so the (new) row is met when the provider and the
 * wallet provider answered (PREPARED); the steps into and out of NOT_CREATED are beyond it.
 * The deadline's timer moves the machine to one more look (CLOSING): the FUNDING_OBSERVED
 * that look reports is the step the document's "deadline passes" rows are met by.
 * The cancel refusals are the kind's, which the walk never offers: they are checked below.
 */
import test from 'ava';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { payoutPhaseOf, payoutRefusal } from '../../../actors/kinds/index.js';
import {
  fundingStatusOf,
  methodReady,
  tallyOf,
  type PayoutContext,
  type PayoutEvent,
  type PayoutPhase,
  type PayoutStatus,
} from '../../../machines/payout/index.js';
import { NEW, type DocumentRow, type DocumentTable } from '../../support/model-document.js';
import { eventLabel, stateName } from '../../support/model-machine.js';
import { modelSteps, type MachineModel, type ModelStep } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { FUNDING_AMOUNT, PAYOUT_KIND, PAYOUT_USDC, PAYOUT_VARIANTS, payoutAbstraction, payoutEvents } from './payout-events.js';

const STATES = 'document 2, States and transitions';
const FUNDING = 'document 2, Funding behaviour';
/** Ours where document 2 says "not shown" (docs/payout-checkout.md). */
const CHECKOUT = 'docs/payout-checkout.md';
const PAYOUT_EVENTS = [
  'PAYOUT_ORDER_CREATED',
  'PAYOUT_ORDER_PARTIALLY_FUNDED',
  'PAYOUT_ORDER_FUNDED',
  'PAYOUT_ORDER_MATCHED',
  'PAYOUT_ORDER_PARTIALLY_PAID',
  'PAYOUT_ORDER_SETTLED',
  'PAYOUT_ORDER_CANCELLED',
  'PAYOUT_ORDER_EXPIRED',
];

const after = (step: ModelStep) => step.after.context as PayoutContext;
const before = (step: ModelStep) => step.before!.context as PayoutContext;
const fundingStatus = (snapshot: AnyMachineSnapshot) => fundingStatusOf(snapshot.context as PayoutContext, payoutPhaseOf(snapshot.value) as PayoutStatus);
/** The deadline's timer fired: this is the one more look it asks for. */
const closing = (step: ModelStep) => stateName(step.before!.value) === 'AWAITING_FUNDING.CLOSING';
const reported = (step: ModelStep) => (step.event as Extract<PayoutEvent, { type: 'FUNDING_OBSERVED' }>).transfers;
const grew = (step: ModelStep) => after(step).receivedUsdc > before(step).receivedUsdc;
const issueOf = (step: ModelStep, kind: string, transferId: string | null) =>
  after(step).issues.some((issue) => issue.kind === kind && issue.transferId === transferId);
/** What is left to pay after the step. */
const restOf = (step: ModelStep) => (after(step).depositAmount ?? 0n) - after(step).paidUsdc - after(step).refundFeeUsdc;
const funded = (step: ModelStep) => after(step).fundedAt !== null && after(step).depositAmount !== null;

/** Money reaching a payout that left AWAITING_FUNDING: recorded, never counted (document 2, Funding issues). */
function lateFundsRow(status: PayoutStatus): DocumentRow {
  return {
    section: `${FUNDING}, Funding issues`,
    row: `money reaching the payout once ${status}: a funding issue, the status unchanged`,
    from: [status],
    by: ['FUNDING_OBSERVED'],
    to: status,
    emits: [],
    when: (step) => reported(step).some((transfer) => transfer.status === 'delivered' || transfer.status === 'refunded'),
    holds: {
      what: 'each delivery it did not count is late funds and each refund a route refund; what was received, the deposit and fundedAt are untouched',
      check: (step) =>
        reported(step).every(
          (transfer) =>
            (transfer.status === 'delivered' && (before(step).countedTransferIds.includes(transfer.id) || issueOf(step, 'LATE_FUNDS', transfer.id))) ||
            (transfer.status === 'refunded' && issueOf(step, 'ROUTE_REFUND', transfer.id)) ||
            (transfer.status !== 'delivered' && transfer.status !== 'refunded'),
        ) &&
        after(step).receivedUsdc === before(step).receivedUsdc &&
        after(step).depositAmount === before(step).depositAmount &&
        after(step).fundedAt === before(step).fundedAt &&
        after(step).countedTransferIds.join() === before(step).countedTransferIds.join(),
    },
  };
}

const NOT_YET_A_PAYOUT = 'the payout does not exist for the merchant until the provider and the wallet provider answered';

const document: DocumentTable = {
  events: PAYOUT_EVENTS,
  rows: [
    {
      section: `${STATES}, (new) create`,
      row: 'payout created: AWAITING_FUNDING, fundingStatus AWAITING_FUNDING',
      from: [NEW],
      by: ['PREPARED'],
      to: 'AWAITING_FUNDING',
      emits: ['PAYOUT_ORDER_CREATED'],
      holds: {
        what: 'fundingStatus AWAITING_FUNDING, funding.amount the quoted 104.123712 and the deposit address set',
        check: (step) =>
          fundingStatus(step.after) === 'AWAITING_FUNDING' && after(step).fundingAmount === FUNDING_AMOUNT && after(step).depositAddress !== null,
      },
    },
    {
      section: `${STATES}; ${FUNDING}`,
      row: 'USDC received covers the payout: FUNDED',
      from: ['AWAITING_FUNDING'],
      by: ['FUNDING_OBSERVED'],
      to: 'FUNDED',
      emits: ['PAYOUT_ORDER_FUNDED'],
      when: (step) => after(step).receivedUsdc >= PAYOUT_USDC,
      holds: {
        what: 'depositAmount the payout (never more), fundedAt set, fundingStatus FUNDED',
        check: (step) => funded(step) && after(step).depositAmount === PAYOUT_USDC && fundingStatus(step.after) === 'FUNDED',
      },
    },
    {
      section: `${STATES}; ${FUNDING}`,
      row: 'full funding.amount sent and USDC arrived, nothing converting: FUNDED',
      from: ['AWAITING_FUNDING'],
      by: ['FUNDING_OBSERVED'],
      to: 'FUNDED',
      emits: ['PAYOUT_ORDER_FUNDED'],
      when: (step) => !closing(step) && after(step).receivedUsdc < PAYOUT_USDC,
      holds: {
        what: 'the whole funding.amount sent, nothing converting, depositAmount what arrived (below one step), fundedAt set',
        check: (step) => {
          const tally = tallyOf(after(step));
          return tally.sent >= FUNDING_AMOUNT && !tally.converting && funded(step) && after(step).depositAmount === after(step).receivedUsdc;
        },
      },
    },
    {
      section: `${STATES}; ${FUNDING}`,
      row: 'USDC arrives below the payout, less than funding.amount sent (or a transfer still converting): PARTIALLY_FUNDED on each growth',
      from: ['AWAITING_FUNDING'],
      by: ['FUNDING_OBSERVED'],
      to: 'AWAITING_FUNDING',
      emits: ['PAYOUT_ORDER_PARTIALLY_FUNDED'],
      // "While an on-time transfer is still converting the payout waits … even if the full funding.amount was sent" (Funding behaviour, Rules).
      when: (step) => {
        const tally = tallyOf(after(step));
        return grew(step) && after(step).receivedUsdc < PAYOUT_USDC && (tally.sent < FUNDING_AMOUNT || tally.converting);
      },
      holds: {
        what: 'fundingStatus PARTIALLY_FUNDED; before the deadline passed, the deadline moved to 24 h after the arrival unless already later',
        check: (step) => {
          if (fundingStatus(step.after) !== 'PARTIALLY_FUNDED') return false;
          if (closing(step)) return after(step).quoteExpiresAt === before(step).quoteExpiresAt;
          const window = new Date(Date.parse(reportedAt(step)) + after(step).fundingWindowMs).toISOString();
          const moved = window > before(step).quoteExpiresAt ? window : before(step).quoteExpiresAt;
          return after(step).quoteExpiresAt === moved;
        },
      },
    },
    {
      section: FUNDING,
      row: 'a transfer refunded: unchanged, no webhook, a route refund recorded',
      from: ['AWAITING_FUNDING'],
      by: ['FUNDING_OBSERVED'],
      to: 'AWAITING_FUNDING',
      emits: [],
      when: (step) => !closing(step) && !grew(step) && reported(step).some((transfer) => transfer.status === 'refunded'),
      holds: {
        what: 'fundingStatus and the deadline unchanged, a route refund recorded for each refunded transfer',
        check: (step) =>
          fundingStatus(step.after) === fundingStatus(step.before!) &&
          after(step).quoteExpiresAt === before(step).quoteExpiresAt &&
          reported(step)
            .filter((transfer) => transfer.status === 'refunded')
            .every((transfer) => issueOf(step, 'ROUTE_REFUND', transfer.id)),
      },
    },
    {
      section: `${STATES}; ${FUNDING}`,
      row: 'deadline passed, some USDC received below the payout, nothing converting: FUNDED from what arrived',
      from: ['AWAITING_FUNDING'],
      by: ['FUNDING_OBSERVED'],
      to: 'FUNDED',
      emits: ['PAYOUT_ORDER_FUNDED'],
      when: (step) => closing(step) && after(step).receivedUsdc < PAYOUT_USDC,
      holds: {
        what: 'nothing converting, depositAmount what arrived (below one 100 USDC step), fundedAt set',
        check: (step) => !tallyOf(after(step)).converting && funded(step) && after(step).depositAmount === after(step).receivedUsdc,
      },
    },
    {
      section: FUNDING,
      row: 'deadline passed, a transfer still converting: AWAITING_FUNDING, no webhook until it lands',
      from: ['AWAITING_FUNDING'],
      by: ['FUNDING_OBSERVED'],
      to: 'AWAITING_FUNDING',
      emits: [],
      when: (step) => closing(step) && !grew(step),
      holds: { what: 'an on-time transfer still converting', check: (step) => tallyOf(after(step)).converting },
    },
    {
      section: `${STATES}; ${FUNDING}`,
      row: 'deadline passed, nothing arrived, nothing converting: EXPIRED, fundingStatus FUNDING_EXPIRED',
      from: ['AWAITING_FUNDING'],
      by: ['FUNDING_OBSERVED'],
      to: 'EXPIRED',
      emits: ['PAYOUT_ORDER_EXPIRED'],
      holds: {
        what: 'nothing received on time, nothing converting, fundingStatus FUNDING_EXPIRED, no deposit',
        check: (step) =>
          after(step).receivedUsdc === 0n &&
          !tallyOf(after(step)).converting &&
          fundingStatus(step.after) === 'FUNDING_EXPIRED' &&
          after(step).depositAmount === null,
      },
    },
    {
      section: `${STATES}; POST /api/v1/payouts/{id}/cancel`,
      row: 'merchant cancel, nothing at the deposit address: CANCELLED',
      from: ['AWAITING_FUNDING'],
      by: ['CANCEL'],
      to: 'CANCELLED',
      emits: ['PAYOUT_ORDER_CANCELLED'],
      holds: {
        what: 'cancelSource MERCHANT, cancelledAt set, no provider record at the deposit address',
        check: (step) => after(step).cancelSource === 'MERCHANT' && after(step).cancelledAt !== null && after(step).transfers.length === 0,
      },
    },
    lateFundsRow('FUNDED'),
    lateFundsRow('CANCELLED'),
    lateFundsRow('EXPIRED'),
    {
      section: STATES,
      row: 'the customer’s payout method becomes ready (a Zelle, Revolut or Chime handle, or a crypto destination, saved): READY, no webhook',
      from: ['FUNDED'],
      by: ['SAVE_METHOD'],
      to: 'READY',
      emits: [],
      holds: { what: 'the method saved, and ready', check: (step) => after(step).method !== null && methodReady(after(step).method) },
    },
    {
      section: `${STATES}; document 2, Limits (wallet check)`,
      row: 'the wallet check finds the USDC spent in the wallet app before any buyer paid: CANCELLED, cancelSource PEER_APP',
      from: ['FUNDED', 'READY'],
      by: ['WALLET_CHECKED'],
      to: 'CANCELLED',
      emits: ['PAYOUT_ORDER_CANCELLED'],
      holds: {
        what: 'cancelSource PEER_APP, nothing paid, checked 10 minutes or more after funding',
        check: (step) =>
          after(step).cancelSource === 'PEER_APP' &&
          after(step).paidUsdc === 0n &&
          Date.parse(after(step).cancelledAt!) - Date.parse(after(step).fundedAt!) >= 10 * 60 * 1000,
      },
    },
    {
      section: STATES,
      row: 'connecting the Venmo, Cash App or PayPal account skipped: READY, no webhook',
      from: ['FUNDED'],
      by: ['SKIP_CONNECT'],
      to: 'READY',
      emits: [],
      holds: {
        what: 'the connection SKIPPED',
        check: (step) => {
          const method = after(step).method;
          return method?.kind === 'FIAT' && method.connection === 'SKIPPED';
        },
      },
    },
    {
      section: `${STATES}; ${CHECKOUT}, "Connecting an account"`,
      row: 'the Venmo, Cash App or PayPal account connected: READY, no webhook',
      from: ['FUNDED'],
      by: ['CONNECTED'],
      to: 'READY',
      emits: [],
      holds: {
        what: 'the connection CONNECTED until the attestation’s end',
        check: (step) => {
          const method = after(step).method;
          return method?.kind === 'FIAT' && method.connection === 'CONNECTED' && method.connectedUntil !== undefined;
        },
      },
    },
    {
      section: CHECKOUT,
      row: 'the customer changes to a method that still needs its account connected: FUNDED again, no webhook',
      from: ['READY'],
      by: ['SAVE_METHOD'],
      to: 'FUNDED',
      emits: [],
      holds: { what: 'the new method saved, not ready', check: (step) => after(step).method !== null && !methodReady(after(step).method) },
    },
    {
      section: STATES,
      row: 'the customer confirmed and the listing deposit lands: LISTING, no webhook',
      from: ['READY'],
      by: ['LISTED'],
      to: 'LISTING',
      emits: [],
      holds: {
        what: 'the listing holds the unpaid USDC on the saved rail',
        check: (step) => after(step).listing !== null && after(step).listing!.listedUsdc === (after(step).depositAmount ?? 0n) - after(step).paidUsdc,
      },
    },
    {
      section: STATES,
      row: 'a buyer starts paying: PAYING',
      from: ['LISTING'],
      by: ['CHAIN_FACT'],
      to: 'PAYING',
      emits: ['PAYOUT_ORDER_MATCHED'],
      holds: { what: 'the buyer’s intent recorded', check: (step) => after(step).buyer !== null },
    },
    {
      section: STATES,
      row: 'the buyer’s payment expires or is released before completing: LISTING, no webhook',
      from: ['PAYING'],
      by: ['CHAIN_FACT'],
      to: 'LISTING',
      emits: [],
      when: (step) => after(step).paidUsdc === before(step).paidUsdc,
      holds: { what: 'no buyer, nothing paid', check: (step) => after(step).buyer === null },
    },
    {
      section: STATES,
      row: 'a buyer pays only part: LISTING, PAYOUT_ORDER_PARTIALLY_PAID',
      from: ['PAYING'],
      by: ['CHAIN_FACT'],
      to: 'LISTING',
      emits: ['PAYOUT_ORDER_PARTIALLY_PAID'],
      when: (step) => after(step).paidUsdc > before(step).paidUsdc && restOf(step) > after(step).listing!.dustUsdc,
      holds: {
        what: 'paidAmount grew by the payment, a partial fill recorded with its fiat, something left to pay',
        check: (step) =>
          after(step).partialFills.length === before(step).partialFills.length + 1 &&
          after(step).partialFills.at(-1)!.amount === after(step).paidUsdc - before(step).paidUsdc &&
          (after(step).depositAmount ?? 0n) > after(step).paidUsdc,
      },
    },
    {
      section: STATES,
      row: 'a confirmed crypto payout (USDC on Base, sent directly) arrives: SETTLED with payoutTransfer',
      from: ['READY'],
      by: ['TRANSACTION_OUTCOME'],
      to: 'SETTLED',
      emits: ['PAYOUT_ORDER_SETTLED'],
      holds: {
        what: 'payoutTransfer with provider null and txHash the USDC transfer, sentAmount the unpaid USDC, sentTo the destination',
        check: (step) => {
          const transfer = after(step).payoutTransfer;
          const method = after(step).method;
          return (
            transfer !== null &&
            transfer.provider === null &&
            transfer.txHash === transfer.usdcTxHash &&
            after(step).settlement?.sentUsdc === (before(step).depositAmount ?? 0n) - before(step).paidUsdc &&
            method?.kind === 'CRYPTO' &&
            after(step).settlement?.sentTo === method.destination.sentTo
          );
        },
      },
    },
    {
      section: `${STATES}; PayoutView, depositAmount`,
      row: 'the customer withdraws the listing in the wallet app before any buyer paid: CANCELLED, cancelSource PEER_APP',
      from: ['LISTING'],
      by: ['CHAIN_FACT'],
      to: 'CANCELLED',
      emits: ['PAYOUT_ORDER_CANCELLED'],
      holds: {
        what: 'cancelSource PEER_APP, nothing paid, depositAmount the USDC the withdrawal returned',
        check: (step) => after(step).cancelSource === 'PEER_APP' && after(step).paidUsdc === 0n && after(step).depositAmount === before(step).depositAmount,
      },
    },
    {
      section: STATES,
      row: 'the customer withdraws the rest in the wallet app after a partial payment: SETTLED, never CANCELLED',
      from: ['LISTING'],
      by: ['CHAIN_FACT'],
      to: 'SETTLED',
      emits: ['PAYOUT_ORDER_SETTLED'],
      when: (step) => after(step).settlement?.dustUsdc === 0n,
      holds: {
        what: 'returnedAmount what was unpaid, buyerPaidAmount what buyers paid, the two the deposit',
        check: (step) => {
          const settled = after(step).settlement;
          return (
            settled !== null &&
            before(step).paidUsdc > 0n &&
            settled.buyerPaidUsdc === before(step).paidUsdc &&
            settled.buyerPaidUsdc + settled.returnedUsdc === after(step).depositAmount
          );
        },
      },
    },
    {
      section: `${STATES}; ${CHECKOUT}, "Crypto through the provider"`,
      row: 'a confirmed crypto payout through the provider is delivered: SETTLED with payoutTransfer',
      from: ['READY', 'LISTING'],
      by: ['BRIDGE_OBSERVED'],
      to: 'SETTLED',
      emits: ['PAYOUT_ORDER_SETTLED'],
      holds: {
        what: 'the bridge DELIVERED; payoutTransfer by its provider with usdcTxHash the Base send; sentAmount its USDC; buyers, sent and refund fees add up to the deposit',
        check: (step) => {
          const bridge = after(step).bridges.at(-1)!;
          const transfer = after(step).payoutTransfer;
          const settled = after(step).settlement!;
          return (
            bridge.status === 'DELIVERED' &&
            transfer?.provider === bridge.provider &&
            transfer.usdcTxHash === bridge.usdcTxHash &&
            settled.sentUsdc === bridge.usdcAmount &&
            settled.buyerPaidUsdc + settled.sentUsdc + settled.returnedUsdc + settled.dustUsdc + settled.refundFeeUsdc === after(step).depositAmount
          );
        },
      },
    },
    {
      section: `${STATES} (a verified bridge refund); ${CHECKOUT}`,
      row: 'a bridge refund read on Base: READY, no webhook',
      from: ['READY', 'LISTING'],
      by: ['BRIDGE_OBSERVED'],
      to: 'READY',
      emits: [],
      when: (step) => before(step).bridges.at(-1)?.status !== after(step).bridges.at(-1)?.status,
      holds: {
        what: 'the bridge REFUNDED with what came back; what it came back short is a refund fee, no longer unpaid',
        check: (step) => {
          const bridge = after(step).bridges.at(-1)!;
          return (
            bridge.status === 'REFUNDED' &&
            bridge.refundedUsdc !== null &&
            after(step).refundFeeUsdc - before(step).refundFeeUsdc === bridge.usdcAmount - bridge.refundedUsdc
          );
        },
      },
    },
    {
      section: STATES,
      row: 'the customer sends the rest to an address after a partial payment (USDC on Base): SETTLED',
      from: ['LISTING'],
      by: ['TRANSACTION_OUTCOME'],
      to: 'SETTLED',
      emits: ['PAYOUT_ORDER_SETTLED'],
      holds: {
        what: 'the listing withdrawn and the rest sent in one batch: sentAmount the remainder, buyers and sent the deposit',
        check: (step) => {
          const settled = after(step).settlement!;
          return (
            settled.sentUsdc > 0n && settled.buyerPaidUsdc + settled.sentUsdc === after(step).depositAmount && after(step).payoutTransfer?.provider === null
          );
        },
      },
    },
    {
      section: `${STATES}; ${CHECKOUT}, "Listing exits"`,
      row: 'the customer changes method: the listing withdrawn, FUNDED, paid parts kept',
      from: ['LISTING'],
      by: ['TRANSACTION_OUTCOME'],
      to: 'FUNDED',
      emits: [],
      holds: {
        what: 'no exit under way, what buyers paid unchanged, no buyer followed',
        check: (step) => after(step).exit === null && after(step).paidUsdc === before(step).paidUsdc && after(step).buyer === null,
      },
    },
    {
      section: `${CHECKOUT}, "Listing exits"`,
      row: 'a listing exit that did not go through while a buyer got in: PAYING, the buyer announced',
      from: ['LISTING'],
      by: ['TRANSACTION_OUTCOME', 'SEND_REFUSED'],
      to: 'PAYING',
      emits: ['PAYOUT_ORDER_MATCHED'],
      when: (step) => after(step).sendError !== null,
      holds: {
        what: 'the buyer kept, the exit over, why it failed shown, the listing’s method as it was',
        check: (step) =>
          after(step).buyer !== null &&
          after(step).exit === null &&
          after(step).sendError !== null &&
          JSON.stringify(after(step).method) === JSON.stringify(before(step).method),
      },
    },
    {
      section: `${CHECKOUT}, "Listing exits" (relist)`,
      row: 'a relist mined while a buyer got in: PAYING, the buyer announced',
      from: ['LISTING'],
      by: ['TRANSACTION_OUTCOME'],
      to: 'PAYING',
      emits: ['PAYOUT_ORDER_MATCHED'],
      when: (step) => after(step).sendError === null,
      holds: {
        what: 'the listing takes buyers up to what is left, the buyer kept',
        check: (step) => after(step).buyer !== null && after(step).exit === null && after(step).listing!.maxUsdc <= before(step).listing!.listedUsdc,
      },
    },
    {
      section: `${STATES}; document 2, Limits (wallet check)`,
      row: 'the wallet check finds the USDC spent in the wallet app after a partial payment: SETTLED with returnedAmount',
      from: ['FUNDED', 'READY'],
      by: ['WALLET_CHECKED'],
      to: 'SETTLED',
      emits: ['PAYOUT_ORDER_SETTLED'],
      holds: {
        what: 'buyers paid part; returnedAmount the rest; the breakdown the deposit',
        check: (step) => {
          const settled = after(step).settlement!;
          return (
            before(step).paidUsdc > 0n &&
            settled.returnedUsdc > 0n &&
            settled.buyerPaidUsdc + settled.sentUsdc + settled.returnedUsdc + settled.dustUsdc + settled.refundFeeUsdc === after(step).depositAmount
          );
        },
      },
    },
    {
      section: `${STATES}; ${CHECKOUT}, "Listing and buyers"`,
      row: 'a buyer pays all but a rest the escrow sweeps as dust in the same transaction: LISTING until the sweep, no webhook',
      from: ['PAYING'],
      by: ['CHAIN_FACT'],
      to: 'LISTING',
      emits: [],
      when: (step) => after(step).paidUsdc > before(step).paidUsdc && restOf(step) <= after(step).listing!.dustUsdc,
      holds: {
        what: 'the payment counted, no partial fill, a rest of at most the dust threshold',
        check: (step) => after(step).partialFills.length === before(step).partialFills.length && restOf(step) > 0n,
      },
    },
    {
      section: STATES,
      row: 'the escrow sweeps a small rest as dust: SETTLED with dustAmount',
      from: ['LISTING'],
      by: ['CHAIN_FACT'],
      to: 'SETTLED',
      emits: ['PAYOUT_ORDER_SETTLED'],
      when: (step) => (after(step).settlement?.dustUsdc ?? 0n) > 0n,
      holds: {
        what: 'dustAmount the rest, buyers and dust the deposit',
        check: (step) => {
          const settled = after(step).settlement!;
          const left = (before(step).depositAmount ?? 0n) - before(step).paidUsdc - before(step).refundFeeUsdc;
          return settled.dustUsdc === left && settled.buyerPaidUsdc + settled.dustUsdc === after(step).depositAmount;
        },
      },
    },
    {
      section: STATES,
      row: 'a buyer pays what was left: SETTLED',
      from: ['PAYING'],
      by: ['CHAIN_FACT'],
      to: 'SETTLED',
      emits: ['PAYOUT_ORDER_SETTLED'],
      holds: {
        what: 'paid in full, settledAt set, the settlement’s buyerPaidAmount the deposit',
        check: (step) =>
          after(step).paidUsdc === after(step).depositAmount &&
          after(step).settledAt !== null &&
          after(step).settlement?.buyerPaidUsdc === after(step).depositAmount,
      },
    },
  ],
  beyond: {
    'payout.PREPARING|PREPARATION_FAILED|0': `${NOT_YET_A_PAYOUT}: a refusal leaves it NOT_CREATED, and the create answers the error`,
    'payout.NOT_CREATED|RETRY|0': `${NOT_YET_A_PAYOUT}: the merchant's retry with the same key prepares it again`,
  },
};

/**
 * PREPARING is document 2's (new): the create is still running and the payout does not
 * exist for the merchant until the provider and the wallet provider answered. NOT_CREATED
 * (they refused; the merchant may retry with the same key) is a phase of ours beside it.
 */
function documentStatus(phase: PayoutPhase): string {
  return phase === 'PREPARING' ? NEW : phase;
}

function reportedAt(step: ModelStep): string {
  return (step.event as EventObject & { at: string }).at;
}

const model: MachineModel = {
  name: 'payout',
  kind: PAYOUT_KIND,
  variants: PAYOUT_VARIANTS,
  events: payoutEvents,
  abstract: payoutAbstraction,
  statusOf: (snapshot) => documentStatus(payoutPhaseOf(snapshot.value)),
  // Before it is created the view shows the phase only; after, its status and the PayoutView's must agree with it.
  viewStatus: (view) => {
    const payout = view.payout as { status: string } | null;
    if (!view.listed)
      return payout === null && view.status === null
        ? documentStatus(view.phase as PayoutPhase)
        : `unlisted ${String(view.phase)} showing ${String(view.status)}`;
    return payout?.status === view.status && view.status === view.phase
      ? view.phase
      : `phase ${String(view.phase)}, view ${String(view.status)}, payout ${payout?.status}`;
  },
  document,
};

modelTests(test, model);

/** The snapshot after the variant's creation and the events of these labels, each offered where the one before it left the payout. */
function reached(...labels: string[]): AnyMachineSnapshot {
  const variant = PAYOUT_VARIANTS[0]!;
  const events: EventObject[] = [];
  let snapshot = modelSteps(model, variant, events).at(-1)!.after;
  for (const label of labels) {
    const event = model.events(snapshot).find((candidate) => eventLabel(candidate) === label);
    if (!event) throw new Error(`${label} is not offered in ${stateName(snapshot.value)}`);
    events.push(event);
    snapshot = modelSteps(model, variant, events).at(-1)!.after;
  }
  return snapshot;
}

/** POST /api/v1/payouts/{id}/cancel: "any record blocks cancellation", and only while status and fundingStatus are both AWAITING_FUNDING. */
const CANCEL_REFUSALS: Array<{ after: string[]; code: string | null }> = [
  { after: ['PREPARED'], code: null },
  { after: ['PREPARED', 'FUNDING_OBSERVED(nothing)'], code: null },
  { after: ['PREPARED', 'FUNDING_OBSERVED(converting)'], code: 'PAYOUT_FUNDING_DETECTED' },
  { after: ['PREPARED', 'FUNDING_OBSERVED(refunded)'], code: 'PAYOUT_FUNDING_DETECTED' },
  { after: ['PREPARED', 'FUNDING_OBSERVED(48 USDC)'], code: 'PAYOUT_NOT_CANCELLABLE' },
  { after: ['PREPARED', 'FUNDING_OBSERVED(105 USDC)'], code: 'PAYOUT_NOT_CANCELLABLE' },
  { after: ['PREPARED', 'CANCEL'], code: 'PAYOUT_NOT_CANCELLABLE' },
  { after: [], code: 'PAYOUT_NOT_CANCELLABLE' },
  { after: ['PREPARATION_FAILED'], code: 'PAYOUT_NOT_CANCELLABLE' },
];

for (const { after: labels, code } of CANCEL_REFUSALS) {
  test(`payout: a merchant cancel after ${['create', ...labels].join(', ')} is ${code ?? 'taken'}`, (t) => {
    const snapshot = reached(...labels);
    const cancel = model.events(snapshot).find((event) => event.type === 'CANCEL')!;
    t.is<string | null, string | null>(payoutRefusal(snapshot, cancel)?.code ?? null, code, `the kind's refusal in ${stateName(snapshot.value)}`);
    // The machine holds the same line on its own: a refused cancel is one it would not take either.
    t.is(snapshot.can(cancel), code === null, `the machine takes it in ${stateName(snapshot.value)}`);
  });
}
