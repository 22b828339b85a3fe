/**
 * The customer's checkout endpoints over HTTP (/api/v1/checkout/orders/{orderId}), on the
 * sandbox-only node: the order token as the credential, quotes at the reference rate, a
 * payment attempt and its steps (replace, cancel, simulate, mark sent, proof), and the
 * window closing on the test clock. Expected figures come from the pricing functions and
 * the local rate table (test/support/checkout.ts), never from the answers themselves.
 */
import test from 'ava';
import { FIAT_RAILS, RAIL_CURRENCIES } from '../../machines/rails.js';
import { fiatToUsdc, formatUsdc, parseFiat } from '../../machines/money.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import {
  advance,
  DESTINATION,
  expectedQuote,
  hostedRead,
  HOUR_MS,
  isoNow,
  placeOrder,
  recordEvents,
  referenceRate,
  startPayment,
} from '../support/checkout.js';

async function sandbox(t: { teardown(fn: () => Promise<void>): void }) {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const merchant = await gateway.createMerchant();
  return { gateway, ...merchant };
}

const checkoutPath = (orderId: string, path: string) => `/api/v1/checkout/orders/${orderId}${path}`;
const withToken = (gateway: TestGateway, method: string, path: string, token: string, body?: unknown) =>
  gateway.request(method, path, { body, headers: { authorization: `Bearer ${token}` } });

test('the order token is the credential: none is 401, a wrong one and an unknown order are the same 404, an API key opens nothing', async (t) => {
  const { gateway, sandboxKey } = await sandbox(t);
  const order = await placeOrder(gateway, sandboxKey);
  const other = await placeOrder(gateway, sandboxKey);
  const payment = await startPayment(order);

  const missing = await gateway.request('GET', checkoutPath(order.id, '/quotes'));
  t.is(missing.status, 401);
  t.deepEqual(missing.body, { success: false, message: 'Missing order token: send Authorization: Bearer <orderToken>', responseObject: null, statusCode: 401 });

  const notFound = { success: false, message: 'Order not found', responseObject: null, statusCode: 404, errorCode: 'NOT_FOUND' };
  const wrong = await withToken(gateway, 'GET', checkoutPath(order.id, '/quotes'), other.token);
  t.is(wrong.status, 404);
  t.deepEqual(wrong.body, notFound);
  const unknown = await withToken(gateway, 'GET', checkoutPath('ord_AAAAAAAAAAAAAAAAAAAAAAAA', '/quotes'), order.token);
  t.is(unknown.status, 404);
  // Byte for byte the same envelope: a caller cannot tell an order that exists from one that does not.
  t.is(JSON.stringify(unknown.body), JSON.stringify(wrong.body));

  // The same on the payment paths: another order's token does not open this order's payment.
  const foreignRead = await withToken(gateway, 'GET', checkoutPath(order.id, `/payments/${payment.id}`), other.token);
  t.is(JSON.stringify(foreignRead.body), JSON.stringify(notFound));
  const foreignCancel = await withToken(gateway, 'POST', checkoutPath(order.id, `/payments/${payment.id}/cancel`), other.token);
  t.is(foreignCancel.status, 404);
  t.is((await order.customer('GET', `/payments/${payment.id}`)).body.responseObject.status, 'CREATED');
  // A payment of another order, read through this order with its own token.
  const theirs = await startPayment(other);
  const crossed = await order.customer('GET', `/payments/${theirs.id}`);
  t.is(crossed.status, 404);
  t.is(crossed.body.errorCode, 'NOT_FOUND');

  // An API key is a merchant's credential, never the customer's: in X-API-Key it is no token, as a bearer it is a wrong one.
  const keyed = await gateway.request('GET', checkoutPath(order.id, '/quotes'), { key: sandboxKey });
  t.is(keyed.status, 401);
  t.is(keyed.body.responseObject, null);
  const keyAsBearer = await withToken(gateway, 'GET', checkoutPath(order.id, '/quotes'), sandboxKey);
  t.deepEqual(keyAsBearer.body, notFound);

  // The token is checked before a query or a body is read: a malformed one tells a caller without the token nothing.
  t.is((await order.customer('GET', `/quotes?paymentMethodId=${'x'.repeat(40)}`)).status, 400);
  t.deepEqual((await withToken(gateway, 'GET', `${checkoutPath(order.id, '/quotes')}?paymentMethodId=${'x'.repeat(40)}`, other.token)).body, notFound);
  t.is((await order.customer('POST', '/payments', { rail: 42 })).status, 400);
  t.deepEqual((await withToken(gateway, 'POST', checkoutPath(order.id, '/payments'), other.token, { rail: 42 })).body, notFound);
  t.is((await gateway.request('POST', checkoutPath(order.id, '/amount'), { body: { amount: [] } })).status, 401);
});

