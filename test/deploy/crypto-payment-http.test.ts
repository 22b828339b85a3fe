/**
 * Crypto rails end to end through HTTP on the embedded node: the local conversion provider
 * quotes a deposit address, the customer's wallet sends USDC on the local chain (standing
 * in for Arbitrum), the provider delivers USDC to the order's destination and the
 * platform's fee to its recipient, and the payment settles from the delivery's receipt.
 * A short transfer is a partial fill and the remainder is paid in a new attempt; the
 * window closing fails the attempt (PAYMENT_FAILED) and a transfer after it is refunded;
 * a transfer that reached the provider before the customer cancelled still counts.
 */
import test, { type ExecutionContext } from 'ava';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { formatUsdc, parseUsdc } from '../../machines/money.js';
import type { CheckoutPayment } from '../../machines/payment/index.js';
import { CRYPTO_WINDOW_MS, FIAT_RAILS } from '../../machines/rails.js';
import { TRANSFER_POLL_MS } from '../../machines/payment/index.js';
import { PROVIDER_FEE_BPS } from '../../deploy/conversion-simulator/index.js';
import { anvilTestAccount } from '../../indexer/chain/index.js';
import { LOCAL_FEE_RECIPIENT_INDEX } from '../../deploy/payments.js';
import { answerOf, placeOrder, recordEvents, usdcBalance, type PlacedOrder } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { untilOnClock } from '../support/real-time-poll.js';

const RAIL = 'relay_42161';

/** A live merchant with `rails` enabled, as an operator would set them. */
async function cryptoMerchant(gateway: TestGateway, rails: string[]) {
  const merchant = await gateway.createMerchant();
  answerOf(await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { enabledRails: rails }), 200, 'enabling the rails');
  return merchant;
}

async function cryptoCheckout(t: ExecutionContext, amount = '25') {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20 });
  t.teardown(() => gateway.stop());
  const events = await recordEvents(gateway);
  const { liveKey } = await cryptoMerchant(gateway, [...FIAT_RAILS, RAIL]);
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const order = await placeOrder(gateway, liveKey, { requestedUsdcAmount: amount, destinationAddress: destination });
  const simulator = gateway.node.conversions.simulator!;
  return { gateway, events, liveKey, destination, order, simulator };
}

const readPayment = async (order: PlacedOrder, id: string) =>
  answerOf(await order.customer('GET', `/payments/${id}`), 200, 'the payment read') as CheckoutPayment;

/** Polls on the node's clock, a transfer poll at a time: the payment asks the provider each time its poll timer fires. */
function until<T>(gateway: TestGateway, read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  return untilOnClock(
    gateway.clock,
    async () => {
      const value = await read();
      if (!done(value)) await gateway.clock.advance(TRANSFER_POLL_MS);
      return value;
    },
    done,
    what,
    { attempts: 400 },
  );
}

