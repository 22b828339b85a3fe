/**
 * The payment machine against document 1's payment status table, row by row, and each
 * inner step of CREATED. Driven with xstate's pure initialTransition/transition: the
 * effects (signalIntent, readSignal, verifyPayment, fulfilIntent, cancelIntent, tell)
 * and the emitted webhooks are read from the returned actions, the window timer from
 * the xstate.raise action that carries its delay.
 */
import test from 'ava';
import type { AnyEventObject } from 'xstate';
import { fromJson, toJson } from '../../../actors/codec.js';
import {
  FULFIL_PURPOSE,
  paymentMachine,
  SETTLEMENT_WAIT_MS,
  paymentReference,
  SIGNAL_PURPOSE,
  toCheckoutPayment,
  type PaymentContext,
  type PaymentEvent,
  type PaymentRetractionEmitted,
  type PaymentHex,
  type PaymentSummary,
  type SubmittedProof,
  type TransactionOutcomeMessage,
} from '../../../machines/payment/index.js';
import {
  CONVERSION_RATE,
  DESTINATION,
  FEES,
  INTENT_HASH,
  LIVE_CHAIN,
  livePaymentInput,
  OTHER_INTENT_HASH,
  PAYMENT_CREATED_AT,
  QUOTE_EXPIRES_AT,
  sandboxPaymentInput,
  WINDOW_MS,
} from '../../support/payment-input.js';
import { context, create, delayed, emitted, only, paramsOf, run, send, statusOf, types, type Action, type Snapshot } from '../../support/payment-steps.js';

type Tell = { to: { kind: string; id: string }; event: Record<string, unknown> & { type: string } };

const SIGNAL_TX: PaymentHex = '0x5151515151515151515151515151515151515151515151515151515151515151';
const FULFIL_TX: PaymentHex = '0xf0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0';
const PROOF: SubmittedProof = { encryptedSessionMaterial: 'sealed-session-material', params: { paymentId: 'venmo_4411' } };
const PAYMENT_PROOF: PaymentHex = '0xa77e57a77e57';

const tells = (actions: Action[]) => paramsOf(actions, 'tell') as unknown as Tell[];
const reports = (actions: Action[]) =>
  tells(actions)
    .filter((tell) => tell.event.type === 'PAYMENT_UPDATED')
    .map((tell) => tell.event.payment as PaymentSummary);
const hosted = (snapshot: Snapshot) => toCheckoutPayment(context(snapshot), statusOf(snapshot), { hosted: true });
const listed = (snapshot: Snapshot) => toCheckoutPayment(context(snapshot), statusOf(snapshot), { hosted: false });

/** The window timer set on creation: the event it will deliver and its delay. */
function windowTimer(actions: Action[]): { event: AnyEventObject; delay: number } {
  const raised = paramsOf(actions, 'xstate.raise').filter((params) => typeof params.delay === 'number');
  if (raised.length !== 1) throw new Error(`expected one delayed event, got ${JSON.stringify(types(actions))}`);
  return raised[0] as unknown as { event: AnyEventObject; delay: number };
}
/** The event the window timer delivers, as the runtime sends it when the timer fires. */
const WINDOW_EVENT = windowTimer(create()[1]).event as unknown as PaymentEvent;

// --- events ----------------------------------------------------------------------

const ms = (iso: string) => Date.parse(iso);
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function outcome(
  purpose: string,
  status: TransactionOutcomeMessage['outcome']['status'],
  at: string,
  reason: string | null = null,
  hash: string | null = null,
): PaymentEvent {
  return { type: 'TRANSACTION_OUTCOME', transactionId: `tx_${purpose}`, purpose, outcome: { status, hash, reason, at: ms(at) } };
}
const signalOutcome = (status: TransactionOutcomeMessage['outcome']['status'], at = '2026-11-23T12:00:30.000Z', reason: string | null = null) =>
  outcome(SIGNAL_PURPOSE, status, at, reason, status === 'MINED' ? SIGNAL_TX : null);
const fulfilOutcome = (status: TransactionOutcomeMessage['outcome']['status'], at = '2026-11-23T12:10:30.000Z', reason: string | null = null) =>
  outcome(FULFIL_PURPOSE, status, at, reason, status === 'MINED' ? FULFIL_TX : null);
const intentSignaled = (at = '2026-11-23T12:00:40.000Z', intentHash: PaymentHex = INTENT_HASH): PaymentEvent => ({
  type: 'INTENT_SIGNALED',
  intentHash,
  signalTimestamp: seconds('2026-11-23T12:00:28.000Z'),
  expiryTime: seconds('2026-11-24T12:00:28.000Z'),
  at,
});
const submitProof = (at = '2026-11-23T12:05:00.000Z'): PaymentEvent => ({ type: 'SUBMIT_PROOF', proof: PROOF, at });
const verified = (at = '2026-11-23T12:06:00.000Z'): PaymentEvent => ({ type: 'PAYMENT_VERIFIED', paymentProof: PAYMENT_PROOF, at });
const rejected = (
  at = '2026-11-23T12:06:00.000Z',
  code = 'PAYMENT_NOT_FOUND',
  message = 'no payment of 25.50 USD to the recipient in the session',
): PaymentEvent => ({
  type: 'VERIFICATION_REJECTED',
  code,
  message,
  at,
});
const cancel = (at = '2026-11-23T12:02:00.000Z', reason: 'CUSTOMER' | 'REPLACED' = 'CUSTOMER'): PaymentEvent => ({ type: 'CANCEL', reason, at });
const markSent = (at = '2026-11-23T12:03:00.000Z'): PaymentEvent => ({ type: 'MARK_SENT', at });
const simulate = (at = '2026-11-23T12:04:00.000Z'): PaymentEvent => ({ type: 'SIMULATE_PAYMENT', at });

const PRICE = livePaymentInput().price;
function fulfilledFact(options: { intentHash?: string; amount?: bigint; at?: string; id?: string; retracted?: boolean } = {}): PaymentEvent {
  const { intentHash = INTENT_HASH, amount = PRICE.netUsdc, at = '2026-11-23T12:11:00.000Z', id = 'fact_fulfil_1', retracted } = options;
  return {
    type: 'CHAIN_FACT',
    fact: {
      id,
      transactionHash: FULFIL_TX,
      blockTimestamp: String(seconds(at)),
      ...(retracted === undefined ? {} : { retracted }),
      intentFulfilled: { intentHash, amount: amount.toString(), fundsTransferredTo: DESTINATION },
    },
  };
}
const prunedFact = (at = '2026-11-23T12:30:00.000Z'): PaymentEvent => ({
  type: 'CHAIN_FACT',
  fact: { id: 'fact_pruned_1', transactionHash: '0x77', blockTimestamp: String(seconds(at)), intentPruned: { intentHash: INTENT_HASH } },
});

// --- the way to each inner step --------------------------------------------------