test('quotes: every rail of a default order at the reference rate, priced with the fees; currency, rail and Zelle bank checked', async (t) => {
  const { gateway, sandboxKey } = await sandbox(t);
  const { fees } = gateway.node.payments;
  t.true(fees.protocolFeeBps + fees.platformFeeBps > 0, 'fees must be charged for the fee payer to matter');
  const order = await placeOrder(gateway, sandboxKey, { requestedUsdcAmount: '25' });
  // A merchant's default is every fiat rail of the catalog, and an order without enabledRails takes them all.
  t.deepEqual((await hostedRead(gateway, order.id)).order.enabledRails, [...FIAT_RAILS]);

  const all = await order.customer('GET', '/quotes');
  t.is(all.status, 200);
  t.is(all.body.responseObject.orderId, order.id);
  t.is(all.body.responseObject.fiatCurrency, null);
  const platforms = all.body.responseObject.platforms as any[];
  t.deepEqual(
    platforms.map((quote) => quote.platform),
    [...FIAT_RAILS],
  );
  for (const quote of platforms) {
    // No order currency: each rail is quoted in its home currency.
    const currency = RAIL_CURRENCIES[quote.platform as keyof typeof RAIL_CURRENCIES][0]!;
    const expected = expectedQuote(25_000_000n, currency, fees);
    t.like(
      quote,
      {
        currency,
        displayAmount: expected.displayAmount,
        currencyPerUsdRate: expected.currencyPerUsdRate,
        totalUsdcFeeAmount: expected.totalUsdcFeeAmount,
        spreadPercentage: 0,
        paymentMethodId: null,
        recipientRating: 5,
      },
      quote.platform,
    );
    t.regex(quote.payTo, /^sbx_[0-9a-f]{16}$/);
  }
  t.is(new Set(platforms.map((quote) => quote.payTo)).size, platforms.length, 'each rail has its own stand-in recipient');
  // GBP is not USD: the conversion really happens (25 USDC at 0.79).
  t.is(platforms.find((quote) => quote.platform === 'wise').displayAmount, expectedQuote(25_000_000n, 'GBP', fees).displayAmount);
  t.not(platforms.find((quote) => quote.platform === 'wise').displayAmount, platforms.find((quote) => quote.platform === 'venmo').displayAmount);

  const eur = await order.customer('GET', '/quotes?rail=venmo&currency=EUR');
  t.is(eur.status, 422);
  t.is(eur.body.errorCode, 'CURRENCY_NOT_SUPPORTED');
  // Across all rails a currency some rails do not send leaves those out.
  const inEur = await order.customer('GET', '/quotes?currency=EUR');
  t.deepEqual(
    inEur.body.responseObject.platforms.map((quote: any) => [quote.platform, quote.currency, quote.displayAmount]),
    FIAT_RAILS.filter((rail) => RAIL_CURRENCIES[rail].includes('EUR')).map((rail) => [rail, 'EUR', expectedQuote(25_000_000n, 'EUR', fees).displayAmount]),
  );

  const narrow = await placeOrder(gateway, sandboxKey, { requestedUsdcAmount: '25', enabledRails: ['venmo', 'zelle'] });
  const disabled = await narrow.customer('GET', '/quotes?rail=cashapp');
  t.is(disabled.status, 422);
  t.is(disabled.body.errorCode, 'RAIL_NOT_ENABLED');
  t.deepEqual(
    (await narrow.customer('GET', '/quotes')).body.responseObject.platforms.map((quote: any) => quote.platform),
    ['venmo', 'zelle'],
  );

  const wrongBank = await order.customer('GET', '/quotes?rail=venmo&paymentMethodId=zelle-chase');
  t.is(wrongBank.status, 400);
  t.deepEqual(Object.keys(wrongBank.body.responseObject.fieldErrors), ['paymentMethodId']);
  t.is((await order.customer('GET', '/quotes?rail=zelle&paymentMethodId=zelle-wells')).status, 400);
  const bofa = await order.customer('GET', '/quotes?rail=zelle&paymentMethodId=zelle-bofa');
  t.is(bofa.status, 200);
  const [bofaQuote] = bofa.body.responseObject.platforms;
  t.like(bofaQuote, {
    platform: 'zelle',
    paymentMethodId: 'zelle-bofa',
    currency: 'USD',
    displayAmount: expectedQuote(25_000_000n, 'USD', fees).displayAmount,
  });
  t.not(bofaQuote.payTo, platforms.find((quote) => quote.platform === 'zelle').payTo, 'the bank is the platform paid, with its own recipient');
});

