/**
 * Issue 15 end to end through HTTP, as the hosted checkout page drives it, on the embedded
 * node with its local chain, indexer, attestation service and seeded makers: the order is
 * placed with a live key, the customer reads quotes and creates a payment with the order
 * token, pays the maker in the simulator's buyer API, fetches and checks the attestation
 * document, seals the session to it and submits the proof; the node verifies it, mines
 * fulfilIntent, indexes IntentFulfilled and settles the payment and the order from it.
 * And a proof the attestation service refuses leaves the attempt open with its code on
 * the customer's read, so that a second, correct proof still settles it, once.
 */
import { readFile } from 'node:fs/promises';
import test, { type ExecutionContext } from 'ava';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { orchestratorAbi } from '../../indexer/chain/index.js';
import { formatFiat, parseFiat, parseUsdc } from '../../machines/money.js';
import type { CheckoutPayment } from '../../machines/payment/index.js';
import { answerOf, placeOrder, recordEvents, usdcBalance, type PlacedOrder } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { BuyerSimulator, sealForPayment, type BuyerSession } from '../support/buyer-simulator.js';
import { untilOnClock } from '../support/real-time-poll.js';

async function until<T>(gateway: TestGateway, read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  return untilOnClock(gateway.clock, read, done, what, { explain: () => stateOf(gateway) });
}

/** The hosted read once the order is FULFILLED. */
function fulfilledHostedRead(gateway: TestGateway, orderId: string) {
  return until(
    gateway,
    async () => answerOf(await gateway.request('GET', `/api/v1/orders/${orderId}`), 200, 'the hosted read'),
    (answer) => answer.order.status === 'FULFILLED',
    'the order to be fulfilled',
  );
}

/** What the node's payments and transactions were doing, for a timeout's message. */
async function stateOf(gateway: TestGateway): Promise<string> {
  const states = async (kind: string) =>
    (await gateway.node.system.documents(kind).find({})).map(
      (doc) => `${doc._id}: ${JSON.stringify((doc as { snapshot?: { value?: unknown } }).snapshot?.value)}`,
    );
  return `\npayments: ${(await states('payment')).join(', ')}\ntransactions: ${(await states('transaction')).join(', ')}`;
}

interface Quote {
  platform: string;
  displayAmount: string;
  currency: string;
  currencyPerUsdRate: string;
  totalUsdcFeeAmount: string;
  payTo: string;
  recipientRating: number;
}

/** A live checkout ready to pay: the node with its makers, a live merchant's order to a fresh address, the customer's side and a buyer. */
async function liveCheckout(t: ExecutionContext) {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, LOCAL_MAKERS: true });
  t.teardown(() => gateway.stop());
  const { node } = gateway;
  const events = await recordEvents(gateway);
  const { liveKey } = await gateway.createMerchant();
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const order = await placeOrder(gateway, liveKey, { requestedUsdcAmount: '25', destinationAddress: destination });
  // What the hosted page is configured with: the simulator's buyer API, and the enclave it may seal to.
  const enclaveSide = node.enclave!;
  const page = {
    simulatorUrl: enclaveSide.simulator!.url,
    trusted: { measurement: enclaveSide.service.attestationDocument().measurement, signer: enclaveSide.service.signer },
    chainId: node.payments.chain!.chainId,
  };
  const venmoMakers = node.seededMakers.filter((maker) => maker.platform === 'venmo').sort((a, b) => (a.conversionRate < b.conversionRate ? -1 : 1));
  return { gateway, node, events, liveKey, destination: destination as Address, order, page, venmoMakers, buyer: new BuyerSimulator(page.simulatorUrl) };
}

/** The quotes once the liquidity book has read the seeded deposits: it follows the indexer, which follows the chain. */
async function venmoQuotes(gateway: TestGateway, order: PlacedOrder, count: number): Promise<Quote[]> {
  const answer = await until(
    gateway,
    () => order.customer('GET', '/quotes?rail=venmo&quoteLimit=10'),
    (response) => response.status === 200 && response.body.responseObject.platforms.length >= count,
    'the seeded venmo deposits to be quoted',
  );
  return answer.body.responseObject.platforms as Quote[];
}

const readPayment = async (order: PlacedOrder, id: string) =>
  answerOf(await order.customer('GET', `/payments/${id}`), 200, 'the payment read') as CheckoutPayment;

async function signalled(gateway: TestGateway, order: PlacedOrder, id: string): Promise<CheckoutPayment & { railIdentifier: Hex }> {
  return (await until(
    gateway,
    () => readPayment(order, id),
    (payment) => payment.railIdentifier !== null,
    'the intent to be signalled',
  )) as CheckoutPayment & { railIdentifier: Hex };
}

async function prove(
  order: PlacedOrder,
  payment: CheckoutPayment & { railIdentifier: Hex },
  session: BuyerSession,
  proofParams: Record<string, string>,
  page: { trusted: { measurement: string; signer: Address }; chainId: number },
) {
  const encryptedSessionMaterial = await sealForPayment(payment.attestation.serviceUrl, page.trusted, session, {
    chainId: page.chainId,
    intentHash: payment.railIdentifier,
  });
  return answerOf(
    await order.customer('POST', `/payments/${payment.id}/proof`, { encryptedSessionMaterial, params: proofParams }),
    202,
    'the proof',
  ) as CheckoutPayment;
}

