/**
 * The payment machine on a crypto rail: document 1's rows as a conversion provider plays
 * them. The attempt is registered before it exists (railIdentifier is the provider's
 * request), asks the provider on a timer that slows down, settles on a delivery read from
 * the chain (a short one credits in proportion), and ends on the window (EXPIRED, with
 * PAYMENT_FAILED as document 1 names it on live crypto rails), the customer's cancel or
 * the provider's failure, each ending the provider's request; a delivery after the end
 * still settles it.
 */
import test from 'ava';
import type { AnyEventObject } from 'xstate';
import {
  TRANSFER_FAST_POLLS,
  TRANSFER_POLL_MS,
  TRANSFER_SLOW_POLL_MS,
  toCheckoutPayment,
  type PaymentEvent,
  type PaymentSummary,
} from '../../../machines/payment/index.js';
import { CRYPTO_DEPOSIT, CRYPTO_REQUEST, cryptoPaymentInput, sandboxPaymentInput } from '../../support/payment-input.js';
import { context, create, delayed, emitted, only, paramsOf, run, send, statusOf, types, type Action, type Snapshot } from '../../support/payment-steps.js';

const DELIVERY_TX = '0xd0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0';
const INPUT = cryptoPaymentInput();
const { price } = INPUT;

const received = (at = '2026-11-23T12:05:00.000Z'): PaymentEvent => ({
  type: 'TRANSFER_RECEIVED',
  originAmount: INPUT.conversion!.originAmount.toString(),
  sourceTransactionHash: '0x51',
  at,
});
const delivered = (net: bigint, fee: bigint, at = '2026-11-23T12:05:30.000Z'): PaymentEvent => ({
  type: 'TRANSFER_DELIVERED',
  transactionHash: DELIVERY_TX,
  netUsdc: net.toString(),
  feeUsdc: fee.toString(),
  originAmount: INPUT.conversion!.originAmount.toString(),
  at,
});
const failed = (at = '2026-11-23T12:05:30.000Z'): PaymentEvent => ({
  type: 'TRANSFER_FAILED',
  status: 'REFUNDED',
  message: 'refunded: the token could not be swapped',
  at,
});

const stepOf = (snapshot: Snapshot) => (typeof snapshot.value === 'string' ? null : (snapshot.value as { CREATED?: string }).CREATED);
const pollTimer = (actions: Action[]) => delayed(actions).filter((timer) => timer.delay === TRANSFER_POLL_MS || timer.delay === TRANSFER_SLOW_POLL_MS);
const windowEvent = (actions: Action[]) => delayed(actions).find((timer) => timer.delay === INPUT.windowMs)!.event as unknown as PaymentEvent;
const reports = (actions: Action[]) =>
  (paramsOf(actions, 'tell') as unknown as Array<{ event: { type: string; payment?: PaymentSummary } }>)
    .filter((tell) => tell.event.type === 'PAYMENT_UPDATED')
    .map((tell) => tell.event.payment!);

test('a live crypto attempt is registered from the start: it asks the provider about its request, with no intent signalled', (t) => {
  const [snapshot, actions] = create(INPUT);
  t.is(stepOf(snapshot), 'AWAITING_TRANSFER');
  t.is(context(snapshot).railIdentifier, CRYPTO_REQUEST);
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_CREATED'],
  );
  t.false(types(actions).includes('signalIntent'));
  t.like(only(actions, 'checkTransfer'), {
    paymentId: 'pay_crypto',
    requestId: CRYPTO_REQUEST,
    received: false,
    recipient: INPUT.conversion!.recipient,
    feeRecipient: INPUT.conversion!.feeRecipient,
  });
  t.deepEqual(
    reports(actions).map((report) => report.step),
    ['AWAITING_TRANSFER'],
  );
  const view = toCheckoutPayment(context(snapshot), 'CREATED', { hosted: true });
  t.is(view.paymentAmount, '25.025');
  t.is(view.currency, 'USDC');
  t.is(view.payTo, CRYPTO_DEPOSIT);
  t.is(view.suggestedMemo, null);
  t.is(view.railIdentifier, CRYPTO_REQUEST);
  t.is(view.quoteExpiresAt, '2026-11-23T18:00:00.000Z');
  // Document 1's rate snapshotted at quote time: on a crypto rail, the token paid per USD delivered.
  t.is(view.currencyPerUsdRate, '1.001000');
});

test('the provider is asked every 5 seconds for 5 minutes, then every minute', (t) => {
  let [snapshot, actions] = create(INPUT);
  for (let poll = 0; poll < TRANSFER_FAST_POLLS; poll++) {
    const [timer] = pollTimer(actions);
    t.is(timer?.delay, TRANSFER_POLL_MS);
    [snapshot, actions] = send(snapshot, timer!.event);
    t.is(paramsOf(actions, 'checkTransfer').length, 1);
  }
  t.is(context(snapshot).transferPolls, TRANSFER_FAST_POLLS);
  t.deepEqual(
    pollTimer(actions).map((timer) => timer.delay),
    [TRANSFER_SLOW_POLL_MS],
  );
  // Polling writes no webhook and leaves the attempt where it was.
  t.is(stepOf(snapshot), 'AWAITING_TRANSFER');
  t.deepEqual(emitted(actions), []);
});