test('quotes: a fiat-priced order is quoted in its own currency where the rail sends it, else in the rail’s', async (t) => {
  const { gateway, sandboxKey } = await sandbox(t);
  const { fees } = gateway.node.payments;
  const order = await placeOrder(gateway, sandboxKey, { requestedFiatAmount: '23', requestedFiatCurrency: 'EUR' });
  const owed = fiatToUsdc(2300n, referenceRate('EUR'));
  const answer = (await order.customer('GET', '/quotes')).body.responseObject;
  t.is(answer.fiatCurrency, 'EUR');
  for (const quote of answer.platforms) {
    const rail = quote.platform as keyof typeof RAIL_CURRENCIES;
    const currency = RAIL_CURRENCIES[rail].includes('EUR') ? 'EUR' : RAIL_CURRENCIES[rail][0]!;
    t.like(quote, { currency, displayAmount: expectedQuote(owed, currency, fees).displayAmount }, rail);
  }
  t.is(answer.platforms.find((quote: any) => quote.platform === 'wise').currency, 'EUR');
  // The customer may still ask for another currency the rail sends.
  t.like((await order.customer('GET', '/quotes?rail=wise&currency=GBP')).body.responseObject.platforms[0], {
    currency: 'GBP',
    displayAmount: expectedQuote(owed, 'GBP', fees).displayAmount,
  });
});

test('two creates sent at once leave exactly one attempt open: a loser is refused or cancelled by the order', async (t) => {
  const { gateway, sandboxKey } = await sandbox(t);
  const order = await placeOrder(gateway, sandboxKey);
  const answers = await Promise.all([order.customer('POST', '/payments', { rail: 'venmo' }), order.customer('POST', '/payments', { rail: 'cashapp' })]);
  const started = answers.filter((answer) => answer.status === 201);
  t.true(started.length >= 1);
  for (const answer of answers) if (answer.status !== 201) t.is(answer.body.errorCode, 'PAYMENT_IN_PROGRESS');
  await gateway.node.system.effectsIdle();
  const attempts = (await gateway.request('GET', `/api/v1/merchants/me/orders/${order.id}/payments`, { key: sandboxKey })).body.responseObject.payments;
  t.is(attempts.length, started.length);
  t.is(attempts.filter((payment: any) => payment.status === 'CREATED').length, 1);
  t.is((await hostedRead(gateway, order.id)).currentPayment.status, 'CREATED');
});

test('quotes: a PAYEE order asks the customer for the fees on top, a MERCHANT order does not', async (t) => {
  const { gateway, sandboxKey } = await sandbox(t);
  const { fees } = gateway.node.payments;
  const quote = async (feePayer: string) => {
    const order = await placeOrder(gateway, sandboxKey, { requestedUsdcAmount: '25', feePayer });
    return (await order.customer('GET', '/quotes?rail=venmo')).body.responseObject.platforms[0];
  };
  const merchant = await quote('MERCHANT');
  const payee = await quote('PAYEE');
  t.is(merchant.displayAmount, expectedQuote(25_000_000n, 'USD', fees, 'MERCHANT').displayAmount);
  t.is(payee.displayAmount, expectedQuote(25_000_000n, 'USD', fees, 'PAYEE').displayAmount);
  t.true(parseFiat(payee.displayAmount) > parseFiat(merchant.displayAmount));
  t.is(payee.totalUsdcFeeAmount, expectedQuote(25_000_000n, 'USD', fees, 'PAYEE').totalUsdcFeeAmount);
});

