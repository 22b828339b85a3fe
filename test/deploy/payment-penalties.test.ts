/**
 * Penalties end to end (issue 41), on the embedded node with its local chain, indexer,
 * attestation service and seeded makers, as test/deploy/payment-http.test.ts drives a
 * checkout: the attestation service is configured with its own penalty and exchange rates;
 * the customer pays the EUR Revolut deposit in USD (CROSS_CURRENCY), then, once its maker
 * turned dispute protection on, in EUR (PURCHASE_PROTECTION), then in USD again (both, in
 * that order). Each time the service signs the penalties into the attestation, the chain
 * releases the penalised amount, and the payment shows the rows, its lower net and
 * paymentAmount by document 1's rule for the order's fee payer: MERCHANT fulfils in full
 * and shows what the customer sent, PAYEE is credited the penalised amount and shows it,
 * leaving the shortfall owed.
 */
import test, { type ExecutionContext } from 'ava';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { escrowAbi } from '../../indexer/chain/artifacts/index.js';
import { anvilTestAccount } from '../../indexer/chain/dev-accounts.js';
import { formatFiat, formatUsdc, parseFiat, parseUsdc } from '../../machines/money.js';
import { feesOf } from '../../machines/payment/index.js';
import type { CheckoutPayment } from '../../machines/payment/index.js';
import { answerOf, placeOrder, recordEvents, usdcBalance, type PlacedOrder } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { BuyerSimulator, sealForPayment } from '../support/buyer-simulator.js';
import { untilOnClock } from '../support/real-time-poll.js';

const PARTNER = '0x2222222222222222222222222222222222222222';
const CROSS_CURRENCY_BPS = 150;
const PURCHASE_PROTECTION_BPS = 100;
/** The service's rate: EUR per USD, 6 decimals. */
const USD_EUR = 920_000n;

const until = <T>(gateway: TestGateway, read: () => Promise<T>, done: (value: T) => boolean, what: string) => untilOnClock(gateway.clock, read, done, what);

/** Written out here rather than taken from machines/payment/penalties.ts: each step keeps (10000 − bps)/10000 of the last, down to the cent. */
const penalised = (cents: bigint, bps: number) => (cents * (10_000n - BigInt(bps))) / 10_000n;
/** USD cents that surely convert to at least `eurCents` at the service's rate. */
const usdCovering = (eurCents: bigint) => (eurCents * 1_000_000n + USD_EUR - 1n) / USD_EUR;
/** What `eurCents` buys at the deposit's rate (EUR per USDC, 18 decimals), down to the base unit. */
const usdcFor = (eurCents: bigint, conversionRate: bigint) => (eurCents * 10n ** 22n) / conversionRate;

async function penaltyCheckout(t: ExecutionContext) {
  const gateway = await startTestGateway({
    INDEXER_ENABLED: true,
    ENCLAVE_ENABLED: true,
    INDEXER_POLL_MS: 20,
    LOCAL_MAKERS: true,
    ENCLAVE_PENALTIES: { crossCurrencyBps: CROSS_CURRENCY_BPS, purchaseProtectionBps: PURCHASE_PROTECTION_BPS, fxRates: { 'USD/EUR': USD_EUR } },
  });
  t.teardown(() => gateway.stop());
  const { node } = gateway;
  const events = await recordEvents(gateway);
  const { liveId, liveKey } = await gateway.createMerchant();
  const split = await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { referralSplitConfig: { recipients: [{ recipient: PARTNER, bps: 2500 }] } });
  if (split.status !== 200) throw new Error(`the referral split: ${JSON.stringify(split.body)}`);
  const enclaveSide = node.enclave!;
  const page = {
    trusted: { measurement: enclaveSide.service.attestationDocument().measurement, signer: enclaveSide.service.signer },
    chainId: node.payments.chain!.chainId,
  };
  const maker = node.seededMakers.find((seeded) => seeded.platform === 'revolut')!;
  return { gateway, node, events, liveKey, page, maker, buyer: new BuyerSimulator(enclaveSide.simulator!.url) };
}

type Checkout = Awaited<ReturnType<typeof penaltyCheckout>>;

const readPayment = async (order: PlacedOrder, id: string) =>
  answerOf(await order.customer('GET', `/payments/${id}`), 200, 'the payment read') as CheckoutPayment;