test('the transfer received: CONVERTING, paid as far as the order is told, and neither the window nor the customer ends it', (t) => {
  const [created, createdActions] = create(INPUT);
  const [converting, actions] = send(created, received());
  t.is(stepOf(converting), 'CONVERTING');
  t.true(reports(actions)[0]!.paid);
  t.is(only(actions, 'checkTransfer').received, true);
  const [afterWindow] = send(converting, windowEvent(createdActions));
  t.is(statusOf(afterWindow), 'CREATED');
  t.is(stepOf(afterWindow), 'CONVERTING');
  const [afterCancel, cancelActions] = send(converting, { type: 'CANCEL', reason: 'CUSTOMER', at: '2026-11-23T12:06:00.000Z' });
  t.is(stepOf(afterCancel), 'CONVERTING');
  t.deepEqual(emitted(cancelActions), []);
});

test('a delivery settles it: fulfillTransaction and the amounts read from the chain, PAYMENT_SETTLED, the order credited once', (t) => {
  const fee = (price.releasedUsdc * 50n) / 10_000n;
  const [settled, actions] = run(create(INPUT)[0], received(), delivered(price.releasedUsdc - fee, fee));
  t.is(statusOf(settled), 'SETTLED');
  const view = toCheckoutPayment(context(settled), 'SETTLED', { hosted: false });
  t.is(view.fulfillTransaction, DELIVERY_TX);
  t.is(view.netSettledUsdcAmount, '24.875');
  t.is(view.totalUsdcFeeAmount, '0.125');
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_SETTLED'],
  );
  const applied = (paramsOf(actions, 'tell') as unknown as Array<{ event: { type: string; usdcAmount?: bigint } }>).filter(
    (tell) => tell.event.type === 'APPLY_SETTLEMENT',
  );
  t.deepEqual(
    applied.map((tell) => tell.event.usdcAmount),
    [price.creditUsdc],
  );
  // The same delivery told again changes nothing.
  const [again, againActions] = send(settled, delivered(price.releasedUsdc - fee, fee));
  t.is(statusOf(again), 'SETTLED');
  t.deepEqual(emitted(againActions), []);
});

test('a short delivery is a partial fill: the order is credited in proportion to what was delivered', (t) => {
  const gross = price.releasedUsdc / 2n;
  const fee = (gross * 50n) / 10_000n;
  const [settled, actions] = send(create(INPUT)[0], delivered(gross - fee, fee));
  t.is(statusOf(settled), 'SETTLED');
  t.is(context(settled).creditedUsdcAmount, price.creditUsdc / 2n);
  t.is(toCheckoutPayment(context(settled), 'SETTLED', { hosted: false }).netSettledUsdcAmount, '12.4375');
  t.true(types(actions).includes('tell'));
});

test('the window closing: EXPIRED with PAYMENT_FAILED on a live crypto rail, the provider request cancelled; a sandbox one says PAYMENT_EXPIRED', (t) => {
  const [created, createdActions] = create(INPUT);
  const [expired, actions] = send(created, windowEvent(createdActions));
  t.is(statusOf(expired), 'EXPIRED');
  t.deepEqual(
    emitted(actions).map((event) => [event.type, event.payment.status]),
    [['PAYMENT_FAILED', 'EXPIRED']],
  );
  t.like(only(actions, 'cancelTransfer'), { requestId: CRYPTO_REQUEST });
  t.is(only(actions, 'cancelIntent').intentHash, null);

  const sandbox = cryptoPaymentInput({
    ...sandboxPaymentInput({ id: 'pay_crypto_sbx' }),
    rail: 'relay_42161',
    conversion: INPUT.conversion,
    windowMs: INPUT.windowMs,
  });
  const [sandboxCreated, sandboxActions] = create(sandbox);
  t.is(stepOf(sandboxCreated), 'AWAITING_PAYMENT');
  const [, sandboxExpiry] = send(sandboxCreated, windowEvent(sandboxActions));
  t.deepEqual(
    emitted(sandboxExpiry).map((event) => event.type),
    ['PAYMENT_EXPIRED'],
  );
  t.is(only(sandboxExpiry, 'cancelTransfer').requestId, null);
});

test('a delivery after the attempt ended (cancelled or expired) still settles it: the money moved', (t) => {
  const [created, createdActions] = create(INPUT);
  for (const ending of [{ type: 'CANCEL', reason: 'CUSTOMER', at: '2026-11-23T12:02:00.000Z' } as PaymentEvent, windowEvent(createdActions)]) {
    const [ended] = send(created, ending);
    t.not(statusOf(ended), 'CREATED');
    const fee = (price.releasedUsdc * 50n) / 10_000n;
    const [settled, actions] = send(ended, delivered(price.releasedUsdc - fee, fee, '2026-11-23T18:00:05.000Z'));
    t.is(statusOf(settled), 'SETTLED');
    t.deepEqual(
      emitted(actions).map((event) => event.type),
      ['PAYMENT_SETTLED'],
    );
  }
});

test('the provider failing or refunding the transfer fails the attempt with its reason', (t) => {
  const [failedAttempt, actions] = run(create(INPUT)[0], received(), failed());
  t.is(statusOf(failedAttempt), 'FAILED');
  const view = toCheckoutPayment(context(failedAttempt), 'FAILED', { hosted: true });
  t.is(view.errorCode, 'TRANSFER_REFUNDED');
  t.is(view.errorMessage, 'refunded: the token could not be swapped');
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_FAILED'],
  );
});

test('machine events of other rails are not taken by a crypto attempt', (t) => {
  const [created] = create(INPUT);
  for (const event of [
    { type: 'SUBMIT_PROOF', proof: { encryptedSessionMaterial: 'x', params: {} }, at: '2026-11-23T12:01:00.000Z' },
    { type: 'SIMULATE_PAYMENT', at: '2026-11-23T12:01:00.000Z' },
  ] as AnyEventObject[]) {
    const [next] = send(created, event);
    t.is(stepOf(next), 'AWAITING_TRANSFER', event.type);
  }
});