test('create: 201 with the whole CheckoutPayment, the hosted read shows it, a second is refused naming it, and a replacement cancels it', async (t) => {
  const { gateway, sandboxKey } = await sandbox(t);
  const { fees } = gateway.node.payments;
  const recorder = await recordEvents(gateway);
  const order = await placeOrder(gateway, sandboxKey);
  const venmoQuote = (await order.customer('GET', '/quotes?rail=venmo')).body.responseObject.platforms[0];
  const expected = expectedQuote(25_000_000n, 'USD', fees);

  const created = await order.customer('POST', '/payments', { rail: 'venmo', fiatCurrency: 'USD' });
  t.is(created.status, 201);
  const payment = created.body.responseObject;
  t.regex(payment.id, /^pay_[A-Za-z0-9]{24}$/);
  t.deepEqual(payment, {
    id: payment.id,
    orderId: order.id,
    status: 'CREATED',
    chargebackStatus: 'NONE',
    chargeback: null,
    penalties: [],
    rail: 'venmo',
    paymentMethodId: null,
    proofMode: 'SIMULATED',
    attestation: { serviceUrl: '' },
    currency: 'USD',
    payTo: venmoQuote.payTo,
    recipientRating: 5,
    quote: {
      conversionRate: expected.conversionRate.toString(),
      signalIntent: {
        processorName: 'venmo',
        depositId: 'sandbox',
        amount: expected.price.releasedUsdc.toString(),
        toAddress: DESTINATION,
        escrowAddress: '0x0000000000000000000000000000000000000000',
        fiatCurrencyCode: 'USD',
        payeeDetails: payment.quote.signalIntent.payeeDetails,
      },
      intentHash: `sim_${payment.id}`,
    },
    quoteExpiresAt: isoNow(gateway, HOUR_MS),
    memoPolicy: 'OPTIONAL',
    suggestedMemo: null,
    paymentAmount: venmoQuote.displayAmount,
    currencyPerUsdRate: '1.000000',
    netSettledUsdcAmount: null,
    totalUsdcFeeAmount: expected.totalUsdcFeeAmount,
    referralFees: null,
    railIdentifier: `sim_${payment.id}`,
    fulfillTransaction: null,
    errorCode: null,
    errorMessage: null,
    completedAt: null,
    createdAt: isoNow(gateway),
    updatedAt: isoNow(gateway),
  });
  t.regex(payment.payTo, /^sbx_/);
  t.regex(payment.quote.signalIntent.payeeDetails, /^0x[0-9a-f]{64}$/);
  t.deepEqual((await hostedRead(gateway, order.id)).currentPayment, payment);
  t.deepEqual((await order.customer('GET', `/payments/${payment.id}`)).body.responseObject, payment);

  const second = await order.customer('POST', '/payments', { rail: 'cashapp' });
  t.is(second.status, 409);
  t.is(second.body.errorCode, 'PAYMENT_IN_PROGRESS');
  t.deepEqual(second.body.responseObject, { paymentId: payment.id });

  // Naming a payment of another order is a bad request, and changes nothing here.
  const other = await placeOrder(gateway, sandboxKey);
  const foreign = await startPayment(other);
  const misnamed = await order.customer('POST', '/payments', { rail: 'cashapp', replacementPaymentId: foreign.id });
  t.is(misnamed.status, 400);
  t.deepEqual(Object.keys(misnamed.body.responseObject.fieldErrors), ['replacementPaymentId']);
  t.is((await order.customer('GET', `/payments/${payment.id}`)).body.responseObject.status, 'CREATED');
  t.is((await other.customer('GET', `/payments/${foreign.id}`)).body.responseObject.status, 'CREATED');

  await advance(gateway, 60_000);
  const replaced = await order.customer('POST', '/payments', { rail: 'cashapp', replacementPaymentId: payment.id });
  t.is(replaced.status, 201);
  const replacement = replaced.body.responseObject;
  t.not(replacement.id, payment.id);
  t.like(replacement, { status: 'CREATED', rail: 'cashapp', quoteExpiresAt: isoNow(gateway, HOUR_MS) });
  t.like((await order.customer('GET', `/payments/${payment.id}`)).body.responseObject, { status: 'CANCELLED', completedAt: isoNow(gateway) });
  t.is((await hostedRead(gateway, order.id)).currentPayment.id, replacement.id);
  // Per attempt, in order (two actors' events have no order between them on the bus).
  const oldEvents = await recorder.of(payment.id);
  t.deepEqual(
    oldEvents.map((event) => event.type),
    ['PAYMENT_CREATED', 'PAYMENT_CANCELLED'],
  );
  t.like(oldEvents[1]!.data, { orderId: order.id, payment: { id: payment.id, status: 'CANCELLED' } });
  t.deepEqual(
    (await recorder.of(replacement.id)).map((event) => event.type),
    ['PAYMENT_CREATED'],
  );

  // The customer backs out: the next attempt needs no replacementPaymentId.
  const backedOut = await order.customer('POST', `/payments/${replacement.id}/cancel`);
  t.is(backedOut.status, 200);
  t.is(backedOut.body.responseObject.status, 'CANCELLED');
  t.is((await order.customer('POST', '/payments', { rail: 'venmo' })).status, 201);
});

