/**
 * The `payment` actor kind: one per payment attempt (`pay_…`). Its view is what the
 * payment reads and lists serve without waking the actor: the CheckoutPayment as list
 * rows and webhooks carry it, the hosted read's error fields beside it, and at the top
 * level the fields list queries filter and sort on. Its effects need the chain, the
 * relayer and the attestation service; a node without them (the sandbox-only node)
 * registers the kind without effects, and its live payments are refused before creation.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import {
  conversionOf,
  paymentMachine,
  toCheckoutPayment,
  UNCANCELLABLE_STEPS,
  type PaymentContext,
  type PaymentEvent,
  type PaymentStatus,
  type PaymentStep,
} from '../../machines/index.js';
import { defineKind, type Rejection } from '../runtime/actor-kind.js';

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as PaymentContext;

export function paymentStatusOf(value: unknown): PaymentStatus {
  return (typeof value === 'string' ? value : 'CREATED') as PaymentStatus;
}

export function paymentStepOf(value: unknown): PaymentStep | 'STARTING' | 'READING_SIGNAL' | null {
  if (typeof value === 'string') return null;
  return ((value as { CREATED?: string }).CREATED ?? null) as PaymentStep | null;
}

export function paymentView(snapshot: AnyMachineSnapshot) {
  const context = contextOf(snapshot);
  const status = paymentStatusOf(snapshot.value);
  const payment = toCheckoutPayment(context, status, { hosted: false });
  return {
    payment,
    hosted: { errorCode: context.errorCode, errorMessage: context.errorMessage },
    orderId: context.orderId,
    merchantId: context.merchantId,
    environment: context.environment,
    status,
    step: paymentStepOf(snapshot.value),
    rail: context.rail,
    // Whom the attempt paid: what a recipient's rating counts over.
    payTo: context.payTo,
    // Whether the maker's own session may resolve the payment: what a fulfil from a receipt id needs.
    sellerAutomatedRelease: context.quote.sellerAutomatedRelease === true,
    crypto: conversionOf(context) !== null,
    live: context.chain !== null,
    chargebackStatus: payment.chargebackStatus,
    createdAt: context.createdAt,
  };
}

export type PaymentView = ReturnType<typeof paymentView>;

/** The refusals of the customer's commands, with the codes docs/payments.md lists. */
export function paymentRefusal(snapshot: AnyMachineSnapshot, event: EventObject): Rejection | null {
  const context = contextOf(snapshot);
  const status = paymentStatusOf(snapshot.value);
  const step = paymentStepOf(snapshot.value);
  const command = event as PaymentEvent;
  const ended = (action: string): Rejection => ({
    code: 'PAYMENT_NOT_OPEN',
    message: `payment ${context.id} is ${status}: it can no longer be ${action}`,
  });
  switch (command.type) {
    case 'CANCEL': {
      if (command.reason !== 'CUSTOMER') return null;
      if (status !== 'CREATED') return ended('cancelled');
      const doing = step === null ? undefined : UNCANCELLABLE_STEPS[step];
      if (doing) {
        return { code: 'PAYMENT_NOT_CANCELLABLE', message: `payment ${context.id} ${doing}; it cannot be cancelled now` };
      }
      return null;
    }
    case 'MARK_SENT':
      return status === 'CREATED' ? null : ended('marked as sent');
    case 'SUBMIT_PROOF':
      if (conversionOf(context) !== null) return { code: 'CRYPTO_PAYMENT', message: 'a crypto payment settles when its transfer arrives: it takes no proof' };
      if (context.chain === null) return { code: 'SANDBOX_PAYMENT', message: 'a sandbox payment is settled with simulate-payment, not proven' };
      if (status !== 'CREATED') return ended('proven');
      if (step !== 'AWAITING_PAYMENT')
        return {
          code: 'PAYMENT_NOT_AWAITING_PROOF',
          message: `payment ${context.id} is ${step}: a proof is taken once its intent is signalled and none is being checked`,
        };
      return null;
    case 'SIMULATE_PAYMENT':
      if (context.chain !== null) return { code: 'LIVE_PAYMENT', message: 'only a sandbox payment can be simulated' };
      return status === 'CREATED' ? null : ended('simulated');
    case 'REOPEN':
    case 'EXTEND':
    case 'SELLER_RECEIPT':
      return remediationRefusal(context, status, step, command.type);
    default:
      return null;
  }
}