/** An order to a fresh address, its Revolut EUR attempt signalled, the customer's payment in `payIn` sent and proven; the payment once SETTLED. */
async function settlePaying(checkout: Checkout, feePayer: 'MERCHANT' | 'PAYEE', payIn: 'USD' | 'EUR', requestedUsdcAmount = '25') {
  const { gateway, liveKey, page, buyer } = checkout;
  const destination = privateKeyToAccount(generatePrivateKey()).address as Address;
  const order = await placeOrder(gateway, liveKey, { requestedUsdcAmount, destinationAddress: destination, feePayer });
  await until(
    gateway,
    () => order.customer('GET', '/quotes?rail=revolut&currency=EUR'),
    (response) => response.status === 200 && response.body.responseObject.platforms.length > 0,
    'the Revolut deposit to be quoted',
  );
  const created = answerOf(await order.customer('POST', '/payments', { rail: 'revolut', currency: 'EUR' }), 201, 'the payment create') as CheckoutPayment;
  const awaiting = (await until(
    gateway,
    () => readPayment(order, created.id),
    (payment) => payment.railIdentifier !== null,
    'the intent to be signalled',
  )) as CheckoutPayment & { railIdentifier: Hex };
  const askedCents = parseFiat(awaiting.paymentAmount);
  const sentCents = payIn === 'EUR' ? askedCents : usdCovering(askedCents);
  const session = await buyer.signIn('revolut');
  const sent = await buyer.pay(session, { payee: awaiting.payTo, amount: formatFiat(sentCents), currency: payIn });
  const encryptedSessionMaterial = await sealForPayment(awaiting.attestation.serviceUrl, page.trusted, session, {
    chainId: page.chainId,
    intentHash: awaiting.railIdentifier,
  });
  answerOf(await order.customer('POST', `/payments/${created.id}/proof`, { encryptedSessionMaterial, params: sent.proofParams }), 202, 'the proof');
  const settled = await until(
    gateway,
    () => readPayment(order, created.id),
    (payment) => payment.status === 'SETTLED',
    'the payment to settle',
  );
  const hosted = answerOf(await gateway.request('GET', `/api/v1/orders/${order.id}`), 200, 'the hosted read');
  return { order, created, awaiting, askedCents, sentCents, settled, hosted, destination };
}

/** What the merchant's list and every payment webhook of the attempt carry. */
async function shownElsewhere(checkout: Checkout, orderId: string, paymentId: string) {
  const listed = answerOf(await checkout.gateway.request('GET', `/api/v1/merchants/me/orders/${orderId}/payments`, { key: checkout.liveKey }), 200, 'the list');
  const row = (listed.payments as CheckoutPayment[]).find((payment) => payment.id === paymentId)!;
  const settledEvent = (await checkout.events.of(paymentId)).find((event) => event.type === 'PAYMENT_SETTLED');
  return { row, webhook: (settledEvent?.data as { payment: CheckoutPayment } | undefined)?.payment };
}

async function protect(checkout: Checkout): Promise<void> {
  const { node, maker } = checkout;
  const local = node.chain!.localChain!;
  const hash = await local.walletFor(anvilTestAccount(3)).writeContract({
    address: node.payments.chain!.escrow,
    abi: escrowAbi,
    functionName: 'setDisputeProtectionEnabled',
    args: [maker.depositId, true],
  });
  await local.confirm(hash);
  await until(
    checkout.gateway,
    () => node.liquidity!.deposit(maker.depositId.toString()),
    (deposit) => deposit?.disputeProtection === true,
    'the liquidity book to see the protection',
  );
}