test('create: the Zelle bank picked is the platform paid; conflicting currencies, a bank off its rail and no recipient left reserve nothing', async (t) => {
  const { gateway, sandboxKey } = await sandbox(t);
  const order = await placeOrder(gateway, sandboxKey);
  for (const body of [
    { rail: 'venmo', fiatCurrency: 'USD', currency: 'EUR' },
    { rail: 'venmo', paymentMethodId: 'zelle-chase' },
    { rail: 'venmo', fiatCurrency: 'usd' },
  ]) {
    const refused = await order.customer('POST', '/payments', body);
    t.is(refused.status, 400, JSON.stringify(body));
  }
  const venmoPayTo = (await order.customer('GET', '/quotes?rail=venmo')).body.responseObject.platforms[0].payTo;
  const excluded = await order.customer('POST', '/payments', { rail: 'venmo', excludedPayToValues: [venmoPayTo] });
  t.is(excluded.status, 422);
  t.is(excluded.body.errorCode, 'NO_LIQUIDITY');
  t.is((await order.customer('POST', '/payments', { rail: 'revolut', currency: 'USD', fiatCurrency: 'EUR' })).status, 400);
  t.is((await hostedRead(gateway, order.id)).currentPayment, null);

  const bofa = await startPayment(order, { rail: 'zelle', paymentMethodId: 'zelle-bofa' });
  t.like(bofa, { rail: 'zelle', paymentMethodId: 'zelle-bofa', currency: 'USD', quote: { signalIntent: { processorName: 'zelle-bofa' } } });
  const bofaQuote = (await order.customer('GET', '/quotes?rail=zelle&paymentMethodId=zelle-bofa')).body.responseObject.platforms[0];
  t.is(bofa.payTo, bofaQuote.payTo);
});

test('simulate settles a sandbox attempt and fulfils the order with every event; an ended attempt and a fulfilled or cancelled order take nothing more', async (t) => {
  const { gateway, sandboxKey } = await sandbox(t);
  const { fees } = gateway.node.payments;
  const recorder = await recordEvents(gateway);
  const order = await placeOrder(gateway, sandboxKey);
  const payment = await startPayment(order);
  await advance(gateway, 5 * 60_000);

  const simulated = await order.customer('POST', `/payments/${payment.id}/simulate`);
  t.is(simulated.status, 200);
  t.like(simulated.body.responseObject, {
    id: payment.id,
    status: 'SETTLED',
    fulfillTransaction: `sim_${payment.id}`,
    netSettledUsdcAmount: formatUsdc(expectedQuote(25_000_000n, 'USD', fees).price.netUsdc),
    completedAt: isoNow(gateway),
  });
  await gateway.node.system.effectsIdle();
  const hosted = await hostedRead(gateway, order.id);
  t.like(hosted.order, { status: 'FULFILLED', remainingUsdcAmount: '0', completedAt: isoNow(gateway) });
  t.like(hosted.currentPayment, { id: payment.id, status: 'SETTLED' });
  const events = await recorder.of(order.id, payment.id);
  t.deepEqual(
    events.map((event) => event.type),
    ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_SETTLED', 'ORDER_FULFILLED'],
  );
  t.like(events[2]!.data, { payment: { id: payment.id, status: 'SETTLED', fulfillTransaction: `sim_${payment.id}` } });

  for (const step of ['cancel', 'simulate', 'sent']) {
    const refused = await order.customer('POST', `/payments/${payment.id}/${step}`);
    t.is(refused.status, 409, step);
    t.is(refused.body.errorCode, 'PAYMENT_NOT_OPEN', step);
  }
  const again = await order.customer('POST', '/payments', { rail: 'venmo' });
  t.is(again.status, 409);
  t.is(again.body.errorCode, 'ORDER_NOT_PAYABLE');
  // Nothing is owed, so nothing is quoted (this was a 500: pricing refuses a zero amount).
  const quotes = await order.customer('GET', '/quotes');
  t.is(quotes.status, 409);
  t.is(quotes.body.errorCode, 'ORDER_NOT_PAYABLE');

  // No HTTP operation cancels an order yet (document 1: a dashboard session does): the order actor is told directly.
  const cancelled = await placeOrder(gateway, sandboxKey);
  await gateway.node.system.askAt({ kind: 'order', id: cancelled.id }, { type: 'CANCEL', at: isoNow(gateway) });
  t.is((await hostedRead(gateway, cancelled.id)).order.status, 'CANCELLED');
  const onCancelled = await cancelled.customer('POST', '/payments', { rail: 'venmo' });
  t.is(onCancelled.status, 409);
  t.is(onCancelled.body.errorCode, 'ORDER_NOT_PAYABLE');
  t.is((await cancelled.customer('GET', '/quotes?rail=venmo')).body.errorCode, 'ORDER_NOT_PAYABLE');
});

