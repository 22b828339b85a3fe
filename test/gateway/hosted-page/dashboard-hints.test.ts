/**
 * The dashboard's eligibility hints (client/dashboard-hints.ts): docs/remediation.md's rules the
 * page can see, in the table's order, the role and the environment first; and every reason the
 * routes answer has words.
 */
import test from 'ava';
import type { CheckoutPayment, Order } from '../../../gateway/hosted-page/client/dashboard-api.js';
import { actionHint, type HintFacts } from '../../../gateway/hosted-page/client/dashboard-hints.js';
import { type EligibilityReason, REASONS } from '../../../gateway/hosted-page/client/dashboard-words.js';
import type { EligibilityReason as ServerReason } from '../../../gateway/actions/action-eligibility.js';

const NOW = Date.UTC(2026, 10, 23, 12);
const HOUR = 3_600_000;

function facts(payment: Partial<CheckoutPayment>, order: Partial<Order> = {}, others: Partial<CheckoutPayment>[] = []): HintFacts {
  const attempt = {
    id: 'pay_a',
    status: 'CREATED',
    rail: 'venmo',
    railIdentifier: '0xabc',
    quoteExpiresAt: new Date(NOW + HOUR).toISOString(),
    ...payment,
  } as CheckoutPayment;
  return {
    order: { id: 'ord_a', status: 'CREATED', ...order } as Order,
    payment: attempt,
    payments: [attempt, ...others.map((other, index) => ({ id: `pay_${index}`, ...other }) as CheckoutPayment)],
    role: 'MANAGER',
    environment: 'LIVE',
    nowMs: NOW,
  };
}

const reasonOf = (kind: Parameters<typeof actionHint>[0], given: HintFacts) => {
  const hint = actionHint(kind, given);
  return hint.likely ? null : (Object.entries(REASONS).find(([, words]) => hint.words.endsWith(words))?.[0] ?? hint.words);
};

test('recreate: an ended attempt of an open order with no other attempt in progress', (t) => {
  t.is(reasonOf('recreate', facts({ status: 'EXPIRED' })), null);
  t.is(reasonOf('recreate', facts({ status: 'CREATED' })), 'PAYMENT_STATUS_NOT_ELIGIBLE');
  t.is(reasonOf('recreate', facts({ status: 'CANCELLED' }, { status: 'FULFILLED' })), 'ORDER_STATUS_NOT_ELIGIBLE');
  t.is(reasonOf('recreate', facts({ status: 'FAILED' }, {}, [{ status: 'CREATED' }])), 'ORDER_STATUS_NOT_ELIGIBLE');
  t.is(reasonOf('recreate', facts({ status: 'FAILED' }, { status: 'PARTIALLY_FULFILLED' }, [{ status: 'EXPIRED' }])), null);
});

test('extend: an attempt awaiting payment, live on chain, at most 6 hours from its end', (t) => {
  t.is(reasonOf('extend', facts({})), null);
  t.is(reasonOf('extend', facts({ status: 'EXPIRED' })), 'PAYMENT_STATUS_NOT_ELIGIBLE');
  t.is(reasonOf('extend', facts({ railIdentifier: null })), 'INTENT_HASH_MISSING');
  t.is(reasonOf('extend', facts({ quoteExpiresAt: new Date(NOW + 6 * HOUR).toISOString() })), null);
  t.is(reasonOf('extend', facts({ quoteExpiresAt: new Date(NOW + 6 * HOUR + 1).toISOString() })), 'EXTEND_TOO_EARLY');
});

test('fulfil from a receipt: not PayPal, awaiting payment, live on chain', (t) => {
  t.is(reasonOf('fulfill-sar', facts({})), null);
  t.is(reasonOf('fulfill-sar', facts({ rail: 'paypal' })), 'PAYPAL_NOT_SUPPORTED');
  t.is(reasonOf('fulfill-sar', facts({ status: 'SETTLED' })), 'PAYMENT_STATUS_NOT_ELIGIBLE');
  t.is(reasonOf('fulfill-sar', facts({ railIdentifier: null })), 'INTENT_HASH_MISSING');
});

test('a cashier, or the sandbox, is told before any rule', (t) => {
  t.deepEqual(actionHint('extend', { ...facts({}), role: 'CASHIER' }), { likely: false, words: 'Only an Owner or a Manager may act on a payment.' });
  t.false(actionHint('extend', { ...facts({}), environment: 'SANDBOX' }).likely);
  t.true(actionHint('extend', { ...facts({}), role: 'OWNER' }).likely);
});

test('every eligibility reason the routes answer has words', (t) => {
  // The page's list is the routes' list: one added on either side alone does not compile.
  const same: [ServerReason] extends [EligibilityReason] ? ([EligibilityReason] extends [ServerReason] ? true : false) : false = true;
  t.true(same);
  for (const [reason, words] of Object.entries(REASONS)) t.true(words.endsWith('.') && words.length > 20, reason);
});
