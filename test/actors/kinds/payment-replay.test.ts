/**
 * Replays payment documents written by machine version 1 (test/fixtures/payment/, written
 * by the commit their README names, each beside the order it reports to) through the
 * current payment kind: each restores through the migrations and takes, from the state it
 * was stored in, the next step of today's machine, with the effects it names and what it
 * tells its order. Every fixture has a step here, so a fixture added without one fails.
 */
import test, { type ExecutionContext } from 'ava';
import { CommandRejectedError, withEffects, type EffectHandler } from '../../../actors/index.js';
import { orderKind, paymentKind, type OrderView, type PaymentView } from '../../../actors/kinds/index.js';
import { INTENT_HASH, livePaymentInput, WINDOW_MS } from '../../support/payment-input.js';
import { replayFixture, replayFixtureNames, storeFixture } from '../../support/replay-fixtures.js';
import { startTestSystem } from '../../support/test-node.js';

const AT = '2026-11-23T12:20:00.000Z';
const EFFECTS = ['signalIntent', 'readSignal', 'verifyPayment', 'fulfilIntent', 'cancelIntent', 'checkTransfer', 'cancelTransfer'];

async function replay(name: string) {
  const fixture = replayFixture('payment', name);
  const effects: { type: string; params: Record<string, unknown> }[] = [];
  const handlers: Record<string, EffectHandler> = {};
  for (const type of EFFECTS) handlers[type] = async (params) => void effects.push({ type, params: params as Record<string, unknown> });
  const { system, clock } = await startTestSystem({ kinds: [orderKind, withEffects(paymentKind, handlers)] });
  await storeFixture(system, fixture);
  const id = fixture.document._id;
  const stored = fixture.document.view as PaymentView;
  return {
    stored,
    clock,
    effects,
    tell: (event: Record<string, unknown> & { type: string }) => system.askAt({ kind: 'payment', id }, event),
    /** The payment's document once every effect its turns queued has run (the order has heard). */
    doc: async () => {
      await system.effectsIdle();
      return (await system.documents('payment').findOne({ _id: id }))!;
    },
    view: async () => {
      await system.effectsIdle();
      return (await system.documents('payment').findOne({ _id: id }))!.view as PaymentView;
    },
    order: async () => {
      await system.effectsIdle();
      return (await system.documents('order').findOne({ _id: stored.orderId }))!.view as OrderView;
    },
  };
}
type Replay = Awaited<ReturnType<typeof replay>>;

const proof = { encryptedSessionMaterial: 'sealed-again', params: { paymentId: 'venmo-2' } };
const fulfilledFact = (id: string, amount: bigint, retracted = false) => ({
  type: 'CHAIN_FACT',
  fact: {
    id,
    transactionHash: '0xbeef',
    blockTimestamp: '1795001200',
    ...(retracted ? { retracted: true } : {}),
    intentFulfilled: { intentHash: INTENT_HASH, amount: amount.toString(), fundsTransferredTo: '0x1111111111111111111111111111111111111111' },
  },
});
/** What the maker's release pays the merchant, as the fixtures' attempts were priced. */
const NET_USDC = livePaymentInput().price.netUsdc;

async function refusal(t: ExecutionContext, promise: Promise<unknown>): Promise<string> {
  return ((await t.throwsAsync(promise, { instanceOf: CommandRejectedError })) as CommandRejectedError).code;
}