test('settlements with CROSS_CURRENCY, PURCHASE_PROTECTION and both: signed rates, chained rows, lower net, paymentAmount and credit by fee payer', async (t) => {
  const checkout = await penaltyCheckout(t);
  const { gateway, maker } = checkout;
  t.is(maker.currency, 'EUR');

  // 1. CROSS_CURRENCY: paid in USD to the EUR deposit; the merchant bears it (MERCHANT).
  const cross = await settlePaying(checkout, 'MERCHANT', 'USD');
  const converted = (cross.sentCents * USD_EUR) / 1_000_000n;
  t.true(converted >= cross.askedCents);
  const crossAttested = penalised(converted, CROSS_CURRENCY_BPS);
  t.deepEqual(cross.settled.penalties, [
    { kind: 'CROSS_CURRENCY', penaltyBps: CROSS_CURRENCY_BPS, originalAmount: formatFiat(converted), attestedAmount: formatFiat(crossAttested) },
  ]);
  t.is(cross.settled.currency, 'EUR');
  // MERCHANT: what the customer sent (converted), and the order fulfilled in full.
  t.is(cross.settled.paymentAmount, formatFiat(converted));
  t.is(cross.hosted.order.status, 'FULFILLED');
  t.is(cross.hosted.order.remainingUsdcAmount, '0');
  // The net is what the penalised release nets: lower than the quote's, and what reached the destination.
  const crossRelease = usdcFor(crossAttested, maker.conversionRate);
  const net = parseUsdc(cross.settled.netSettledUsdcAmount!);
  t.true(net < parseUsdc('25') - parseUsdc(cross.created.totalUsdcFeeAmount));
  t.is(net, await usdcBalance(gateway, cross.destination));
  t.true(net < crossRelease && crossRelease < parseUsdc('25'));
  // The platform's fee the chain took as the referrer fee, of the penalised release: a quarter to the merchant's partner, the rest to the referrer.
  const { platformFeeUsdc } = feesOf(crossRelease, gateway.node.payments.fees);
  t.true(platformFeeUsdc > 0n);
  const referral = cross.settled.referralFees!;
  t.deepEqual(referral[0], { recipient: PARTNER, feeUsdc: formatUsdc((platformFeeUsdc * 2500n) / 10_000n), bps: 2500 });
  t.like(referral[1], { feeUsdc: formatUsdc(platformFeeUsdc - (platformFeeUsdc * 2500n) / 10_000n), bps: 7500 });
  t.is(referral.length, 2);
  const crossShown = await shownElsewhere(checkout, cross.order.id, cross.created.id);
  t.deepEqual(crossShown.row.penalties, cross.settled.penalties);
  t.deepEqual(crossShown.webhook?.penalties, cross.settled.penalties);
  t.is(crossShown.webhook?.paymentAmount, cross.settled.paymentAmount);

  // 2. PURCHASE_PROTECTION: the maker protects the deposit; paid in EUR; the customer bears it (PAYEE).
  await protect(checkout);
  // 100 USDC, so that 1% short is more than the dust an order completes despite (0.5 USDC).
  const guarded = await settlePaying(checkout, 'PAYEE', 'EUR', '100');
  const guardedAttested = penalised(guarded.sentCents, PURCHASE_PROTECTION_BPS);
  t.deepEqual(guarded.settled.penalties, [
    {
      kind: 'PURCHASE_PROTECTION',
      penaltyBps: PURCHASE_PROTECTION_BPS,
      originalAmount: formatFiat(guarded.sentCents),
      attestedAmount: formatFiat(guardedAttested),
    },
  ]);
  // PAYEE: the penalised amount credited, and the order shows the shortfall.
  t.is(guarded.settled.paymentAmount, formatFiat(guardedAttested));
  t.is(guarded.hosted.order.status, 'PARTIALLY_FULFILLED');
  const shortfall = parseUsdc(guarded.hosted.order.remainingUsdcAmount);
  t.true(shortfall > 0n);
  // The net the destination received is short of the 100 owed by exactly what is still owed.
  t.is(parseUsdc('100') - shortfall, parseUsdc(guarded.settled.netSettledUsdcAmount!));
  t.is(parseUsdc(guarded.settled.netSettledUsdcAmount!), await usdcBalance(gateway, guarded.destination));

  // 3. Both, in document 1's order: converted, then protected; MERCHANT again.
  const both = await settlePaying(checkout, 'MERCHANT', 'USD');
  const bothConverted = (both.sentCents * USD_EUR) / 1_000_000n;
  const afterCross = penalised(bothConverted, CROSS_CURRENCY_BPS);
  const afterProtection = penalised(afterCross, PURCHASE_PROTECTION_BPS);
  t.deepEqual(both.settled.penalties, [
    { kind: 'CROSS_CURRENCY', penaltyBps: CROSS_CURRENCY_BPS, originalAmount: formatFiat(bothConverted), attestedAmount: formatFiat(afterCross) },
    { kind: 'PURCHASE_PROTECTION', penaltyBps: PURCHASE_PROTECTION_BPS, originalAmount: formatFiat(afterCross), attestedAmount: formatFiat(afterProtection) },
  ]);
  t.is(both.settled.penalties[1]!.originalAmount, both.settled.penalties[0]!.attestedAmount);
  t.is(both.settled.paymentAmount, both.settled.penalties[0]!.originalAmount);
  t.is(both.hosted.order.status, 'FULFILLED');
  t.true(parseUsdc(both.settled.netSettledUsdcAmount!) < parseUsdc(cross.settled.netSettledUsdcAmount!));
  t.is(parseUsdc(both.settled.netSettledUsdcAmount!), await usdcBalance(gateway, both.destination));
  const bothShown = await shownElsewhere(checkout, both.order.id, both.created.id);
  t.deepEqual(bothShown.webhook?.penalties, both.settled.penalties);
});