const signalling = () => create()[0];
const readingSignal = () => send(signalling(), signalOutcome('MINED'))[0];
const awaitingPayment = () => send(readingSignal(), intentSignaled())[0];
const verifying = () => send(awaitingPayment(), submitProof())[0];
const fulfilling = () => send(verifying(), verified())[0];

// === (new) → CREATED ==============================================================

test('live creation: CREATED.SIGNALLING, signalIntent with the terms, PAYMENT_CREATED, the order told, the window timer set', (t) => {
  const input = livePaymentInput();
  const [snapshot, actions] = create(input);
  t.deepEqual(snapshot.value, { CREATED: 'SIGNALLING' });

  t.deepEqual(only(actions, 'signalIntent'), {
    paymentId: 'pay_live',
    transactionId: 'pay_live-signal',
    chain: LIVE_CHAIN,
    depositId: '42',
    amount: input.price.releasedUsdc.toString(),
    to: DESTINATION,
    paymentMethod: 'venmo',
    fiatCurrency: 'USD',
    conversionRate: CONVERSION_RATE.toString(),
    platformFeeBps: FEES.platformFeeBps,
  });

  const events = emitted(actions);
  t.deepEqual(
    events.map((event) => event.type),
    ['PAYMENT_CREATED'],
  );
  t.is(events[0]!.orderId, 'ord_fixed');
  t.like(events[0]!.payment, {
    id: 'pay_live',
    orderId: 'ord_fixed',
    status: 'CREATED',
    rail: 'venmo',
    proofMode: 'BUYER_TEE',
    attestation: { serviceUrl: 'https://attest.example' },
    quoteExpiresAt: QUOTE_EXPIRES_AT,
    paymentAmount: '25.50',
    currencyPerUsdRate: '1.020000',
    totalUsdcFeeAmount: '0.2',
    netSettledUsdcAmount: null,
    railIdentifier: null,
    suggestedMemo: null,
    fulfillTransaction: null,
    completedAt: null,
    createdAt: PAYMENT_CREATED_AT,
    errorCode: null,
    errorMessage: null,
  });
  t.deepEqual(events[0]!.payment.penalties, []);

  const [tell] = tells(actions);
  t.is(tells(actions).length, 1);
  t.deepEqual(tell, {
    to: { kind: 'order', id: 'ord_fixed' },
    event: {
      type: 'PAYMENT_UPDATED',
      payment: {
        id: 'pay_live',
        rail: 'venmo',
        status: 'CREATED',
        step: 'SIGNALLING',
        railIdentifier: null,
        paid: false,
        createdAt: PAYMENT_CREATED_AT,
        openedAt: PAYMENT_CREATED_AT,
      },
    },
  });

  const timer = windowTimer(actions);
  t.is(timer.delay, WINDOW_MS);
  t.is(context(snapshot).quoteExpiresAt, QUOTE_EXPIRES_AT);
  t.like(context(snapshot), { railIdentifier: null, createdAt: PAYMENT_CREATED_AT, updatedAt: PAYMENT_CREATED_AT, completedAt: null });
});

test('the window timer follows windowMs: a six-hour window is raised with a six-hour delay and expires six hours on', (t) => {
  const sixHours = 6 * 60 * 60 * 1000;
  const [snapshot, actions] = create(livePaymentInput({ windowMs: sixHours }));
  t.is(windowTimer(actions).delay, sixHours);
  t.is(context(snapshot).quoteExpiresAt, '2026-11-23T18:00:00.000Z');
});

test('sandbox creation: straight to CREATED.AWAITING_PAYMENT with railIdentifier sim_<id>, no signalIntent', (t) => {
  const [snapshot, actions] = create(sandboxPaymentInput());
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_PAYMENT' });
  t.is(context(snapshot).railIdentifier, 'sim_pay_sandbox');
  t.deepEqual(paramsOf(actions, 'signalIntent'), []);
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_CREATED'],
  );
  t.like(emitted(actions)[0]!.payment, { railIdentifier: 'sim_pay_sandbox', proofMode: 'SIMULATED', suggestedMemo: null });
  t.like(reports(actions)[0], { step: 'AWAITING_PAYMENT', railIdentifier: 'sim_pay_sandbox', status: 'CREATED' });
  t.is(windowTimer(actions).delay, WINDOW_MS);
});

// === inside CREATED ===============================================================

test('signalIntent MINED: READING_SIGNAL, readSignal asked with the transaction hash, nothing emitted', (t) => {
  const [snapshot, actions] = send(signalling(), signalOutcome('MINED'));
  t.deepEqual(snapshot.value, { CREATED: 'READING_SIGNAL' });
  t.deepEqual(only(actions, 'readSignal'), { paymentId: 'pay_live', transactionHash: SIGNAL_TX });
  t.deepEqual(emitted(actions), []);
});

test('a fulfilment outcome while signalling is not the signal: not taken', (t) => {
  t.false(signalling().can(fulfilOutcome('MINED')));
  t.false(signalling().can(intentSignaled()), 'the signal is read only after its transaction is mined');
});

test('CREATED → FAILED: signalIntent not MINED fails with SIGNAL_INTENT_FAILED and PAYMENT_FAILED', (t) => {
  for (const status of ['FAILED', 'DROPPED', 'REPLACED'] as const) {
    const [snapshot, actions] = send(signalling(), signalOutcome(status, '2026-11-23T12:00:45.000Z', 'deposit has too little liquidity'));
    t.is(snapshot.value, 'FAILED', status);
    t.is(context(snapshot).errorCode, 'SIGNAL_INTENT_FAILED');
    t.regex(context(snapshot).errorMessage ?? '', new RegExp(`${status}.*deposit has too little liquidity`));
    t.is(context(snapshot).completedAt, '2026-11-23T12:00:45.000Z');
    const events = emitted(actions);
    t.deepEqual(
      events.map((event) => event.type),
      ['PAYMENT_FAILED'],
    );
    // The webhook says why (document 1: errorMessage is not restricted); the code stays the hosted read's.
    t.like(events[0]!.payment, { status: 'FAILED', completedAt: '2026-11-23T12:00:45.000Z', errorCode: null, errorMessage: context(snapshot).errorMessage });
    t.like(hosted(snapshot), { status: 'FAILED', errorCode: 'SIGNAL_INTENT_FAILED' });
    t.deepEqual(only(actions, 'cancelIntent'), { paymentId: 'pay_live', intentHash: null, chain: LIVE_CHAIN, reopenings: 0 });
    t.like(reports(actions)[0], { status: 'FAILED', step: null });
  }
});

test('INTENT_SIGNALED: AWAITING_PAYMENT with railIdentifier, and suggestedMemo is the payment reference of the hash', (t) => {
  const [snapshot, actions] = send(readingSignal(), intentSignaled('2026-11-23T12:00:40.000Z'));
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_PAYMENT' });
  t.like(context(snapshot), {
    railIdentifier: INTENT_HASH,
    signalTimestamp: seconds('2026-11-23T12:00:28.000Z'),
    expiryTime: seconds('2026-11-24T12:00:28.000Z'),
    updatedAt: '2026-11-23T12:00:40.000Z',
  });
  const view = hosted(snapshot);
  t.is(view.railIdentifier, INTENT_HASH);
  t.is(view.quote.intentHash, INTENT_HASH);
  t.is(view.suggestedMemo, paymentReference(INTENT_HASH));
  t.is(view.suggestedMemo, 'PEER-ABCDEF012345');
  t.deepEqual(emitted(actions), [], 'registering the attempt is no webhook');
  t.like(reports(actions)[0], { status: 'CREATED', step: 'AWAITING_PAYMENT', railIdentifier: INTENT_HASH, paid: false });
});