async function send(simulatorUrl: string, depositAddress: string, amount: string): Promise<string> {
  const response = await fetch(`${simulatorUrl}/_buyer/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ depositAddress, token: 'USDC', amount }),
  });
  const answer = (await response.json()) as { transactionHash: string };
  if (response.status !== 201) throw new Error(`the test wallet refused: ${JSON.stringify(answer)}`);
  return answer.transactionHash;
}

async function providerStatus(simulatorUrl: string, requestId: string): Promise<string> {
  return ((await (await fetch(`${simulatorUrl}/requests/${requestId}`)).json()) as { status: string }).status;
}

const halfOf = (amount: string) => formatUsdc(parseUsdc(amount) / 2n);

test('a short transfer on a crypto rail is a partial fill; the remainder, paid in a new attempt, fulfils the order', async (t) => {
  const { gateway, events, destination, order, simulator } = await cryptoCheckout(t);
  const feeRecipient = anvilTestAccount(LOCAL_FEE_RECIPIENT_INDEX).address;
  const feesBefore = await usdcBalance(gateway, feeRecipient);

  // The quote: the USDC owed plus the provider's 0.1%, sent to a fresh deposit address.
  const quotes = answerOf(await order.customer('GET', `/quotes?rail=${RAIL}`), 200, 'the quotes');
  t.is(quotes.platforms.length, 1);
  const [quote] = quotes.platforms;
  t.is(quote.platform, RAIL);
  t.is(quote.currency, 'USDC');
  t.is(quote.displayAmount, '25.025');
  t.is(quote.spreadPercentage, PROVIDER_FEE_BPS / 100);

  const first = answerOf(await order.customer('POST', '/payments', { rail: RAIL }), 201, 'the first payment') as CheckoutPayment;
  t.is(first.status, 'CREATED');
  t.is(first.currency, 'USDC');
  t.is(first.paymentAmount, '25.025');
  t.regex(first.payTo, /^0x[0-9a-fA-F]{40}$/);
  t.regex(first.railIdentifier!, /^0x[0-9a-f]{64}$/);
  t.is(first.quote.signalIntent.depositId, first.railIdentifier!);
  t.is(first.quote.signalIntent.toAddress.toLowerCase(), destination.toLowerCase());
  t.is(first.suggestedMemo, null);
  t.is(Date.parse(first.quoteExpiresAt) - Date.parse(first.createdAt), CRYPTO_WINDOW_MS);
  // The merchant bears the fees (MERCHANT): the platform's 0.5% of the 25 USDC delivered.
  t.is(first.totalUsdcFeeAmount, '0.125');
  // A crypto attempt is never proven: its transfer is seen arriving.
  const proof = await order.customer('POST', `/payments/${first.id}/proof`, { encryptedSessionMaterial: 'x', params: {} });
  t.is(proof.status, 409);
  t.is(proof.body.errorCode, 'CRYPTO_PAYMENT');

  // Half of what was asked: the provider converts half, 12.5 USDC less the platform's fee.
  await send(simulator.url, first.payTo, halfOf(first.paymentAmount));
  const short = await until(
    gateway,
    () => readPayment(order, first.id),
    (payment) => payment.status === 'SETTLED',
    'the short transfer to settle',
  );
  const net1 = parseUsdc('12.5') - parseUsdc('12.5') / 200n;
  t.is(short.netSettledUsdcAmount, formatUsdc(net1));
  t.is(short.totalUsdcFeeAmount, formatUsdc(parseUsdc('12.5') / 200n));
  t.regex(short.fulfillTransaction!, /^0x[0-9a-f]{64}$/);
  t.is(await usdcBalance(gateway, destination), net1);

  // The payment tells the order after its own turn: the order follows a moment later.
  const partial = await until(
    gateway,
    async () => answerOf(await gateway.request('GET', `/api/v1/orders/${order.id}`), 200, 'the hosted read'),
    (read) => read.order.status !== 'CREATED',
    'the order to count the settlement',
  );
  t.is(partial.order.status, 'PARTIALLY_FULFILLED');
  t.is(partial.order.remainingUsdcAmount, '12.5');

  // The remainder, in a new attempt: exactly what was asked this time.
  const second = answerOf(await order.customer('POST', '/payments', { rail: RAIL, currency: 'USDC' }), 201, 'the second payment') as CheckoutPayment;
  t.is(second.paymentAmount, '12.5125');
  t.not(second.payTo, first.payTo);
  await send(simulator.url, second.payTo, second.paymentAmount);
  const full = await until(
    gateway,
    () => readPayment(order, second.id),
    (payment) => payment.status === 'SETTLED',
    'the remainder to settle',
  );
  const net2 = parseUsdc('12.5') - parseUsdc('12.5') / 200n;
  t.is(full.netSettledUsdcAmount, formatUsdc(net2));
  t.is(await usdcBalance(gateway, destination), net1 + net2);
  t.is((await usdcBalance(gateway, feeRecipient)) - feesBefore, parseUsdc('25') / 200n);

  const fulfilled = answerOf(await gateway.request('GET', `/api/v1/orders/${order.id}`), 200, 'the hosted read');
  t.is(fulfilled.order.status, 'FULFILLED');
  t.is(fulfilled.order.remainingUsdcAmount, '0');
  t.is(fulfilled.currentPayment.id, second.id);
  t.deepEqual(await events.typesOf(order.id, first.id, second.id), [
    'ORDER_CREATED',
    'PAYMENT_CREATED',
    // Document 1 names no event for a partial fill: the order's PARTIALLY_FULFILLED shows on its reads.
    'PAYMENT_SETTLED',
    'PAYMENT_CREATED',
    'PAYMENT_SETTLED',
    'ORDER_FULFILLED',
  ]);
});

test('the window closing fails a crypto attempt with PAYMENT_FAILED; a transfer after it is refunded and counts for nothing', async (t) => {
  const { gateway, events, destination, order, simulator } = await cryptoCheckout(t);
  const payment = answerOf(await order.customer('POST', '/payments', { rail: RAIL }), 201, 'the payment') as CheckoutPayment;
  await gateway.clock.advance(CRYPTO_WINDOW_MS);
  const expired = await until(
    gateway,
    () => readPayment(order, payment.id),
    (read) => read.status === 'EXPIRED',
    'the attempt to expire',
  );
  t.is(expired.completedAt, payment.quoteExpiresAt);
  t.is(
    await until(
      gateway,
      () => providerStatus(simulator.url, payment.railIdentifier!),
      (status) => status === 'failure',
      'the provider request to be cancelled',
    ),
    'failure',
  );

  const customer = simulator.customer;
  await send(simulator.url, payment.payTo, payment.paymentAmount);
  t.is(
    await until(
      gateway,
      () => providerStatus(simulator.url, payment.railIdentifier!),
      (status) => status === 'refund',
      'the late transfer to be refunded',
    ),
    'refund',
  );
  t.is(
    await until(
      gateway,
      () => usdcBalance(gateway, customer),
      (held) => held === parseUsdc(payment.paymentAmount),
      'the refund to land',
    ),
    parseUsdc(payment.paymentAmount),
  );
  t.is(await usdcBalance(gateway, destination), 0n);
  t.is((await readPayment(order, payment.id)).status, 'EXPIRED');
  t.deepEqual(await events.typesOf(order.id, payment.id), ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_FAILED']);
  const hosted = answerOf(await gateway.request('GET', `/api/v1/orders/${order.id}`), 200, 'the hosted read');
  t.is(hosted.order.status, 'CREATED');
});

test('a transfer that reached the provider before the customer cancelled is delivered and still settles the cancelled attempt', async (t) => {
  const { gateway, events, destination, order, simulator } = await cryptoCheckout(t);
  const payment = answerOf(await order.customer('POST', '/payments', { rail: RAIL }), 201, 'the payment') as CheckoutPayment;
  // The provider takes the transfer; the node has not asked since (its poll waits on its clock), so the attempt still reads as waiting.
  await send(simulator.url, payment.payTo, payment.paymentAmount);
  await untilOnClock(
    gateway.clock,
    () => providerStatus(simulator.url, payment.railIdentifier!),
    (status) => status === 'success',
    'the provider to deliver',
  );
  const cancelled = answerOf(await order.customer('POST', `/payments/${payment.id}/cancel`), 200, 'the cancel') as CheckoutPayment;
  t.is(cancelled.status, 'CANCELLED');

  const settled = await until(
    gateway,
    () => readPayment(order, payment.id),
    (read) => read.status === 'SETTLED',
    'the late delivery to settle it',
  );
  t.is(parseUsdc(settled.netSettledUsdcAmount!), await usdcBalance(gateway, destination));
  t.is(settled.netSettledUsdcAmount, '24.875');
  const hosted = answerOf(await gateway.request('GET', `/api/v1/orders/${order.id}`), 200, 'the hosted read');
  t.is(hosted.order.status, 'FULFILLED');
  t.deepEqual(await events.typesOf(order.id, payment.id), ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_CANCELLED', 'PAYMENT_SETTLED', 'ORDER_FULFILLED']);
});

test('a crypto attempt whose transfer the provider holds cannot be cancelled or expired; the delivery settles it', async (t) => {
  const { gateway, order, simulator } = await cryptoCheckout(t);
  const payment = answerOf(await order.customer('POST', '/payments', { rail: RAIL }), 201, 'the payment') as CheckoutPayment;
  simulator.hold(true);
  await send(simulator.url, payment.payTo, payment.paymentAmount);
  await untilOnClock(
    gateway.clock,
    () => providerStatus(simulator.url, payment.railIdentifier!),
    (status) => status === 'pending',
    'the provider to take the transfer',
  );
  // The next poll learns the provider holds it: CONVERTING, which the hosted order shows as a payment that may settle.
  await gateway.clock.advance(TRANSFER_POLL_MS);
  const converting = await until(
    gateway,
    async () => gateway.node.system.documents('payment').findOne({ _id: payment.id }),
    (doc) => (doc?.view as { step?: string } | undefined)?.step === 'CONVERTING',
    'the attempt to learn of the transfer',
  );
  t.truthy(converting);
  const refused = await order.customer('POST', `/payments/${payment.id}/cancel`);
  t.is(refused.status, 409);
  t.is(refused.body.errorCode, 'PAYMENT_NOT_CANCELLABLE');
  await gateway.clock.advance(CRYPTO_WINDOW_MS);
  t.is((await readPayment(order, payment.id)).status, 'CREATED');

  simulator.hold(false);
  const settled = await until(
    gateway,
    () => readPayment(order, payment.id),
    (read) => read.status === 'SETTLED',
    'the delivery to settle it',
  );
  t.is(settled.netSettledUsdcAmount, '24.875');
});

test('crypto rails refuse what the provider cannot take: an unknown token, an origin chain it does not serve', async (t) => {
  const { gateway, liveKey } = await cryptoCheckout(t);
  const order = await placeOrder(gateway, liveKey, { requestedUsdcAmount: '10', enabledRails: ['venmo', RAIL] });
  const token = await order.customer('POST', '/payments', { rail: RAIL, currency: 'DOGE' });
  t.is(token.status, 422);
  t.is(token.body.errorCode, 'CURRENCY_NOT_SUPPORTED');
  const merchant = await cryptoMerchant(gateway, ['venmo', 'relay_1']);
  const elsewhere = await placeOrder(gateway, merchant.liveKey, { requestedUsdcAmount: '10' });
  const chain = await elsewhere.customer('POST', '/payments', { rail: 'relay_1' });
  t.is(chain.status, 422);
  t.is(chain.body.errorCode, 'RAIL_NOT_SUPPORTED');
  // Across every rail, the one this node does not serve is left out of the quotes.
  const quotes = answerOf(await elsewhere.customer('GET', '/quotes'), 200, 'the quotes');
  t.false(quotes.platforms.some((quote: { platform: string }) => quote.platform === 'relay_1'));
  t.is(await gateway.node.system.documents('payment').count({}), 0);
});
