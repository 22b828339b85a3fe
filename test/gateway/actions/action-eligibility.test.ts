/**
 * Document 1's remediation requirements as a table: each row breaks one rule of one action on
 * an otherwise eligible attempt, and names the reason the 422 must carry. The rules are checked
 * in the order the document lists them, so a row that breaks two names the first.
 */
import test from 'ava';
import type { ActionName } from '../../../machines/action/index.js';
import { type EligibilityFacts, type EligibilityReason, ineligibility } from '../../../gateway/actions/action-eligibility.js';

const NOW = Date.parse('2026-11-23T12:30:00.000Z');
const INTENT = `0x${'ab'.repeat(32)}`;

function facts(actionName: ActionName, change: (facts: EligibilityFacts) => void = () => {}): EligibilityFacts {
  const base: EligibilityFacts = {
    actionName,
    payment: {
      status: actionName === 'RECREATE' ? 'EXPIRED' : 'CREATED',
      rail: 'venmo',
      sellerAutomatedRelease: true,
      crypto: false,
      payment: { id: 'pay_1', railIdentifier: INTENT, quoteExpiresAt: '2026-11-23T13:00:00.000Z' },
    },
    order: { status: 'CREATED', order: { enabledRails: ['venmo', 'zelle', 'paypal', 'cashapp', 'wise'] } },
    otherActive: null,
    merchantRails: ['venmo', 'zelle', 'paypal', 'cashapp', 'wise'],
    sellerRelease: true,
    sellerRailsOff: new Set(),
    now: NOW,
  };
  change(base);
  return base;
}

const rows: Array<{ action: ActionName; breaks: string; reason: EligibilityReason; change: (facts: EligibilityFacts) => void }> = [
  {
    action: 'RECREATE',
    breaks: 'a crypto attempt',
    reason: 'RAIL_NOT_SUPPORTED',
    change: (f) => void ((f.payment.crypto = true), (f.payment.rail = 'relay_8453')),
  },
  { action: 'RECREATE', breaks: 'the rail switched off for the merchant', reason: 'RAIL_NOT_SUPPORTED', change: (f) => void (f.merchantRails = ['zelle']) },
  { action: 'RECREATE', breaks: 'the rail not among the order’s', reason: 'RAIL_NOT_SUPPORTED', change: (f) => void (f.order.order.enabledRails = ['zelle']) },
  { action: 'RECREATE', breaks: 'a CREATED attempt', reason: 'PAYMENT_STATUS_NOT_ELIGIBLE', change: (f) => void (f.payment.status = 'CREATED') },
  { action: 'RECREATE', breaks: 'a SETTLED attempt', reason: 'PAYMENT_STATUS_NOT_ELIGIBLE', change: (f) => void (f.payment.status = 'SETTLED') },
  { action: 'RECREATE', breaks: 'a FULFILLED order', reason: 'ORDER_STATUS_NOT_ELIGIBLE', change: (f) => void (f.order.status = 'FULFILLED') },
  { action: 'RECREATE', breaks: 'a CANCELLED order', reason: 'ORDER_STATUS_NOT_ELIGIBLE', change: (f) => void (f.order.status = 'CANCELLED') },
  { action: 'RECREATE', breaks: 'another attempt in progress', reason: 'ORDER_STATUS_NOT_ELIGIBLE', change: (f) => void (f.otherActive = 'pay_2') },
  { action: 'EXTEND', breaks: 'the rail switched off', reason: 'RAIL_NOT_SUPPORTED', change: (f) => void (f.merchantRails = []) },
  { action: 'EXTEND', breaks: 'an EXPIRED attempt', reason: 'PAYMENT_STATUS_NOT_ELIGIBLE', change: (f) => void (f.payment.status = 'EXPIRED') },
  { action: 'EXTEND', breaks: 'no intent yet', reason: 'INTENT_HASH_MISSING', change: (f) => void (f.payment.payment.railIdentifier = null) },
  {
    action: 'EXTEND',
    breaks: 'an expiry more than 6 hours away',
    reason: 'EXTEND_TOO_EARLY',
    change: (f) => void (f.payment.payment.quoteExpiresAt = '2026-11-23T18:30:00.001Z'),
  },
  { action: 'FULFILL_SAR', breaks: 'a crypto attempt', reason: 'RAIL_NOT_SUPPORTED', change: (f) => void (f.payment.crypto = true) },
  { action: 'FULFILL_SAR', breaks: 'no seller path on the node', reason: 'SAR_DISABLED', change: (f) => void (f.sellerRelease = false) },
  { action: 'FULFILL_SAR', breaks: 'a PayPal attempt', reason: 'PAYPAL_NOT_SUPPORTED', change: (f) => void (f.payment.rail = 'paypal') },
  { action: 'FULFILL_SAR', breaks: 'a Zelle attempt', reason: 'SAR_RAIL_DISABLED', change: (f) => void (f.payment.rail = 'zelle') },
  { action: 'FULFILL_SAR', breaks: 'Venmo release switched off', reason: 'SAR_RAIL_DISABLED', change: (f) => void (f.sellerRailsOff = new Set(['venmo'])) },
  {
    action: 'FULFILL_SAR',
    breaks: 'a recipient without automated release',
    reason: 'SAR_NOT_AVAILABLE',
    change: (f) => void (f.payment.sellerAutomatedRelease = false),
  },
  { action: 'FULFILL_SAR', breaks: 'a CANCELLED attempt', reason: 'PAYMENT_STATUS_NOT_ELIGIBLE', change: (f) => void (f.payment.status = 'CANCELLED') },
  { action: 'FULFILL_SAR', breaks: 'no intent yet', reason: 'INTENT_HASH_MISSING', change: (f) => void (f.payment.payment.railIdentifier = null) },
  {
    action: 'FULFILL_SAR',
    breaks: 'PayPal without a seller path: the environment is checked first',
    reason: 'SAR_DISABLED',
    change: (f) => void ((f.payment.rail = 'paypal'), (f.sellerRelease = false)),
  },
];

for (const row of rows) {
  test(`${row.action}: ${row.breaks} → ${row.reason}`, (t) => {
    t.is(ineligibility(facts(row.action, row.change))?.reason, row.reason);
  });
}

for (const action of ['RECREATE', 'EXTEND', 'FULFILL_SAR'] as const) {
  test(`${action}: an attempt that meets every rule is eligible`, (t) => {
    t.is(ineligibility(facts(action)), null);
  });
}

test('EXTEND: an expiry exactly 6 hours away may be extended', (t) => {
  t.is(ineligibility(facts('EXTEND', (f) => void (f.payment.payment.quoteExpiresAt = '2026-11-23T18:30:00.000Z'))), null);
});

test('FULFILL_SAR: Cash App and Wise offer automated release like Venmo', (t) => {
  for (const rail of ['cashapp', 'wise']) t.is(ineligibility(facts('FULFILL_SAR', (f) => void (f.payment.rail = rail))), null, rail);
});