test('MARK_SENT records when the customer said they sent it, and tells the order the attempt may be paid', (t) => {
  const [snapshot, actions] = send(awaitingPayment(), markSent('2026-11-23T12:03:00.000Z'));
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_PAYMENT' });
  t.is(context(snapshot).sentAt, '2026-11-23T12:03:00.000Z');
  t.like(reports(actions)[0], { step: 'AWAITING_PAYMENT', paid: true });
  const [again] = send(snapshot, markSent('2026-11-23T12:04:00.000Z'));
  t.is(context(again).sentAt, '2026-11-23T12:03:00.000Z', 'the first time stays');
});

test('SUBMIT_PROOF: VERIFYING, verifyPayment asked with the proof and the intent terms', (t) => {
  const [snapshot, actions] = send(awaitingPayment(), submitProof('2026-11-23T12:05:00.000Z'));
  t.deepEqual(snapshot.value, { CREATED: 'VERIFYING' });
  t.deepEqual(context(snapshot).proof, PROOF);
  t.deepEqual(only(actions, 'verifyPayment'), {
    paymentId: 'pay_live',
    platform: 'venmo',
    proof: PROOF,
    sellerTxId: null,
    intent: {
      intentHash: INTENT_HASH,
      amount: PRICE.releasedUsdc.toString(),
      fiatCurrency: 'USD',
      payeeDetails: livePaymentInput().quote.payeeDetails,
      conversionRate: CONVERSION_RATE.toString(),
      signalTimestamp: seconds('2026-11-23T12:00:28.000Z'),
      expiryTime: seconds('2026-11-24T12:00:28.000Z'),
      disputeProtection: false,
    },
    chain: LIVE_CHAIN,
  });
  t.like(reports(actions)[0], { step: 'VERIFYING', paid: true });
  t.deepEqual(emitted(actions), []);
});

test('CREATED → CREATED: verification rejected keeps CREATED, back to AWAITING_PAYMENT with the code on the hosted view only', (t) => {
  const [snapshot, actions] = send(verifying(), rejected('2026-11-23T12:06:00.000Z', 'PAYMENT_NOT_FOUND', 'no matching payment'));
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_PAYMENT' });
  t.is(statusOf(snapshot), 'CREATED');
  t.like(context(snapshot), { proof: null, errorCode: 'PAYMENT_NOT_FOUND', errorMessage: 'no matching payment', completedAt: null });
  t.like(hosted(snapshot), { status: 'CREATED', errorCode: 'PAYMENT_NOT_FOUND', errorMessage: 'no matching payment' });
  t.like(listed(snapshot), { status: 'CREATED', errorCode: null, errorMessage: 'no matching payment' });
  t.deepEqual(emitted(actions), [], 'no webhook: the attempt is unchanged');
  t.deepEqual(paramsOf(actions, 'cancelIntent'), []);
  t.like(reports(actions)[0], { status: 'CREATED', step: 'AWAITING_PAYMENT' });

  // The customer can retry; a new proof clears the error.
  const [retry, retryActions] = send(snapshot, submitProof('2026-11-23T12:07:00.000Z'));
  t.deepEqual(retry.value, { CREATED: 'VERIFYING' });
  t.like(context(retry), { errorCode: null, errorMessage: null });
  t.is(paramsOf(retryActions, 'verifyPayment').length, 1);
});

test('PAYMENT_VERIFIED: FULFILLING, fulfilIntent asked with the attestation, the sealed material cleared', (t) => {
  const [snapshot, actions] = send(verifying(), verified('2026-11-23T12:06:00.000Z'));
  t.deepEqual(snapshot.value, { CREATED: 'FULFILLING' });
  t.is(context(snapshot).proof, null, 'the proof material is not kept past its use');
  t.is(context(snapshot).paymentProof, PAYMENT_PROOF);
  t.deepEqual(only(actions, 'fulfilIntent'), { paymentId: 'pay_live', attempt: 1, intentHash: INTENT_HASH, paymentProof: PAYMENT_PROOF, chain: LIVE_CHAIN });
  t.like(reports(actions)[0], { step: 'FULFILLING', paid: true });
  t.deepEqual(emitted(actions), []);
});

test('the fulfil transaction failing: back to AWAITING_PAYMENT with FULFILL_INTENT_FAILED; a retry is a new attempt', (t) => {
  const [snapshot, actions] = send(fulfilling(), fulfilOutcome('FAILED', '2026-11-23T12:10:30.000Z', 'execution reverted'));
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_PAYMENT' });
  t.like(context(snapshot), { errorCode: 'FULFILL_INTENT_FAILED', paymentProof: null, completedAt: null });
  t.regex(context(snapshot).errorMessage ?? '', /FAILED: execution reverted/);
  t.like(hosted(snapshot), { status: 'CREATED', errorCode: 'FULFILL_INTENT_FAILED' });
  t.is(listed(snapshot).errorCode, null);
  t.deepEqual(emitted(actions), []);
  t.deepEqual(paramsOf(actions, 'cancelIntent'), [], 'the intent stays: the customer paid');

  const [again, againActions] = run(snapshot, submitProof('2026-11-23T12:12:00.000Z'), verified('2026-11-23T12:13:00.000Z'));
  t.deepEqual(again.value, { CREATED: 'FULFILLING' });
  t.is(only(againActions, 'fulfilIntent').attempt, 2, 'each fulfilment has its own id');
});

test('a MINED fulfil transaction does not settle: only the chain fact does; it is taken, so it is never a dead letter', (t) => {
  const from = fulfilling();
  t.true(from.can(fulfilOutcome('MINED')));
  const [snapshot, actions] = send(from, fulfilOutcome('MINED'));
  t.deepEqual(snapshot.value, { CREATED: 'FULFILLING' });
  t.deepEqual(snapshot.context, from.context);
  t.deepEqual(emitted(actions), []);
});

test('an ended or settled attempt takes a replacement’s cancel and its own transactions’ outcomes, changing nothing', (t) => {
  const [cancelled] = send(signalling(), cancel('2026-11-23T12:00:10.000Z'));
  const [settled] = send(fulfilling(), fulfilledFact());
  for (const ended of [cancelled, settled]) {
    for (const event of [{ type: 'CANCEL', reason: 'REPLACED', at: '2026-11-23T12:05:00.000Z' } as const, fulfilOutcome('MINED')]) {
      t.true(ended.can(event), `${JSON.stringify(ended.value)} takes ${event.type}`);
      const [after, actions] = send(ended, event);
      t.deepEqual(after.value, ended.value);
      t.deepEqual(after.context, ended.context);
      t.deepEqual(emitted(actions), []);
    }
    t.false(ended.can({ type: 'CANCEL', reason: 'CUSTOMER', at: '2026-11-23T12:05:00.000Z' }), 'a customer cancel is still refused');
  }
});