/**
 * Why the attempt does not take a remediation step now, with the code its action fails with
 * (document 1's action error codes; the runner reports any other as REMEDIATION_FAILED).
 */
function remediationRefusal(
  context: PaymentContext,
  status: PaymentStatus,
  step: ReturnType<typeof paymentStepOf>,
  command: 'REOPEN' | 'EXTEND' | 'SELLER_RECEIPT',
): Rejection | null {
  if (context.chain === null || conversionOf(context) !== null) {
    return { code: 'RAIL_NOT_SUPPORTED', message: `payment ${context.id} is not a live fiat attempt: remediation acts on live fiat attempts only` };
  }
  const busy = context.remediation ?? null;
  if (busy) return { code: 'ACTION_IN_PROGRESS', message: `payment ${context.id} is carrying out action ${busy.actionId} (${busy.actionName})` };
  if (command === 'REOPEN') {
    if (status === 'CREATED' || status === 'SETTLED')
      return { code: 'PAYMENT_NOT_ELIGIBLE', message: `payment ${context.id} is ${status}: only an expired, cancelled or failed attempt is reopened` };
    return null;
  }
  if (status !== 'CREATED') return { code: 'PAYMENT_NOT_OPEN', message: `payment ${context.id} is ${status}: it is no longer open` };
  if (step !== 'AWAITING_PAYMENT') {
    return { code: 'PAYMENT_NOT_OPEN', message: `payment ${context.id} is ${step}: only an attempt awaiting the customer's payment takes this action` };
  }
  return null;
}

/** The payment kind without its effects: what callers address; a node that runs them registers `withEffects(paymentKind, …)`. */
export const paymentKind = defineKind({
  name: 'payment',
  machine: paymentMachine,
  machineVersion: 5,
  migrations: {
    // Version 2 remembers the settling facts a reorganisation retracted, so none of them settles the attempt again.
    1: (persisted) => ({ ...persisted, context: { retractedFactIds: [], ...(persisted.context as Record<string, unknown>) } }),
    // Version 3 carries out remediation actions: reopenings counted, the action under way, a receipt being checked.
    2: (persisted) => {
      const context = persisted.context as Record<string, unknown>;
      return { ...persisted, context: { reopenings: 0, openedAt: context.createdAt, remediation: null, sellerReceipt: null, ...context } };
    },
    // Version 4 carries a chargeback (docs/chargebacks.md): none on every attempt written before.
    3: (persisted) => ({ ...persisted, context: { chargebackClaim: null, chargeback: null, ...(persisted.context as Record<string, unknown>) } }),
    // Version 5 keeps the penalties a settlement applied; an attempt settled before applied none.
    4: (persisted) => ({ ...persisted, context: { penalties: [], ...(persisted.context as Record<string, unknown>) } }),
  },
  createdBy: ['CREATE'],
  view: (snapshot) => paymentView(snapshot),
  check: paymentRefusal,
  viewIndexes: [
    { key: { 'view.merchantId': 1, 'view.environment': 1, 'view.createdAt': -1 }, name: 'payment_by_merchant_newest' },
    { key: { 'view.merchantId': 1, 'view.environment': 1, 'view.status': 1, 'view.createdAt': -1 }, name: 'payment_by_merchant_status_newest' },
    { key: { 'view.orderId': 1, 'view.createdAt': -1 }, name: 'payment_by_order_newest' },
    { key: { 'view.payTo': 1, 'view.status': 1 }, name: 'payment_by_recipient_status' },
    // An attested dispute names its payment by intent hash (gateway/disputes), on a route anyone may call: never a scan.
    { key: { 'view.payment.railIdentifier': 1, 'view.environment': 1 }, name: 'payment_by_rail_identifier' },
  ],
});
