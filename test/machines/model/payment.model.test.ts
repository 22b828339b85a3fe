/**
 * Model-based tests of the payment machine on the `payment` kind, against document 1's
 * payment status table (../shared/spec/1-checkout-api.md, "States and transitions",
 * "Payment status") and "What emits what".
 */
import test from 'ava';
import { paymentStatusOf } from '../../../actors/kinds/index.js';
import type { PaymentContext } from '../../../machines/payment/index.js';
import { NEW, type DocumentTable } from '../../support/model-document.js';
import type { MachineModel, ModelStep } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { CHECKOUT_EVENTS } from './checkout-events.js';
import { PAYMENT_KIND, PAYMENT_VARIANTS, paymentAbstraction, paymentEvents } from './payment-events.js';

const STATUS_TABLE = 'document 1, States and transitions, Payment status';
const ENDED = ['EXPIRED', 'CANCELLED', 'FAILED'];
const contextAfter = (step: ModelStep) => step.after.context as PaymentContext;
const tellsOrder = (step: ModelStep, type: string) =>
  step.actions.some(
    (action) =>
      action.type === 'tell' &&
      (action.params as { to: { kind: string }; event: { type: string } }).to.kind === 'order' &&
      (action.params as { event: { type: string } }).event.type === type,
  );
const remediationBefore = (step: ModelStep) => (step.before?.context as PaymentContext | undefined)?.remediation?.actionName ?? null;