test('mark sent keeps the attempt open; a proof for a sandbox attempt is refused, and a malformed proof is a 400', async (t) => {
  const { gateway, sandboxKey } = await sandbox(t);
  const order = await placeOrder(gateway, sandboxKey);
  const payment = await startPayment(order);
  await advance(gateway, 60_000);

  const sent = await order.customer('POST', `/payments/${payment.id}/sent`);
  t.is(sent.status, 200);
  t.like(sent.body.responseObject, { id: payment.id, status: 'CREATED', completedAt: null });

  const proof = await order.customer('POST', `/payments/${payment.id}/proof`, {
    encryptedSessionMaterial: 'eyJhbGciOi.x.y.z.w',
    params: { PAYMENT_ID: '4199990011' },
  });
  t.is(proof.status, 409);
  t.is(proof.body.errorCode, 'SANDBOX_PAYMENT');
  for (const body of [{ params: {} }, { encryptedSessionMaterial: '', params: {} }, { encryptedSessionMaterial: 'x', params: {}, extra: 1 }]) {
    const bad = await order.customer('POST', `/payments/${payment.id}/proof`, body);
    t.is(bad.status, 400, JSON.stringify(body));
    t.is(bad.body.message, 'Invalid request');
  }
  t.is((await order.customer('GET', `/payments/${payment.id}`)).body.responseObject.status, 'CREATED');
});

test('the window closes on the clock: the attempt EXPIRES at quoteExpiresAt with PAYMENT_EXPIRED, the order stays open for a new attempt', async (t) => {
  const { gateway, sandboxKey } = await sandbox(t);
  const recorder = await recordEvents(gateway);
  const order = await placeOrder(gateway, sandboxKey);
  const payment = await startPayment(order);
  t.is(payment.quoteExpiresAt, isoNow(gateway, HOUR_MS));

  await advance(gateway, HOUR_MS - 1000);
  t.is((await order.customer('GET', `/payments/${payment.id}`)).body.responseObject.status, 'CREATED');
  await advance(gateway, 1000);
  const expired = (await order.customer('GET', `/payments/${payment.id}`)).body.responseObject;
  t.like(expired, { status: 'EXPIRED', completedAt: payment.quoteExpiresAt, fulfillTransaction: null });
  const hosted = await hostedRead(gateway, order.id);
  t.like(hosted.order, { status: 'CREATED', remainingUsdcAmount: '25' });
  t.like(hosted.currentPayment, { id: payment.id, status: 'EXPIRED' });
  t.deepEqual(
    (await recorder.of(payment.id)).map((event) => event.type),
    ['PAYMENT_CREATED', 'PAYMENT_EXPIRED'],
  );
  const simulated = await order.customer('POST', `/payments/${payment.id}/simulate`);
  t.is(simulated.body.errorCode, 'PAYMENT_NOT_OPEN');

  const next = await order.customer('POST', '/payments', { rail: 'venmo' });
  t.is(next.status, 201);
  t.like(next.body.responseObject, { status: 'CREATED', quoteExpiresAt: isoNow(gateway, HOUR_MS) });
  t.not(next.body.responseObject.id, payment.id);
});