// === CREATED → SETTLED ============================================================

test('CREATED → SETTLED: the IntentFulfilled fact settles; PAYMENT_SETTLED is emitted before the order is told to apply it', (t) => {
  const [snapshot, actions] = send(fulfilling(), fulfilledFact({ at: '2026-11-23T12:11:00.000Z' }));
  t.is(snapshot.value, 'SETTLED');
  t.like(context(snapshot), {
    fulfillTransaction: FULFIL_TX,
    netSettledUsdcAmount: PRICE.netUsdc,
    creditedUsdcAmount: PRICE.creditUsdc,
    settlementFactId: 'fact_fulfil_1',
    completedAt: '2026-11-23T12:11:00.000Z',
    updatedAt: '2026-11-23T12:11:00.000Z',
  });
  t.like(hosted(snapshot), { status: 'SETTLED', fulfillTransaction: FULFIL_TX, netSettledUsdcAmount: '24.8', totalUsdcFeeAmount: '0.2' });

  const events = emitted(actions);
  t.deepEqual(
    events.map((event) => event.type),
    ['PAYMENT_SETTLED'],
  );
  t.like(events[0]!.payment, { status: 'SETTLED', fulfillTransaction: FULFIL_TX, netSettledUsdcAmount: '24.8', completedAt: '2026-11-23T12:11:00.000Z' });

  const emitIndex = actions.findIndex((action) => action.type === 'xstate.emit');
  const applyIndex = actions.findIndex((action) => action.type === 'tell' && (action.params as Tell).event.type === 'APPLY_SETTLEMENT');
  t.true(emitIndex >= 0 && applyIndex >= 0);
  t.true(emitIndex < applyIndex, 'PAYMENT_SETTLED comes before the order can emit ORDER_FULFILLED');
  t.deepEqual(actions[applyIndex]!.params, {
    to: { kind: 'order', id: 'ord_fixed' },
    event: { type: 'APPLY_SETTLEMENT', paymentId: 'pay_live', usdcAmount: 25_000_000n, at: '2026-11-23T12:11:00.000Z' },
  });
  t.like(reports(actions)[0], { status: 'SETTLED', step: null });
  t.deepEqual(paramsOf(actions, 'cancelIntent'), []);
});

test('the credit follows the fee payer: a PAYEE order is credited what is owed while more is released', (t) => {
  const input = livePaymentInput({ feePayer: 'PAYEE' });
  t.is(input.price.creditUsdc, 25_000_000n);
  t.is(input.price.netUsdc, 25_000_000n);
  t.is(input.price.releasedUsdc, 25_201_612n);
  const [started] = create(input);
  const [snapshot, actions] = run(started, signalOutcome('MINED'), intentSignaled(), fulfilledFact({ amount: 25_000_000n }));
  t.is(snapshot.value, 'SETTLED');
  t.like(tells(actions).find((tell) => tell.event.type === 'APPLY_SETTLEMENT')!.event, { usdcAmount: 25_000_000n });
});

test('a release short of the intent credits the order short by as much', (t) => {
  const [snapshot, actions] = send(fulfilling(), fulfilledFact({ amount: PRICE.netUsdc - 1_000n }));
  t.is(snapshot.value, 'SETTLED');
  t.is(context(snapshot).netSettledUsdcAmount, PRICE.netUsdc - 1_000n);
  t.is(context(snapshot).creditedUsdcAmount, PRICE.creditUsdc - 1_000n);
  t.like(tells(actions).find((tell) => tell.event.type === 'APPLY_SETTLEMENT')!.event, { usdcAmount: PRICE.creditUsdc - 1_000n });
});

test('the fact settles from any inner step, matching the hash in any case (a seller release before any proof)', (t) => {
  const [snapshot] = send(awaitingPayment(), fulfilledFact({ intentHash: INTENT_HASH.toUpperCase().replace('0X', '0x') }));
  t.is(snapshot.value, 'SETTLED');
});

test('a fact for another intent hash, or a retracted one, is not accepted', (t) => {
  for (const from of [awaitingPayment(), fulfilling()]) {
    t.false(from.can(fulfilledFact({ intentHash: OTHER_INTENT_HASH })));
    t.false(from.can(fulfilledFact({ retracted: true })));
    t.true(from.can(fulfilledFact()));
  }
  const [unchanged, actions] = send(fulfilling(), fulfilledFact({ intentHash: OTHER_INTENT_HASH }));
  t.deepEqual(unchanged.value, { CREATED: 'FULFILLING' });
  t.deepEqual(actions, []);
  t.false(signalling().can(fulfilledFact()), 'before the hash is known nothing matches it');
});

test('SETTLED takes no cancel, no second settlement, no window: only the retraction of its own fact moves it', (t) => {
  const [settled] = send(fulfilling(), fulfilledFact());
  t.false(settled.can(cancel()));
  t.false(settled.can(fulfilledFact({ id: 'fact_fulfil_2' })));
  t.false(settled.can(WINDOW_EVENT));
  t.true(settled.can(fulfilledFact({ retracted: true })));
});

// === CREATED → EXPIRED ============================================================

test('CREATED → EXPIRED: the window closing while awaiting payment expires it, cancels the intent, completedAt is quoteExpiresAt', (t) => {
  const [snapshot, actions] = send(awaitingPayment(), WINDOW_EVENT);
  t.is(snapshot.value, 'EXPIRED');
  t.like(context(snapshot), { completedAt: QUOTE_EXPIRES_AT, updatedAt: QUOTE_EXPIRES_AT });
  const events = emitted(actions);
  t.deepEqual(
    events.map((event) => event.type),
    ['PAYMENT_EXPIRED'],
  );
  t.like(events[0]!.payment, { status: 'EXPIRED', completedAt: QUOTE_EXPIRES_AT, railIdentifier: INTENT_HASH });
  t.deepEqual(only(actions, 'cancelIntent'), { paymentId: 'pay_live', intentHash: INTENT_HASH, chain: LIVE_CHAIN, reopenings: 0 });
  t.like(reports(actions)[0], { status: 'EXPIRED', step: null });
});

test('the window closing before the intent is signalled expires it too, with nothing yet to cancel', (t) => {
  for (const from of [signalling(), readingSignal()]) {
    const [snapshot, actions] = send(from, WINDOW_EVENT);
    t.is(snapshot.value, 'EXPIRED');
    t.deepEqual(only(actions, 'cancelIntent'), { paymentId: 'pay_live', intentHash: null, chain: LIVE_CHAIN, reopenings: 0 });
  }
});

