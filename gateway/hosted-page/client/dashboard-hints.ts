/**
 * What the page expects of each action on an attempt before asking, from the attempt and its
 * order as read: docs/remediation.md's eligibility rules that the page can see. Only a hint: the
 * plan, the switches, the rail settings and the chain are the server's to judge, and its 422 is
 * what the page shows when it refuses.
 */
import type { ActionKind, CheckoutPayment, Environment, Order, Role } from './dashboard-api.js';
import { type EligibilityReason, REASONS } from './dashboard-words.js';

const EXTEND_WINDOW_MS = 6 * 60 * 60 * 1000;
const ENDED = new Set(['EXPIRED', 'CANCELLED', 'FAILED']);
const OPEN_ORDER = new Set(['CREATED', 'PARTIALLY_FULFILLED']);

export interface Hint {
  /** The page expects the server to take it. */
  likely: boolean;
  words: string;
}

export interface HintFacts {
  order: Order;
  payment: CheckoutPayment;
  /** Every attempt of the order, this one included. */
  payments: CheckoutPayment[];
  role: Role;
  environment: Environment;
  nowMs: number;
}

export function actionHint(kind: ActionKind, facts: HintFacts): Hint {
  if (facts.role === 'CASHIER') return { likely: false, words: 'Only an Owner or a Manager may act on a payment.' };
  if (facts.environment === 'SANDBOX') return { likely: false, words: 'No money moves in the sandbox: actions act on live payments only.' };
  const reason = firstReason(kind, facts);
  return reason ? { likely: false, words: `Likely refused: ${REASONS[reason]}` } : { likely: true, words: 'Looks eligible.' };
}

function firstReason(kind: ActionKind, { order, payment, payments, nowMs }: HintFacts): EligibilityReason | null {
  const { status, railIdentifier } = payment;
  if (kind === 'recreate') {
    if (!ENDED.has(status)) return 'PAYMENT_STATUS_NOT_ELIGIBLE';
    const otherOpen = payments.some((other) => other.id !== payment.id && other.status === 'CREATED');
    return OPEN_ORDER.has(order.status) && !otherOpen ? null : 'ORDER_STATUS_NOT_ELIGIBLE';
  }
  if (kind === 'extend') {
    if (status !== 'CREATED') return 'PAYMENT_STATUS_NOT_ELIGIBLE';
    if (!railIdentifier) return 'INTENT_HASH_MISSING';
    return Date.parse(payment.quoteExpiresAt) - nowMs > EXTEND_WINDOW_MS ? 'EXTEND_TOO_EARLY' : null;
  }
  if (payment.rail === 'paypal') return 'PAYPAL_NOT_SUPPORTED';
  if (status !== 'CREATED') return 'PAYMENT_STATUS_NOT_ELIGIBLE';
  return railIdentifier ? null : 'INTENT_HASH_MISSING';
}