const document: DocumentTable = {
  events: CHECKOUT_EVENTS,
  rows: [
    { section: STATUS_TABLE, row: 'customer picks a rail: CREATED', from: [NEW], by: ['create'], to: 'CREATED', emits: ['PAYMENT_CREATED'] },
    {
      section: STATUS_TABLE,
      row: 'payment verified and USDC delivered on-chain: SETTLED',
      from: ['CREATED'],
      by: ['CHAIN_FACT', 'SIMULATE_PAYMENT', 'TRANSFER_DELIVERED'],
      to: 'SETTLED',
      emits: ['PAYMENT_SETTLED'],
      when: (step) => remediationBefore(step) !== 'FULFILL_SAR',
      holds: {
        what: 'fulfillTransaction and netSettledUsdcAmount set, and the order told of the settlement (ORDER_FULFILLED once it is covered)',
        check: (step) =>
          contextAfter(step).fulfillTransaction !== null && contextAfter(step).netSettledUsdcAmount !== null && tellsOrder(step, 'APPLY_SETTLEMENT'),
      },
    },
    {
      section: STATUS_TABLE,
      row: 'window closes without verified payment: EXPIRED',
      from: ['CREATED'],
      by: ['after window', 'VERIFICATION_REJECTED', 'TRANSACTION_OUTCOME'],
      to: 'EXPIRED',
      // PAYMENT_EXPIRED on fiat rails, PAYMENT_FAILED on live crypto rails ("What emits what" 1).
      emits: (step) => (contextAfter(step).conversion !== null && contextAfter(step).chain !== null ? ['PAYMENT_FAILED'] : ['PAYMENT_EXPIRED']),
    },
    {
      section: STATUS_TABLE,
      row: 'customer switches method or backs out: CANCELLED',
      from: ['CREATED'],
      by: ['CANCEL'],
      to: 'CANCELLED',
      emits: ['PAYMENT_CANCELLED'],
    },
    {
      section: STATUS_TABLE,
      row: 'not started on-chain, or a live crypto transfer failed: FAILED',
      from: ['CREATED'],
      by: ['TRANSACTION_OUTCOME', 'CHAIN_FACT', 'TRANSFER_FAILED'],
      to: 'FAILED',
      emits: ['PAYMENT_FAILED'],
      holds: { what: 'errorMessage says why', check: (step) => contextAfter(step).errorMessage !== null },
    },
    {
      section: STATUS_TABLE,
      row: 'verification rejected: CREATED unchanged',
      from: ['CREATED'],
      by: ['VERIFICATION_REJECTED'],
      to: 'CREATED',
      emits: [],
    },
    {
      section: STATUS_TABLE,
      row: 'recreate action succeeded: CREATED',
      from: ENDED,
      by: ['REOPEN'],
      to: 'CREATED',
      emits: [],
      holds: {
        what: 'a fresh window and no railIdentifier until the new intent is signalled (it becomes result.intentHash)',
        check: (step) =>
          contextAfter(step).railIdentifier === null && contextAfter(step).quoteExpiresAt > (step.before!.context as PaymentContext).quoteExpiresAt,
      },
    },
    {
      section: STATUS_TABLE,
      row: 'extend action succeeded: CREATED',
      from: ['CREATED'],
      by: ['INTENT_EXTENDED'],
      to: 'CREATED',
      emits: [],
      holds: {
        what: 'quoteExpiresAt follows the confirmed expiry, and the action is told',
        check: (step) =>
          contextAfter(step).quoteExpiresAt > (step.before!.context as PaymentContext).quoteExpiresAt &&
          step.actions.some((action) => action.type === 'tell' && (action.params as { to: { kind: string } }).to.kind === 'action'),
      },
    },
    {
      section: STATUS_TABLE,
      row: 'fulfill-sar action succeeded: SETTLED',
      from: ['CREATED'],
      by: ['CHAIN_FACT'],
      to: 'SETTLED',
      emits: ['PAYMENT_SETTLED'],
      when: (step) => remediationBefore(step) === 'FULFILL_SAR',
      holds: {
        what: 'the settlement tells the fulfil action its result',
        check: (step) => step.actions.some((action) => action.type === 'tell' && (action.params as { to: { kind: string } }).to.kind === 'action'),
      },
    },
    {
      section: `${STATUS_TABLE} ("A settled payment can later carry a chargeback"); docs/chargebacks.md`,
      row: 'a chargeback recorded on chain and completed by the order: SETTLED unchanged, PAYMENT_CHARGEBACKED',
      from: ['SETTLED'],
      by: ['CHARGEBACK_RECORDED'],
      to: 'SETTLED',
      emits: ['PAYMENT_CHARGEBACKED'],
      // The order's answer again (a repeat) changes nothing and announces nothing.
      when: (step) => ((step.before?.context as PaymentContext | undefined)?.chargeback ?? null) === null,
      holds: {
        what: 'chargebackStatus CHARGEBACKED and the fact on chargeback',
        check: (step) => {
          const payment = (step.after as unknown as { context: PaymentContext }).context.chargeback;
          return payment !== null && payment.status === 'CHARGEBACKED';
        },
      },
    },
  ],
  beyond: {
    // Document 1 has no reorganisations: a retracted settlement waits for the chain again (docs/payments.md).
    'payment.SETTLED|CHAIN_FACT|0': 'the settling fact retracted by a reorganisation: back to CREATED, PAYMENT_SETTLEMENT_RETRACTED',
    // "A late settlement can still fulfil the order" (Order status table): the attempt that ended settles.
    'payment.EXPIRED|CHAIN_FACT|0': 'a late IntentFulfilled fact settles an ended attempt',
    'payment.CANCELLED|CHAIN_FACT|0': 'a late IntentFulfilled fact settles an ended attempt',
    'payment.FAILED|CHAIN_FACT|0': 'a late IntentFulfilled fact settles an ended attempt',
    'payment.EXPIRED|TRANSFER_DELIVERED|0': 'a transfer that reached the provider before its request was cancelled is delivered and counts',
    'payment.CANCELLED|TRANSFER_DELIVERED|0': 'a transfer that reached the provider before its request was cancelled is delivered and counts',
    'payment.FAILED|TRANSFER_DELIVERED|0': 'a transfer that reached the provider before its request was cancelled is delivered and counts',
  },
};

const model: MachineModel = {
  name: 'payment',
  kind: PAYMENT_KIND,
  variants: PAYMENT_VARIANTS,
  events: paymentEvents,
  abstract: paymentAbstraction,
  statusOf: (snapshot) => paymentStatusOf(snapshot.value),
  viewStatus: (view) => {
    const payment = view.payment as { status: string };
    return payment.status === view.status ? view.status : `view ${String(view.status)}, payment ${payment.status}`;
  },
  document,
};

modelTests(test, model);