test('the window closing while VERIFYING does not expire it; a later rejection past quoteExpiresAt does', (t) => {
  const from = verifying();
  t.false(from.can(WINDOW_EVENT));
  const [still, stillActions] = send(from, WINDOW_EVENT);
  t.deepEqual(still.value, { CREATED: 'VERIFYING' });
  t.deepEqual(emitted(stillActions), []);
  t.deepEqual(paramsOf(stillActions, 'cancelIntent'), [], 'cancelling now could take the customer’s money');

  const [expired, actions] = send(still, rejected('2026-11-23T13:00:05.000Z', 'PAYMENT_NOT_FOUND', 'no matching payment'));
  t.is(expired.value, 'EXPIRED');
  t.like(context(expired), { completedAt: QUOTE_EXPIRES_AT, errorCode: 'PAYMENT_NOT_FOUND', proof: null });
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_EXPIRED'],
  );
  t.deepEqual(only(actions, 'cancelIntent'), { paymentId: 'pay_live', intentHash: INTENT_HASH, chain: LIVE_CHAIN, reopenings: 0 });
});

test('a rejection at exactly quoteExpiresAt expires; one a millisecond before goes back to awaiting payment', (t) => {
  t.is(send(verifying(), rejected(QUOTE_EXPIRES_AT))[0].value, 'EXPIRED');
  t.deepEqual(send(verifying(), rejected('2026-11-23T12:59:59.999Z'))[0].value, { CREATED: 'AWAITING_PAYMENT' });
});

test('the window closing while FULFILLING does not expire it; a fulfil failure after the window does', (t) => {
  const [still] = send(fulfilling(), WINDOW_EVENT);
  t.deepEqual(still.value, { CREATED: 'FULFILLING' });
  const [expired, actions] = send(still, fulfilOutcome('FAILED', '2026-11-23T13:00:10.000Z', 'execution reverted'));
  t.is(expired.value, 'EXPIRED');
  t.like(context(expired), { completedAt: QUOTE_EXPIRES_AT, errorCode: 'FULFILL_INTENT_FAILED' });
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_EXPIRED'],
  );

  // A verified attempt still settles after its window, as long as the chain says so.
  const [settled] = send(still, fulfilledFact({ at: '2026-11-23T13:02:00.000Z' }));
  t.is(settled.value, 'SETTLED');
});

test('sandbox: the window closes an unpaid attempt the same way', (t) => {
  const [snapshot, actions] = send(create(sandboxPaymentInput())[0], WINDOW_EVENT);
  t.is(snapshot.value, 'EXPIRED');
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_EXPIRED'],
  );
  t.deepEqual(only(actions, 'cancelIntent'), { paymentId: 'pay_sandbox', intentHash: 'sim_pay_sandbox', chain: null, reopenings: 0 });
});

// === CREATED → CANCELLED ==========================================================

test('CREATED → CANCELLED: CANCEL ends it with PAYMENT_CANCELLED and cancels the intent', (t) => {
  const [snapshot, actions] = send(awaitingPayment(), cancel('2026-11-23T12:02:00.000Z'));
  t.is(snapshot.value, 'CANCELLED');
  t.like(context(snapshot), { completedAt: '2026-11-23T12:02:00.000Z', updatedAt: '2026-11-23T12:02:00.000Z' });
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_CANCELLED'],
  );
  t.like(emitted(actions)[0]!.payment, { status: 'CANCELLED', completedAt: '2026-11-23T12:02:00.000Z' });
  t.deepEqual(only(actions, 'cancelIntent'), { paymentId: 'pay_live', intentHash: INTENT_HASH, chain: LIVE_CHAIN, reopenings: 0 });
  t.like(reports(actions)[0], { status: 'CANCELLED', step: null });
  t.false(snapshot.can(cancel()), 'cancelled once');
  t.false(snapshot.can(WINDOW_EVENT));
});

test('a replaced attempt (reason REPLACED) is cancelled the same way', (t) => {
  const [snapshot, actions] = send(signalling(), cancel('2026-11-23T12:02:00.000Z', 'REPLACED'));
  t.is(snapshot.value, 'CANCELLED');
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_CANCELLED'],
  );
});

// === late facts on an ended attempt ===============================================

/** One attempt ended each way it can end before paying: by its window, the customer, the chain. */
const endedAttempts = () => ({
  EXPIRED: send(awaitingPayment(), WINDOW_EVENT)[0],
  CANCELLED: send(awaitingPayment(), cancel())[0],
  FAILED: send(awaitingPayment(), prunedFact())[0],
});

test('a late IntentFulfilled fact on EXPIRED, CANCELLED or FAILED settles it: a late settlement still counts', (t) => {
  const ended = endedAttempts();
  for (const [status, from] of Object.entries(ended)) {
    t.is(from.value as string, status);
    t.false(from.can(fulfilledFact({ intentHash: OTHER_INTENT_HASH })), `${status}: not for another intent`);
    const [snapshot, actions] = send(from, fulfilledFact({ at: '2026-11-23T13:30:00.000Z' }));
    t.is(snapshot.value, 'SETTLED', status);
    t.like(context(snapshot), { fulfillTransaction: FULFIL_TX, completedAt: '2026-11-23T13:30:00.000Z', errorCode: null, errorMessage: null });
    t.deepEqual(
      emitted(actions).map((event) => event.type),
      ['PAYMENT_SETTLED'],
      status,
    );
    const apply = tells(actions).find((tell) => tell.event.type === 'APPLY_SETTLEMENT');
    t.like(apply?.event, { paymentId: 'pay_live', usdcAmount: PRICE.creditUsdc }, status);
  }
});

test('CREATED → FAILED: the intent pruned on chain before any proof fails the attempt with INTENT_CANCELLED', (t) => {
  const [snapshot, actions] = send(awaitingPayment(), prunedFact('2026-11-23T12:30:00.000Z'));
  t.is(snapshot.value, 'FAILED');
  t.like(context(snapshot), { errorCode: 'INTENT_CANCELLED', completedAt: '2026-11-23T12:30:00.000Z' });
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_FAILED'],
  );
});

test('an INTENT_SIGNALED arriving after CANCEL records the hash and asks cancelIntent for it', (t) => {
  const [cancelled, cancelActions] = send(readingSignal(), cancel('2026-11-23T12:00:35.000Z'));
  t.is(cancelled.value, 'CANCELLED');
  t.deepEqual(only(cancelActions, 'cancelIntent'), { paymentId: 'pay_live', intentHash: null, chain: LIVE_CHAIN, reopenings: 0 });

  const [snapshot, actions] = send(cancelled, intentSignaled('2026-11-23T12:00:40.000Z'));
  t.is(snapshot.value, 'CANCELLED');
  t.is(context(snapshot).railIdentifier, INTENT_HASH);
  t.deepEqual(only(actions, 'cancelIntent'), { paymentId: 'pay_live', intentHash: INTENT_HASH, chain: LIVE_CHAIN, reopenings: 0 });
  t.deepEqual(emitted(actions), []);

  // With the hash known, its fulfilment is recognised.
  t.true(snapshot.can(fulfilledFact()));
});