test('a live Venmo checkout over HTTP: quotes, payment, buyer pays in the simulator, proof, fulfilled on chain, settled, order fulfilled', async (t) => {
  const started = Date.now();
  const { gateway, node, events, liveKey, destination, order, page, venmoMakers, buyer } = await liveCheckout(t);
  t.is(venmoMakers.length, 2);
  t.is(await usdcBalance(gateway, destination), 0n);

  // Quotes: every seeded Venmo deposit, best rate (lowest fiat per USDC) first, each naming its maker's payee.
  const quotes = await venmoQuotes(gateway, order, venmoMakers.length);
  t.deepEqual(
    quotes.map((quote) => quote.payTo),
    venmoMakers.map((maker) => maker.payeeId),
  );
  t.true(quotes.every((quote) => quote.platform === 'venmo' && quote.currency === 'USD'));
  const rates = quotes.map((quote) => Number(quote.currencyPerUsdRate));
  t.deepEqual(
    rates,
    [...rates].sort((a, b) => a - b),
  );
  t.true(parseFiat(quotes[0]!.displayAmount) < parseFiat(quotes[1]!.displayAmount));
  const best = quotes[0]!;

  // The payment takes the best quote, and shows whom to pay and how much.
  const created = answerOf(await order.customer('POST', '/payments', { rail: 'venmo' }), 201, 'the payment create') as CheckoutPayment;
  t.is(created.status, 'CREATED');
  t.is(created.proofMode, 'BUYER_TEE');
  t.is(created.payTo, venmoMakers[0]!.payeeId);
  t.is(created.payTo, best.payTo);
  t.is(created.paymentAmount, best.displayAmount);
  t.is(created.currency, 'USD');
  t.is(created.quote.signalIntent.toAddress.toLowerCase(), destination.toLowerCase());
  t.is(created.attestation.serviceUrl, node.enclave!.server.httpUrl);

  const awaiting = await signalled(gateway, order, created.id);
  t.regex(awaiting.railIdentifier, /^0x[0-9a-f]{64}$/);
  t.is(awaiting.quote.intentHash, awaiting.railIdentifier);
  t.is(awaiting.suggestedMemo, `PEER-${awaiting.railIdentifier.slice(2, 14).toUpperCase()}`);
  t.is(awaiting.status, 'CREATED');
  const signalledAt = Date.now();

  // The buyer pays the maker from their own Venmo, exactly what the checkout asked, and proves it.
  const session = await buyer.signIn('venmo', 'checkout-buyer');
  const sent = await buyer.pay(session, { payee: awaiting.payTo, amount: awaiting.paymentAmount, currency: awaiting.currency, note: awaiting.suggestedMemo! });
  t.is(sent.proofParams.PAYMENT_ID, sent.paymentId);
  const submitted = await prove(order, awaiting, session, sent.proofParams, page);
  t.is(submitted.status, 'CREATED');
  t.is(submitted.errorCode, null);

  const settled = await until(
    gateway,
    () => readPayment(order, created.id),
    (payment) => payment.status === 'SETTLED',
    'the payment to settle',
  );
  const settledAt = Date.now();
  t.regex(settled.fulfillTransaction!, /^0x[0-9a-f]{64}$/);
  t.is(settled.errorCode, null);
  t.not(settled.completedAt, null);
  const local = node.chain!.localChain!;
  const receipt = await local.publicClient.getTransactionReceipt({ hash: settled.fulfillTransaction as Hex });
  t.is(receipt.status, 'success');
  t.is(parseUsdc(settled.netSettledUsdcAmount!), await usdcBalance(gateway, destination));
  // The merchant bears the fees (feePayer MERCHANT): the destination nets the order's amount less the fees the quote showed.
  t.is(parseUsdc(settled.netSettledUsdcAmount!), parseUsdc('25') - parseUsdc(best.totalUsdcFeeAmount));
  t.is(settled.totalUsdcFeeAmount, best.totalUsdcFeeAmount);

  // The hosted read: the order FULFILLED, its current payment this one, SETTLED.
  const hosted = await fulfilledHostedRead(gateway, order.id);
  t.is(hosted.order.remainingUsdcAmount, '0');
  t.is(hosted.currentPayment.id, created.id);
  t.is(hosted.currentPayment.status, 'SETTLED');
  t.is(hosted.currentPayment.fulfillTransaction, settled.fulfillTransaction);

  // The merchant lists the attempt with its live key.
  const listed = answerOf(await gateway.request('GET', `/api/v1/merchants/me/orders/${order.id}/payments`, { key: liveKey }), 200, 'the merchant list');
  t.deepEqual(
    listed.payments.map((payment: CheckoutPayment) => [payment.id, payment.status, payment.fulfillTransaction, payment.netSettledUsdcAmount]),
    [[created.id, 'SETTLED', settled.fulfillTransaction, settled.netSettledUsdcAmount]],
  );

  t.deepEqual(await events.typesOf(order.id, created.id), ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_SETTLED', 'ORDER_FULFILLED']);
  t.log(`signalled ${signalledAt - started} ms after start; proof to settlement ${settledAt - signalledAt} ms; total ${Date.now() - started} ms`);
});

test('a proof the attestation service refuses leaves the payment open with its code; a correct proof then settles it once', async (t) => {
  const started = Date.now();
  const { gateway, node, events, liveKey, destination, order, page, venmoMakers, buyer } = await liveCheckout(t);
  await venmoQuotes(gateway, order, venmoMakers.length);
  const created = answerOf(await order.customer('POST', '/payments', { rail: 'venmo' }), 201, 'the payment create') as CheckoutPayment;
  const awaiting = await signalled(gateway, order, created.id);
  const documented = await readFile(new URL('../../docs/enclave.md', import.meta.url), 'utf8');
  const session = await buyer.signIn('venmo');

  const refused = async (sent: { proofParams: Record<string, string> }, code: string) => {
    const submitted = await prove(order, awaiting, session, sent.proofParams, page);
    t.is(submitted.errorCode, null, 'a new proof clears the last refusal');
    const payment = await until(
      gateway,
      () => readPayment(order, created.id),
      (view) => view.errorCode !== null,
      `the ${code} refusal`,
    );
    t.is(payment.status, 'CREATED');
    t.is(payment.errorCode, code);
    t.true(documented.includes(`\`${payment.errorCode}\``), `${payment.errorCode} is documented in docs/enclave.md`);
    t.is(typeof payment.errorMessage, 'string');
    t.not(payment.errorMessage, '');
    t.is(payment.fulfillTransaction, null);
    // The hosted read shows the refusal too; the merchant's list row does not (document 1).
    const hosted = answerOf(await gateway.request('GET', `/api/v1/orders/${order.id}`), 200, 'the hosted read');
    t.is(hosted.order.status, 'CREATED');
    t.is(hosted.order.remainingUsdcAmount, '25');
    t.is(hosted.currentPayment.errorCode, code);
    const listed = answerOf(await gateway.request('GET', `/api/v1/merchants/me/orders/${order.id}/payments`, { key: liveKey }), 200, 'the merchant list');
    t.deepEqual(
      listed.payments.map((row: CheckoutPayment) => [row.id, row.status, row.errorCode]),
      [[created.id, 'CREATED', null]],
    );
  };

  // A cent short of what the checkout asked: AMOUNT_TOO_LOW.
  const short = await buyer.pay(session, { payee: awaiting.payTo, amount: formatFiat(parseFiat(awaiting.paymentAmount) - 1n), currency: 'USD' });
  await refused(short, 'AMOUNT_TOO_LOW');
  // The full amount, but to the other Venmo maker: PAYEE_MISMATCH.
  const other = venmoMakers.find((maker) => maker.payeeId !== awaiting.payTo)!;
  const elsewhere = await buyer.pay(session, { payee: other.payeeId, amount: awaiting.paymentAmount, currency: 'USD' });
  await refused(elsewhere, 'PAYEE_MISMATCH');
  t.is(await usdcBalance(gateway, destination), 0n);

  // Then the right payment, a new payment id, proven on the same attempt.
  const paid = await buyer.pay(session, { payee: awaiting.payTo, amount: awaiting.paymentAmount, currency: 'USD' });
  t.false([short.paymentId, elsewhere.paymentId].includes(paid.paymentId));
  await prove(order, awaiting, session, paid.proofParams, page);
  const settled = await until(
    gateway,
    () => readPayment(order, created.id),
    (payment) => payment.status === 'SETTLED',
    'the payment to settle',
  );
  t.is(settled.errorCode, null);
  t.is(settled.errorMessage, null);
  t.is(parseUsdc(settled.netSettledUsdcAmount!), await usdcBalance(gateway, destination));

  const hosted = await fulfilledHostedRead(gateway, order.id);
  t.is(hosted.order.remainingUsdcAmount, '0');
  t.is(hosted.currentPayment.status, 'SETTLED');

  // Counted once: one attempt, one settlement, one transfer to the destination.
  t.deepEqual(await events.typesOf(order.id, created.id), ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_SETTLED', 'ORDER_FULFILLED']);
  const listed = answerOf(await gateway.request('GET', `/api/v1/merchants/me/orders/${order.id}/payments`, { key: liveKey }), 200, 'the merchant list');
  t.deepEqual(
    listed.payments.map((row: CheckoutPayment) => [row.id, row.status]),
    [[created.id, 'SETTLED']],
  );
  t.is(parseUsdc(settled.netSettledUsdcAmount!), await usdcBalance(gateway, destination));
  const fulfilled = await node.chain!.localChain!.publicClient.getContractEvents({
    address: node.payments.chain!.orchestrator,
    abi: orchestratorAbi,
    eventName: 'IntentFulfilled',
    args: { intentHash: awaiting.railIdentifier },
    fromBlock: 0n,
  });
  t.deepEqual(
    fulfilled.map((log) => log.transactionHash),
    [settled.fulfillTransaction],
  );
  t.log(`total ${Date.now() - started} ms`);
});