/** From the state each fixture was stored in, the next step of today's machine, checked. */
const steps: Record<string, (t: ExecutionContext, payment: Replay) => Promise<void>> = {
  'v1-sandbox-awaiting-payment': async (t, payment) => {
    await payment.tell({ type: 'SIMULATE_PAYMENT', at: AT });
    t.like((await payment.view()).payment, { status: 'SETTLED', completedAt: AT });
    t.like((await payment.order()).order, { status: 'PARTIALLY_FULFILLED', remainingUsdcAmount: '75' });
  },
  'v1-sandbox-settled': async (t, payment) => {
    t.is(await refusal(t, payment.tell({ type: 'SIMULATE_PAYMENT', at: AT })), 'PAYMENT_NOT_OPEN');
    t.is(await refusal(t, payment.tell({ type: 'CANCEL', reason: 'CUSTOMER', at: AT })), 'PAYMENT_NOT_OPEN');
    // A replacement's cancel is taken and changes nothing: still SETTLED, counted once.
    await payment.tell({ type: 'CANCEL', reason: 'REPLACED', at: AT });
    t.like((await payment.view()).payment, { status: 'SETTLED' });
    t.like((await payment.order()).order, { status: 'PARTIALLY_FULFILLED', remainingUsdcAmount: '75' });
  },
  'v1-live-signalling': async (t, payment) => {
    const mined = {
      type: 'TRANSACTION_OUTCOME',
      transactionId: 'tx_signal',
      purpose: 'signalIntent',
      outcome: { status: 'MINED', hash: '0x02', reason: null },
    };
    await payment.tell(mined);
    await payment.doc();
    t.deepEqual(payment.effects, [{ type: 'readSignal', params: { paymentId: 'pay_v1_live_signalling', transactionHash: '0x02' } }]);
    await payment.tell({ type: 'INTENT_SIGNALED', intentHash: INTENT_HASH, signalTimestamp: 1_795_000_100, expiryTime: 1_795_086_500, at: AT });
    const view = await payment.view();
    t.like(view, { status: 'CREATED', step: 'AWAITING_PAYMENT' });
    t.is(view.payment.quote.intentHash, INTENT_HASH);
  },
  'v1-live-awaiting-payment': async (t, payment) => {
    await payment.tell({ type: 'SUBMIT_PROOF', proof, at: AT });
    t.like(await payment.view(), { status: 'CREATED', step: 'VERIFYING' });
    const verify = payment.effects.find((effect) => effect.type === 'verifyPayment');
    t.like(verify?.params, { paymentId: 'pay_v1_live_awaiting', proof, intent: { intentHash: INTENT_HASH, signalTimestamp: 1_795_000_000 } });
  },
  'v1-live-verifying': async (t, payment) => {
    await payment.tell({ type: 'PAYMENT_VERIFIED', paymentProof: '0x5eed', at: AT });
    t.like(await payment.view(), { status: 'CREATED', step: 'FULFILLING' });
    const fulfil = payment.effects.find((effect) => effect.type === 'fulfilIntent');
    t.like(fulfil?.params, { paymentId: 'pay_v1_live_verifying', intentHash: INTENT_HASH, paymentProof: '0x5eed' });
  },
  'v1-live-fulfilling': async (t, payment) => {
    await payment.tell(fulfilledFact('fact_replay_1', NET_USDC));
    t.like((await payment.view()).payment, { status: 'SETTLED' });
    t.like((await payment.order()).order, { status: 'PARTIALLY_FULFILLED', remainingUsdcAmount: '75' });
  },
  'v1-live-settled': async (t, payment) => {
    // The fact version 1 settled it from is taken back by a reorganisation: today's machine waits for it again.
    await payment.tell(fulfilledFact('fact_fulfilled_1', NET_USDC, true));
    t.like(await payment.view(), { status: 'CREATED', step: 'AWAITING_SETTLEMENT' });
    t.like((await payment.order()).order, { status: 'CREATED', remainingUsdcAmount: '100' });
    // The retracted fact never settles it again; the fulfilment mined anew does.
    await t.throwsAsync(payment.tell(fulfilledFact('fact_fulfilled_1', NET_USDC)), { instanceOf: CommandRejectedError });
    await payment.tell(fulfilledFact('fact_fulfilled_2', NET_USDC));
    t.like((await payment.view()).payment, { status: 'SETTLED' });
    t.like((await payment.order()).order, { status: 'PARTIALLY_FULFILLED', remainingUsdcAmount: '75' });
  },
  'v1-cancelled': async (t, payment) => {
    t.is(await refusal(t, payment.tell({ type: 'CANCEL', reason: 'CUSTOMER', at: AT })), 'PAYMENT_NOT_OPEN');
    await payment.tell({ type: 'CANCEL', reason: 'REPLACED', at: AT });
    // A payment that settles after its attempt was cancelled still counts: the money moved.
    await payment.tell(fulfilledFact('fact_late', NET_USDC));
    t.like((await payment.view()).payment, { status: 'SETTLED' });
    t.like((await payment.order()).order, { status: 'PARTIALLY_FULFILLED', remainingUsdcAmount: '75' });
  },
  'v1-failed': async (t, payment) => {
    await payment.tell({ type: 'CANCEL', reason: 'REPLACED', at: AT });
    const view = await payment.view();
    t.like(view, { status: 'FAILED', hosted: { errorCode: 'SIGNAL_INTENT_FAILED' } });
    t.like((await payment.order()).order, { status: 'CREATED', remainingUsdcAmount: '100' });
  },
  'v1-expired': async (t, payment) => {
    await payment.tell(fulfilledFact('fact_late', NET_USDC));
    t.like((await payment.view()).payment, { status: 'SETTLED' });
    t.like((await payment.order()).order, { status: 'PARTIALLY_FULFILLED', remainingUsdcAmount: '75' });
  },
};

test('the fixtures are payment documents of machine version 1 in each status version 1 had', (t) => {
  const names = replayFixtureNames('payment', 1);
  const statuses = new Set(names.map((name) => replayFixture('payment', name).document.view.status));
  t.deepEqual([...statuses].sort(), ['CANCELLED', 'CREATED', 'EXPIRED', 'FAILED', 'SETTLED']);
  for (const name of names) t.is(replayFixture('payment', name).document.machineVersion, 1, name);
});

for (const name of replayFixtureNames('payment', 1)) {
  test(`${name}: restored through the migrations, it takes today's next step and keeps what it served`, async (t) => {
    const step = steps[name];
    if (!step) return t.fail(`no replay step for the fixture ${name}`);
    const payment = await replay(name);
    await step(t, payment);
    const doc = await payment.doc();
    t.is(doc.machineVersion, paymentKind.machineVersion);
    const { payment: served } = doc.view as PaymentView;
    const { stored } = payment;
    t.like(served, {
      id: stored.payment.id,
      orderId: stored.orderId,
      rail: stored.rail,
      payTo: stored.payment.payTo,
      paymentAmount: stored.payment.paymentAmount,
      currencyPerUsdRate: stored.payment.currencyPerUsdRate,
      quoteExpiresAt: stored.payment.quoteExpiresAt,
      quote: { signalIntent: stored.payment.quote.signalIntent },
      createdAt: stored.payment.createdAt,
    });
  });
}

test('v1-live-awaiting-payment: the window timer version 1 stored still expires it and cancels its intent', async (t) => {
  const payment = await replay('v1-live-awaiting-payment');
  await payment.clock.advance(3 * WINDOW_MS);
  const view = await payment.view();
  t.like(view.payment, { status: 'EXPIRED', completedAt: payment.stored.payment.quoteExpiresAt });
  t.like(
    payment.effects.find((effect) => effect.type === 'cancelIntent'),
    { params: { paymentId: 'pay_v1_live_awaiting', intentHash: INTENT_HASH } },
  );
});