test('a signal transaction mined after CANCEL is still read, so its intent can be cancelled', (t) => {
  const [cancelled] = send(signalling(), cancel('2026-11-23T12:00:10.000Z'));
  const [snapshot, actions] = send(cancelled, signalOutcome('MINED', '2026-11-23T12:00:30.000Z'));
  t.is(snapshot.value, 'CANCELLED');
  t.deepEqual(only(actions, 'readSignal'), { paymentId: 'pay_live', transactionHash: SIGNAL_TX });
  const [after, failedActions] = send(cancelled, signalOutcome('FAILED'));
  t.deepEqual([after.value, after.context, emitted(failedActions)], [cancelled.value, cancelled.context, []], 'a failed signal after the end changes nothing');
});

// === sandbox and live commands ====================================================

test('sandbox SIMULATE_PAYMENT: SETTLED with a sim_ fulfillTransaction, the price net, the order told to apply the credit', (t) => {
  const input = sandboxPaymentInput();
  const [snapshot, actions] = send(create(input)[0], simulate('2026-11-23T12:04:00.000Z'));
  t.is(snapshot.value, 'SETTLED');
  t.like(context(snapshot), {
    fulfillTransaction: 'sim_pay_sandbox',
    netSettledUsdcAmount: input.price.netUsdc,
    creditedUsdcAmount: input.price.creditUsdc,
    completedAt: '2026-11-23T12:04:00.000Z',
  });
  t.true(context(snapshot).fulfillTransaction!.startsWith('sim_'));
  const events = emitted(actions);
  t.deepEqual(
    events.map((event) => event.type),
    ['PAYMENT_SETTLED'],
  );
  t.like(events[0]!.payment, { status: 'SETTLED', fulfillTransaction: 'sim_pay_sandbox', netSettledUsdcAmount: '24.8' });
  const applyIndex = actions.findIndex((action) => action.type === 'tell' && (action.params as Tell).event.type === 'APPLY_SETTLEMENT');
  t.true(actions.findIndex((action) => action.type === 'xstate.emit') < applyIndex);
  t.like((actions[applyIndex]!.params as Tell).event, { paymentId: 'pay_sandbox', usdcAmount: input.price.creditUsdc, at: '2026-11-23T12:04:00.000Z' });
});

test('SIMULATE_PAYMENT is not accepted on a live payment; SUBMIT_PROOF is not accepted on a sandbox one', (t) => {
  const live = awaitingPayment();
  t.false(live.can(simulate()));
  t.deepEqual(send(live, simulate())[0].value, { CREATED: 'AWAITING_PAYMENT' });

  const [sandbox] = create(sandboxPaymentInput());
  t.false(sandbox.can(submitProof()));
  t.deepEqual(send(sandbox, submitProof())[0].value, { CREATED: 'AWAITING_PAYMENT' });
  t.true(sandbox.can(simulate()));
});

test('SUBMIT_PROOF is taken only while awaiting payment', (t) => {
  t.false(signalling().can(submitProof()));
  t.false(readingSignal().can(submitProof()));
  t.false(verifying().can(submitProof()));
  t.false(fulfilling().can(submitProof()));
  t.true(awaitingPayment().can(submitProof()));
});

// === persistence ==================================================================

test('a persisted snapshot mid-flow round-trips through the codec and resolveState, and keeps working', (t) => {
  const from = verifying();
  const stored = fromJson<Parameters<typeof paymentMachine.resolveState>[0]>(toJson(paymentMachine.getPersistedSnapshot(from)));
  const restored = paymentMachine.resolveState(stored);
  t.deepEqual(restored.value, { CREATED: 'VERIFYING' });
  t.deepEqual(context(restored), context(from));
  t.is(typeof context(restored).price.releasedUsdc, 'bigint', 'money stays bigint');
  t.is(context(restored).quote.conversionRate, CONVERSION_RATE);

  const [next, actions] = send(restored, verified());
  t.deepEqual(next.value, { CREATED: 'FULFILLING' });
  t.deepEqual(
    types(actions).filter((type) => type === 'xstate.emit'),
    [],
    'restoring runs no entry actions again',
  );
  t.is(only(actions, 'fulfilIntent').attempt, 1);

  const stored2 = fromJson<Parameters<typeof paymentMachine.resolveState>[0]>(toJson(paymentMachine.getPersistedSnapshot(next)));
  const [settled, settledActions] = send(paymentMachine.resolveState(stored2), fulfilledFact());
  t.is(settled.value, 'SETTLED');
  t.is(context(settled).creditedUsdcAmount, PRICE.creditUsdc);
  t.deepEqual(
    emitted(settledActions).map((event) => event.type),
    ['PAYMENT_SETTLED'],
  );
});

test('an attempt whose proof is being verified or fulfilled cannot be cancelled: cancelling its intent could take money the customer sent', (t) => {
  const [verifying] = run(signalling(), signalOutcome('MINED'), intentSignaled(), submitProof());
  t.false(verifying.can(cancel('2026-11-23T12:05:30.000Z')));
  const [fulfilling] = send(verifying, verified());
  t.false(fulfilling.can(cancel('2026-11-23T12:06:30.000Z', 'REPLACED')));
  const [settled] = send(fulfilling, fulfilledFact());
  // An order replacing an attempt that ended meanwhile gets a quiet no-op, not a refusal to dead-letter.
  const [after, actions] = send(settled, cancel('2026-11-23T12:40:00.000Z', 'REPLACED'));
  t.is(statusOf(after), 'SETTLED');
  t.deepEqual(emitted(actions), []);
});

// === a settlement taken back by a chain reorganisation ============================

/** The settlement-wait timer armed on a retraction: the event the runtime delivers when it fires. */
function settlementWaitEvent(actions: Action[]): PaymentEvent {
  const waits = delayed(actions).filter((timer) => timer.delay === SETTLEMENT_WAIT_MS);
  if (waits.length !== 1) throw new Error(`expected one settlement-wait timer, got ${JSON.stringify(delayed(actions))}`);
  return waits[0]!.event as unknown as PaymentEvent;
}
const retraction = (options: { id?: string; at?: string } = {}) => fulfilledFact({ ...options, retracted: true });
const reindexed = (at = '2026-11-23T12:11:30.000Z') => fulfilledFact({ id: 'fact_fulfil_1#2', at });
const retractionsEmitted = (actions: Action[]) =>
  emitted(actions).filter((event): event is PaymentRetractionEmitted => event.type === 'PAYMENT_SETTLEMENT_RETRACTED');

const settledByUs = () => send(fulfilling(), fulfilledFact())[0];
/** Settled by someone else's fulfilment (the maker's release): no proof, no attestation held. */
const settledByRelease = () => send(awaitingPayment(), fulfilledFact())[0];

