import test from 'ava';
import { initialTransition, transition } from 'xstate';
import { hostedOrderFields, orderMachine, toCheckoutOrder, type OrderContext, type OrderEvent, type OrderInput } from '../../../machines/order/index.js';
import { CREATED_AT, fixedOrderInput, openOrderInput } from '../../support/order-input.js';

const BASE_FIELDS = [
  'id',
  'merchantId',
  'amountMode',
  'status',
  'chargebackStatus',
  'chargebacks',
  'refundStatus',
  'refundAmountUsdc',
  'refundDepositId',
  'refundTransactionHash',
  'refundMetadata',
  'inPersonCheckout',
  'destinationAddress',
  'destinationToken',
  'destinationChainId',
  'feePayer',
  'buyerFeeShareBps',
  'enabledRails',
  'successUrl',
  'cancelUrl',
  'notes',
  'metadata',
  'referralSplitConfig',
  'cryptoReferralSplitConfig',
  'cancelledAt',
  'completedAt',
  'createdAt',
  'updatedAt',
];

function contextAfter(input: OrderInput, ...events: OrderEvent[]): OrderContext {
  let [snapshot] = initialTransition(orderMachine, input);
  for (const event of events) [snapshot] = transition(orderMachine, snapshot, event);
  return snapshot.context;
}

test('a FIXED order is every CheckoutOrderBase field plus its amounts as decimal strings', (t) => {
  const order = toCheckoutOrder(contextAfter(fixedOrderInput({ requestedUsdcAmount: 12_500_000n })), 'CREATED');
  t.deepEqual(Object.keys(order).sort(), [...BASE_FIELDS, 'requestedUsdcAmount', 'remainingUsdcAmount'].sort());
  t.deepEqual(order, {
    id: 'ord_fixed',
    merchantId: 'mer_1',
    amountMode: 'FIXED',
    status: 'CREATED',
    chargebackStatus: 'NONE',
    chargebacks: [],
    refundStatus: 'NONE',
    refundAmountUsdc: null,
    refundDepositId: null,
    refundTransactionHash: null,
    refundMetadata: null,
    inPersonCheckout: false,
    destinationAddress: '0x1111111111111111111111111111111111111111',
    destinationToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    destinationChainId: '8453',
    feePayer: 'MERCHANT',
    buyerFeeShareBps: 0,
    enabledRails: ['venmo', 'zelle'],
    successUrl: 'https://shop.example/ok',
    cancelUrl: null,
    notes: { sku: 'A1', customer: 'Ada Lovelace' },
    metadata: null,
    referralSplitConfig: null,
    cryptoReferralSplitConfig: null,
    cancelledAt: null,
    completedAt: null,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    requestedUsdcAmount: '12.5',
    remainingUsdcAmount: '12.5',
  });
});

test('an OPEN order adds openAmount and amountVersion, with null amounts until one is saved', (t) => {
  const order = toCheckoutOrder(contextAfter(openOrderInput()), 'CREATED');
  t.deepEqual(Object.keys(order).sort(), [...BASE_FIELDS, 'requestedUsdcAmount', 'remainingUsdcAmount', 'openAmount', 'amountVersion'].sort());
  t.like(order, {
    amountMode: 'OPEN',
    requestedUsdcAmount: null,
    remainingUsdcAmount: null,
    amountVersion: 0,
    openAmount: { currency: 'EUR', minAmount: '5.00', maxAmount: '500.00', presets: ['10.00', '20.00'] },
  });
});

test('the order is plain JSON: no bigint survives into it', (t) => {
  const order = toCheckoutOrder(contextAfter(fixedOrderInput()), 'CREATED');
  t.deepEqual(JSON.parse(JSON.stringify(order)), order);
});

test('an order whose amount mode and amounts disagree is a programming error, not a quiet null', (t) => {
  const context = contextAfter(fixedOrderInput());
  t.throws(() => toCheckoutOrder({ ...context, requestedUsdcAmount: null, remainingUsdcAmount: null }, 'CREATED'), {
    message: /FIXED order ord_fixed has no amount/,
  });
  t.throws(() => toCheckoutOrder({ ...context, amountMode: 'OPEN' }, 'CREATED'), { message: /OPEN order ord_fixed has no openAmount/ });
});

test('hosted fields: a fiat-priced order shows its fiat price until value settles', (t) => {
  const requestedFiat = { amount: '100.00', currency: 'EUR' };
  const input = fixedOrderInput({ requestedUsdcAmount: 108_695_653n, requestedFiat });
  t.deepEqual(hostedOrderFields(contextAfter(input), 'CREATED'), {
    requestedFiat,
    amountLock: null,
    bridgeInfo: null,
    applePayChargeUsdcAmount: null,
    savedInput: null,
  });
  const settled = contextAfter(input, { type: 'APPLY_SETTLEMENT', paymentId: 'pay_1', usdcAmount: 1_000_000n, at: CREATED_AT });
  t.is(hostedOrderFields(settled, 'PARTIALLY_FULFILLED').requestedFiat, null);
  t.is(hostedOrderFields(contextAfter(fixedOrderInput()), 'CREATED').requestedFiat, null, 'a USDC-priced order has none');
});

test('hosted fields: the amount is unlocked until value settles, then PAID; a cancelled order with nothing settled has no lock', (t) => {
  const settle = (paymentId: string, usdcAmount: bigint): OrderEvent => ({ type: 'APPLY_SETTLEMENT', paymentId, usdcAmount, at: CREATED_AT });
  const cancel: OrderEvent = { type: 'CANCEL', at: CREATED_AT };
  t.is(hostedOrderFields(contextAfter(fixedOrderInput()), 'CREATED').amountLock, null);
  t.is(hostedOrderFields(contextAfter(fixedOrderInput(), settle('pay_1', 1_000_000n)), 'PARTIALLY_FULFILLED').amountLock, 'PAID');
  t.is(hostedOrderFields(contextAfter(fixedOrderInput(), settle('pay_1', 100_000_000n)), 'FULFILLED').amountLock, 'PAID');
  t.is(hostedOrderFields(contextAfter(fixedOrderInput(), cancel), 'CANCELLED').amountLock, null);
  t.is(hostedOrderFields(contextAfter(fixedOrderInput(), settle('pay_1', 1_000_000n), cancel), 'CANCELLED').amountLock, 'PAID');
});