test('SETTLED → CREATED.AWAITING_SETTLEMENT: its fact retracted takes the settlement back and tells the order RETRACT_SETTLEMENT', (t) => {
  const [snapshot, actions] = send(settledByUs(), retraction());
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_SETTLEMENT' });
  t.is(statusOf(snapshot), 'CREATED', 'the public status is CREATED again');
  t.like(context(snapshot), {
    fulfillTransaction: null,
    netSettledUsdcAmount: null,
    creditedUsdcAmount: null,
    settlementFactId: null,
    completedAt: null,
    updatedAt: '2026-11-23T12:11:00.000Z',
    errorCode: 'SETTLEMENT_RETRACTED',
  });
  t.deepEqual(context(snapshot).retractedFactIds, ['fact_fulfil_1']);
  t.regex(context(snapshot).errorMessage ?? '', /reorganised away/);
  t.like(hosted(snapshot), { status: 'CREATED', fulfillTransaction: null, netSettledUsdcAmount: null, completedAt: null, errorCode: 'SETTLEMENT_RETRACTED' });
  t.like(listed(snapshot), { status: 'CREATED', errorCode: null });

  // One domain event, not PAYMENT_CREATED again: nothing was created.
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_SETTLEMENT_RETRACTED'],
  );
  const [announced] = retractionsEmitted(actions);
  t.is(announced!.orderId, 'ord_fixed');
  t.deepEqual(announced!.retractedFact, { id: 'fact_fulfil_1', transactionHash: FULFIL_TX });
  t.like(announced!.payment, { status: 'CREATED', fulfillTransaction: null, netSettledUsdcAmount: null, completedAt: null });

  // The event first, then the order told to take the settlement back, then where the attempt stands.
  t.deepEqual(
    actions
      .filter((action) => action.type === 'xstate.emit' || action.type === 'tell')
      .map((action) => (action.type === 'tell' ? (action.params as Tell).event.type : action.type)),
    ['xstate.emit', 'RETRACT_SETTLEMENT', 'PAYMENT_UPDATED'],
  );
  t.deepEqual(tells(actions)[0], {
    to: { kind: 'order', id: 'ord_fixed' },
    event: { type: 'RETRACT_SETTLEMENT', paymentId: 'pay_live', at: '2026-11-23T12:11:00.000Z' },
  });
  t.like(reports(actions)[0], { status: 'CREATED', step: 'AWAITING_SETTLEMENT', railIdentifier: INTENT_HASH });
  t.deepEqual(paramsOf(actions, 'cancelIntent'), [], 'the intent is not cancelled: its fulfilment may land again');
  t.deepEqual(paramsOf(actions, 'fulfilIntent'), [], 'nothing sent yet: the same transaction is usually mined again');
});

test('AWAITING_SETTLEMENT → SETTLED: the re-indexed fact (a new id, the same intent) settles again and the order is told to apply it again', (t) => {
  const [waiting] = send(settledByUs(), retraction());
  const [snapshot, actions] = send(waiting, reindexed('2026-11-23T12:11:30.000Z'));
  t.is(snapshot.value, 'SETTLED');
  t.like(context(snapshot), {
    fulfillTransaction: FULFIL_TX,
    netSettledUsdcAmount: PRICE.netUsdc,
    creditedUsdcAmount: PRICE.creditUsdc,
    settlementFactId: 'fact_fulfil_1#2',
    completedAt: '2026-11-23T12:11:30.000Z',
    errorCode: null,
    errorMessage: null,
  });
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_SETTLED'],
  );
  t.deepEqual(
    tells(actions).map((tell) => tell.event),
    [
      { type: 'APPLY_SETTLEMENT', paymentId: 'pay_live', usdcAmount: PRICE.creditUsdc, at: '2026-11-23T12:11:30.000Z' },
      {
        type: 'PAYMENT_UPDATED',
        payment: {
          id: 'pay_live',
          rail: 'venmo',
          status: 'SETTLED',
          step: null,
          railIdentifier: INTENT_HASH,
          paid: true,
          createdAt: PAYMENT_CREATED_AT,
          openedAt: PAYMENT_CREATED_AT,
        },
      },
    ],
  );

  // And the new settlement can itself be taken back by its own fact's retraction.
  t.true(snapshot.can(retraction({ id: 'fact_fulfil_1#2' })));
});

test('a retraction delivered twice takes the settlement back once; after a new settlement the old retraction changes nothing', (t) => {
  const [waiting] = send(settledByUs(), retraction());
  t.false(waiting.can(retraction()), 'already taken back');
  const [still, actions] = send(waiting, retraction());
  t.deepEqual(still.value, { CREATED: 'AWAITING_SETTLEMENT' });
  t.deepEqual(actions, []);

  const [settledAgain] = send(waiting, reindexed());
  t.false(settledAgain.can(retraction()), 'the old fact is not the settlement now');
  const [unchanged, againActions] = send(settledAgain, retraction());
  t.is(unchanged.value, 'SETTLED');
  t.is(context(unchanged).settlementFactId, 'fact_fulfil_1#2');
  t.deepEqual(againActions, []);
});

test('the retraction of a fact other than the settlement’s is ignored', (t) => {
  const settled = settledByUs();
  const others: PaymentEvent[] = [
    retraction({ id: 'fact_fulfil_other' }),
    fulfilledFact({ id: 'fact_fulfil_other', intentHash: OTHER_INTENT_HASH, retracted: true }),
    { type: 'CHAIN_FACT', fact: { id: 'fact_pruned_1', transactionHash: '0x77', retracted: true, intentPruned: { intentHash: INTENT_HASH } } },
  ];
  for (const other of others) {
    t.false(settled.can(other), other.type === 'CHAIN_FACT' ? other.fact.id : '');
    const [snapshot, actions] = send(settled, other);
    t.is(snapshot.value, 'SETTLED');
    t.is(context(snapshot).settlementFactId, 'fact_fulfil_1');
    t.deepEqual(actions, []);
  }
  // A sandbox settlement has no fact: no retraction can match it.
  const [simulated] = send(create(sandboxPaymentInput())[0], simulate());
  t.false(
    simulated.can({
      type: 'CHAIN_FACT',
      fact: { id: 'fact_x', retracted: true, intentFulfilled: { intentHash: 'sim_pay_sandbox', amount: '1', fundsTransferredTo: DESTINATION } },
    }),
  );
});

test('a fact the chain took back never settles again, even redelivered without its retraction flag', (t) => {
  const [waiting] = send(settledByUs(), retraction());
  t.false(waiting.can(fulfilledFact()), 'fact_fulfil_1 is known retracted');
  t.true(waiting.can(reindexed()));
});

test('a late settlement from EXPIRED, CANCELLED or FAILED, retracted: back to waiting for the chain, and the order told', (t) => {
  const ended = endedAttempts();
  for (const [status, from] of Object.entries(ended)) {
    const [late] = send(from, fulfilledFact({ at: '2026-11-23T13:30:00.000Z' }));
    t.is(late.value, 'SETTLED', status);
    const [snapshot, actions] = send(late, retraction());
    t.deepEqual(snapshot.value, { CREATED: 'AWAITING_SETTLEMENT' }, status);
    t.like(context(snapshot), { completedAt: null, fulfillTransaction: null, creditedUsdcAmount: null, errorCode: 'SETTLEMENT_RETRACTED' }, status);
    t.deepEqual(
      emitted(actions).map((event) => event.type),
      ['PAYMENT_SETTLEMENT_RETRACTED'],
      status,
    );
    t.like(tells(actions).find((tell) => tell.event.type === 'RETRACT_SETTLEMENT')?.event, { paymentId: 'pay_live', at: '2026-11-23T13:30:00.000Z' }, status);
    t.deepEqual(paramsOf(actions, 'cancelIntent'), [], `${status}: the intent is not cancelled again`);
    // Its window closed long ago; it still does not expire: only the chain ends the wait.
    t.false(snapshot.can(WINDOW_EVENT), status);
    t.is(send(snapshot, reindexed('2026-11-23T13:31:00.000Z'))[0].value, 'SETTLED', status);
  }
});

test('AWAITING_SETTLEMENT is not expired by the window: the window timer armed again on the way in never fires it', (t) => {
  for (const settled of [settledByUs(), settledByRelease()]) {
    const [waiting, actions] = send(settled, retraction());
    const window = delayed(actions).find((timer) => timer.delay === WINDOW_MS);
    t.truthy(window, 'CREATED arms its window again when entered');
    t.false(waiting.can(window!.event as unknown as PaymentEvent));
    const [still, fired] = send(waiting, window!.event);
    t.deepEqual(still.value, { CREATED: 'AWAITING_SETTLEMENT' });
    t.deepEqual(fired, []);
  }
});

test('AWAITING_SETTLEMENT → FAILED: the intent pruned on chain meanwhile fails it', (t) => {
  const [waiting] = send(settledByUs(), retraction());
  const [snapshot, actions] = send(waiting, prunedFact('2026-11-23T12:40:00.000Z'));
  t.is(snapshot.value, 'FAILED');
  t.like(context(snapshot), { errorCode: 'INTENT_CANCELLED', completedAt: '2026-11-23T12:40:00.000Z', fulfillTransaction: null });
  t.regex(context(snapshot).errorMessage ?? '', /reorganised away/);
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['PAYMENT_FAILED'],
  );
  t.like(reports(actions)[0], { status: 'FAILED', step: null });
});

test('the bounded wait: no new fact within SETTLEMENT_WAIT_MS and the attestation held, the fulfilment is sent once more', (t) => {
  const [waiting, actions] = send(settledByUs(), retraction());
  const wait = settlementWaitEvent(actions);
  t.true(waiting.can(wait));
  const [snapshot, resent] = send(waiting, wait);
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_SETTLEMENT' }, 'still waiting for the chain');
  t.deepEqual(only(resent, 'fulfilIntent'), { paymentId: 'pay_live', attempt: 2, intentHash: INTENT_HASH, paymentProof: PAYMENT_PROOF, chain: LIVE_CHAIN });
  t.deepEqual(emitted(resent), []);
  t.deepEqual(paramsOf(resent, 'cancelIntent'), []);

  // Mined: the fact settles it, not the outcome. Failed (the original landed first, or the intent is gone): shown, still waiting.
  t.true(snapshot.can(fulfilOutcome('MINED', '2026-11-23T12:45:00.000Z')), 'taken quietly: the relayer’s tell is not refused');
  const [mined, minedActions] = send(snapshot, fulfilOutcome('MINED', '2026-11-23T12:45:00.000Z'));
  t.deepEqual(mined.value, { CREATED: 'AWAITING_SETTLEMENT' });
  t.deepEqual(minedActions, []);
  const [failed, failedActions] = send(snapshot, fulfilOutcome('FAILED', '2026-11-23T12:45:00.000Z', 'execution reverted'));
  t.deepEqual(failed.value, { CREATED: 'AWAITING_SETTLEMENT' });
  t.like(context(failed), { errorCode: 'FULFILL_INTENT_FAILED', paymentProof: null });
  t.deepEqual(emitted(failedActions), []);
  t.deepEqual(paramsOf(failedActions, 'cancelIntent'), []);
  t.is(send(failed, reindexed('2026-11-23T12:46:00.000Z'))[0].value, 'SETTLED');
});

test('the bounded wait without an attestation (a release by the maker): nothing to send, the attempt keeps waiting for the chain', (t) => {
  const [waiting, actions] = send(settledByRelease(), retraction());
  const wait = settlementWaitEvent(actions);
  t.false(waiting.can(wait));
  const [snapshot, fired] = send(waiting, wait);
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_SETTLEMENT' });
  t.deepEqual(fired, []);
  t.is(send(snapshot, reindexed())[0].value, 'SETTLED');
});

test('AWAITING_SETTLEMENT takes no cancel, proof, mark-sent or simulation: the money moved once', (t) => {
  const [waiting] = send(settledByUs(), retraction());
  t.false(waiting.can(cancel()));
  t.false(waiting.can(cancel('2026-11-23T12:50:00.000Z', 'REPLACED')));
  t.false(waiting.can(submitProof()));
  t.false(waiting.can(markSent()));
  t.false(waiting.can(simulate()));
});

test('a snapshot written before retractions were handled (no retractedFactIds) settles, retracts and settles again', (t) => {
  const settled = settledByUs();
  const stored = fromJson<Parameters<typeof paymentMachine.resolveState>[0]>(toJson(paymentMachine.getPersistedSnapshot(settled)));
  delete (stored.context as Partial<PaymentContext>).retractedFactIds;
  const restored = paymentMachine.resolveState(stored);
  const [waiting] = send(restored, retraction());
  t.deepEqual(waiting.value, { CREATED: 'AWAITING_SETTLEMENT' });
  t.deepEqual(context(waiting).retractedFactIds, ['fact_fulfil_1']);
  t.is(send(waiting, reindexed())[0].value, 'SETTLED');

  const awaitingOld = paymentMachine.resolveState({
    ...fromJson<Parameters<typeof paymentMachine.resolveState>[0]>(toJson(paymentMachine.getPersistedSnapshot(awaitingPayment()))),
  });
  delete (awaitingOld.context as Partial<PaymentContext>).retractedFactIds;
  t.is(send(awaitingOld, fulfilledFact())[0].value, 'SETTLED');
});

test("a snapshot written before the intent's expiry was kept (no expiryTime) still takes a proof, and asks for it with the expiry unknown", (t) => {
  const stored = fromJson<Parameters<typeof paymentMachine.resolveState>[0]>(toJson(paymentMachine.getPersistedSnapshot(awaitingPayment())));
  delete (stored.context as Partial<PaymentContext>).expiryTime;
  const [snapshot, actions] = send(paymentMachine.resolveState(stored), submitProof());
  t.deepEqual(snapshot.value, { CREATED: 'VERIFYING' });
  // The effect reads the expiry from the intent on chain (actors/payments/payment-effects.ts).
  t.like(only(actions, 'verifyPayment'), { intent: { signalTimestamp: seconds('2026-11-23T12:00:28.000Z'), expiryTime: null }, chain: LIVE_CHAIN });
});
