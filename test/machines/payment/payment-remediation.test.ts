/**
 * What the attempt tells the action it carries out (payment-remediation.ts), case by case: each
 * outcome document 1 names for recreate (REOPEN), extend (EXTEND) and fulfil from a receipt
 * (SELLER_RECEIPT), asserted as the exact tell to the action. Driven with xstate's pure
 * transitions; the kind's refusals through paymentRefusal.
 */
import test from 'ava';
import type { AnyEventObject } from 'xstate';
import { paymentRefusal } from '../../../actors/kinds/payment-kind.js';
import {
  EXTEND_PURPOSE,
  FULFIL_PURPOSE,
  SIGNAL_PURPOSE,
  type PaymentEvent,
  type PaymentHex,
  type TransactionOutcomeMessage,
} from '../../../machines/payment/index.js';
import {
  DESTINATION,
  INTENT_HASH,
  LIVE_CHAIN,
  livePaymentInput,
  OTHER_INTENT_HASH,
  PAYMENT_CREATED_AT,
  QUOTE_EXPIRES_AT,
} from '../../support/payment-input.js';
import { context, create, delayed, only, paramsOf, run, send, statusOf, types, type Action, type Snapshot } from '../../support/payment-steps.js';

type Tell = { to: { kind: string; id: string }; event: Record<string, unknown> };

const SIGNAL_TX: PaymentHex = '0x5151515151515151515151515151515151515151515151515151515151515151';
const FULFIL_TX: PaymentHex = '0xf0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0';
const EXTEND_TX: PaymentHex = '0xe7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7';

const ms = (iso: string) => Date.parse(iso);
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const toAction = (actions: Action[]) => (paramsOf(actions, 'tell') as unknown as Tell[]).filter((tell) => tell.to.kind === 'action');

/** The one tell to the action; throws when there is not exactly one. */
function toldAction(actions: Action[]): Tell {
  const told = toAction(actions);
  if (told.length !== 1) throw new Error(`expected one tell to the action, got ${JSON.stringify(told)}`);
  return told[0]!;
}

function outcome(
  purpose: string,
  status: TransactionOutcomeMessage['outcome']['status'],
  at: string,
  reason: string | null = null,
  hash: string | null = null,
) {
  return { type: 'TRANSACTION_OUTCOME', transactionId: `tx_${purpose}`, purpose, outcome: { status, hash, reason, at: ms(at) } } satisfies PaymentEvent;
}

/** The intent's signal as the local chain records it: a day before it expires. */
const SIGNALLED_AT = '2026-11-23T12:00:28.000Z';
const INTENT_EXPIRY_S = seconds('2026-11-24T12:00:28.000Z');
const intentSignaled = (at: string, intentHash: PaymentHex = INTENT_HASH): PaymentEvent => ({
  type: 'INTENT_SIGNALED',
  intentHash,
  signalTimestamp: seconds(SIGNALLED_AT),
  expiryTime: INTENT_EXPIRY_S,
  at,
});

const awaitingPayment = () =>
  run(create()[0], outcome(SIGNAL_PURPOSE, 'MINED', '2026-11-23T12:00:30.000Z', null, SIGNAL_TX), intentSignaled('2026-11-23T12:00:40.000Z'))[0];

/** The window timer of the creation: the event the runtime delivers when it fires. */
const WINDOW_EVENT = delayed(create()[1])[0]!.event as AnyEventObject;

// --- extend ------------------------------------------------------------------------

const EXTEND_AT = '2026-11-23T12:30:00.000Z';
const extend = (at = EXTEND_AT, actionId = 'act_extend'): PaymentEvent => ({ type: 'EXTEND', actionId, at });
const extending = () => send(awaitingPayment(), extend())[0];
const extensionOutcome = (status: TransactionOutcomeMessage['outcome']['status'], reason: string | null = null) =>
  outcome(EXTEND_PURPOSE, status, '2026-11-23T12:31:00.000Z', reason, status === 'MINED' ? EXTEND_TX : null);

const EXTEND_PARAMS = {
  paymentId: 'pay_live',
  actionId: 'act_extend',
  intentHash: INTENT_HASH,
  chain: LIVE_CHAIN,
  reopenings: 0,
  createdAt: PAYMENT_CREATED_AT,
  quoteExpiresAt: QUOTE_EXPIRES_AT,
};

test('EXTEND while awaiting payment: extendIntent asked with the attempt’s intent, creation and window; nothing told yet', (t) => {
  const [snapshot, actions] = send(awaitingPayment(), extend());
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_PAYMENT' });
  t.deepEqual(only(actions, 'extendIntent'), EXTEND_PARAMS);
  t.deepEqual(context(snapshot).remediation, { actionId: 'act_extend', actionName: 'EXTEND' });
  t.deepEqual(toAction(actions), []);
});

test('the extension mined: readExtension is asked, and the action is not told yet', (t) => {
  const [snapshot, actions] = send(extending(), extensionOutcome('MINED'));
  t.deepEqual(only(actions, 'readExtension'), EXTEND_PARAMS);
  t.deepEqual(toAction(actions), []);
  t.deepEqual(context(snapshot).remediation, { actionId: 'act_extend', actionName: 'EXTEND' });
});

const revertedWith = (code: string, message: string) => ({
  to: { kind: 'action', id: 'act_extend' },
  event: { type: 'ACTION_FAILED', code, message, at: '2026-11-23T12:31:00.000Z' },
});

test('the extension reverted with IntentLifetimeExceeded(…): FIVE_DAY_LIFETIME_EXCEEDED', (t) => {
  const reason = 'IntentLifetimeExceeded(1795000000, 1795432000)';
  const [snapshot, actions] = send(extending(), extensionOutcome('FAILED', reason));
  t.deepEqual(toldAction(actions), revertedWith('FIVE_DAY_LIFETIME_EXCEEDED', `the extension transaction ended FAILED: ${reason}`));
  t.is(context(snapshot).remediation, null, 'the action is told once and forgotten');
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_PAYMENT' }, 'the attempt still awaits the customer');
});

test('the extension reverted with ExtensionFeeNotPayable(…): INSUFFICIENT_EXTENSION_TOKEN_BALANCE', (t) => {
  const reason = 'ExtensionFeeNotPayable(0x6a4d1a0000000000000000000000000000000006, 1000000)';
  const [, actions] = send(extending(), extensionOutcome('FAILED', reason));
  t.deepEqual(toldAction(actions), revertedWith('INSUFFICIENT_EXTENSION_TOKEN_BALANCE', `the extension transaction ended FAILED: ${reason}`));
});

test('the extension reverted for any other reason, none, or dropped: INTENT_EXTENSION_TRANSACTION_REVERTED', (t) => {
  const cases: Array<[TransactionOutcomeMessage['outcome']['status'], string | null, string]> = [
    ['FAILED', 'Panic(17)', 'the extension transaction ended FAILED: Panic(17)'],
    ['FAILED', 'execution reverted', 'the extension transaction ended FAILED: execution reverted'],
    ['FAILED', null, 'the extension transaction ended FAILED'],
    // A name the code table knows, but the transaction was dropped, not reverted: nothing says why.
    ['DROPPED', 'IntentLifetimeExceeded(1, 2)', 'the extension transaction ended DROPPED: IntentLifetimeExceeded(1, 2)'],
  ];
  for (const [status, reason, message] of cases) {
    const [, actions] = send(extending(), extensionOutcome(status, reason));
    t.deepEqual(toldAction(actions), revertedWith('INTENT_EXTENSION_TRANSACTION_REVERTED', message), `${status} ${reason}`);
  }
});

test('EXTENSION_REFUSED from the effect tells the action its code and message as given', (t) => {
  const refused: PaymentEvent = { type: 'EXTENSION_REFUSED', code: 'UNSUPPORTED_INTENT_GUARDIAN', message: 'no guardian', at: '2026-11-23T12:30:02.000Z' };
  const [snapshot, actions] = send(extending(), refused);
  t.deepEqual(toldAction(actions), {
    to: { kind: 'action', id: 'act_extend' },
    event: { type: 'ACTION_FAILED', code: 'UNSUPPORTED_INTENT_GUARDIAN', message: 'no guardian', at: '2026-11-23T12:30:02.000Z' },
  });
  t.is(context(snapshot).remediation, null);
});

test('INTENT_EXTENDED while awaiting payment: the window moves 24 hours and its timer is set again to the new end; ACTION_SUCCEEDED with it', (t) => {
  const extendedAt = '2026-11-23T12:31:10.000Z';
  const [snapshot, actions] = run(extending(), extensionOutcome('MINED'), { type: 'INTENT_EXTENDED', expiryTime: INTENT_EXPIRY_S + 86_400, at: extendedAt });
  const newEnd = '2026-11-24T13:00:00.000Z';
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_PAYMENT' });
  t.like(context(snapshot), { quoteExpiresAt: newEnd, expiryTime: INTENT_EXPIRY_S + 86_400, remediation: null });
  t.deepEqual(toldAction(actions), {
    to: { kind: 'action', id: 'act_extend' },
    event: { type: 'ACTION_SUCCEEDED', result: { confirmedExpiryTime: newEnd }, at: extendedAt },
  });
  // CREATED entered again: the first window's timer cancelled, then raised again under its id for what is left of the new window.
  const timers = delayed(actions);
  t.is(timers.length, 1);
  t.is(timers[0]!.delay, ms(newEnd) - ms(extendedAt));
  const timerId = (timers[0] as unknown as { id: string }).id;
  t.deepEqual(paramsOf(actions, 'xstate.cancel'), [{ sendId: timerId }]);
  t.true(types(actions).indexOf('xstate.cancel') < types(actions).indexOf('xstate.raise'));
  // When the new timer fires, the attempt expires at the new end.
  const [expired] = send(snapshot, timers[0]!.event);
  t.is(statusOf(expired), 'EXPIRED');
  t.is(context(expired).completedAt, newEnd);
});

test('INTENT_EXTENDED with the chain’s expiry short of 24 hours more: the window stops at the intent’s expiry', (t) => {
  const extendedAt = '2026-11-23T12:31:10.000Z';
  const onChain = '2026-11-24T12:30:00.000Z';
  const [snapshot, actions] = send(extending(), { type: 'INTENT_EXTENDED', expiryTime: seconds(onChain), at: extendedAt });
  t.is(context(snapshot).quoteExpiresAt, onChain);
  t.deepEqual(toldAction(actions).event, { type: 'ACTION_SUCCEEDED', result: { confirmedExpiryTime: onChain }, at: extendedAt });
  t.is(delayed(actions)[0]!.delay, ms(onChain) - ms(extendedAt));
});

test('the window closing while an extension is pending: EXPIRED, and the action told INTENT_ALREADY_EXPIRED', (t) => {
  const [snapshot, actions] = send(extending(), WINDOW_EVENT);
  t.is(statusOf(snapshot), 'EXPIRED');
  t.deepEqual(toldAction(actions), {
    to: { kind: 'action', id: 'act_extend' },
    event: { type: 'ACTION_FAILED', code: 'INTENT_ALREADY_EXPIRED', message: 'the attempt expired before its extension was confirmed', at: QUOTE_EXPIRES_AT },
  });
  // The extension mining afterwards is taken and tells nothing more.
  const [, late] = send(snapshot, extensionOutcome('MINED'));
  t.deepEqual(toAction(late), []);
  t.deepEqual(paramsOf(late, 'readExtension'), []);
});

test('the customer cancelling while an extension is pending: the action told PAYMENT_NOT_OPEN', (t) => {
  const [snapshot, actions] = send(extending(), { type: 'CANCEL', reason: 'CUSTOMER', at: '2026-11-23T12:30:30.000Z' });
  t.is(statusOf(snapshot), 'CANCELLED');
  t.deepEqual(toldAction(actions), {
    to: { kind: 'action', id: 'act_extend' },
    event: {
      type: 'ACTION_FAILED',
      code: 'PAYMENT_NOT_OPEN',
      message: 'the attempt ended CANCELLED before its extension was confirmed',
      at: '2026-11-23T12:30:30.000Z',
    },
  });
});

// --- recreate ----------------------------------------------------------------------

const REOPEN_AT = '2026-11-23T14:00:00.000Z';
const cancelled = () => send(awaitingPayment(), { type: 'CANCEL', reason: 'CUSTOMER', at: '2026-11-23T12:02:00.000Z' })[0];
const reopen = (actionId = 'act_recreate'): PaymentEvent => ({ type: 'REOPEN', actionId, at: REOPEN_AT });
const reopening = () => send(cancelled(), reopen())[0];

test('REOPEN: a new signal under its own id and a fresh window; a signalled intent tells ACTION_SUCCEEDED with its hash', (t) => {
  const [snapshot, actions] = send(cancelled(), reopen());
  t.deepEqual(snapshot.value, { CREATED: 'SIGNALLING' });
  t.is(only(actions, 'signalIntent').transactionId, 'pay_live-signal-1');
  t.like(context(snapshot), { railIdentifier: null, quoteExpiresAt: '2026-11-23T15:00:00.000Z', reopenings: 1 });
  const [live, signalled] = run(
    snapshot,
    outcome(SIGNAL_PURPOSE, 'MINED', '2026-11-23T14:00:30.000Z', null, SIGNAL_TX),
    intentSignaled('2026-11-23T14:00:40.000Z', OTHER_INTENT_HASH),
  );
  t.deepEqual(toldAction(signalled), {
    to: { kind: 'action', id: 'act_recreate' },
    event: { type: 'ACTION_SUCCEEDED', result: { intentHash: OTHER_INTENT_HASH }, at: '2026-11-23T14:00:40.000Z' },
  });
  t.like(context(live), { railIdentifier: OTHER_INTENT_HASH, remediation: null });
});

test('a reopening whose signal does not mine: FAILED again, and the action told DISPATCH_FAILED', (t) => {
  const [snapshot, actions] = send(reopening(), outcome(SIGNAL_PURPOSE, 'FAILED', '2026-11-23T14:00:30.000Z', 'InsufficientDepositLiquidity()'));
  t.is(statusOf(snapshot), 'FAILED');
  t.deepEqual(toldAction(actions), {
    to: { kind: 'action', id: 'act_recreate' },
    event: {
      type: 'ACTION_FAILED',
      code: 'DISPATCH_FAILED',
      message: 'the attempt could not be started on chain: signalIntent ended FAILED (InsufficientDepositLiquidity())',
      at: '2026-11-23T14:00:30.000Z',
    },
  });
  t.is(context(snapshot).remediation, null);
});

test('a reopened attempt cancelled before its new intent is read: the action told INTENT_NOT_LIVE', (t) => {
  const cancelAt = '2026-11-23T14:00:35.000Z';
  const [snapshot, actions] = run(reopening(), outcome(SIGNAL_PURPOSE, 'MINED', '2026-11-23T14:00:30.000Z', null, SIGNAL_TX), {
    type: 'CANCEL',
    reason: 'CUSTOMER',
    at: cancelAt,
  });
  t.is(statusOf(snapshot), 'CANCELLED');
  t.deepEqual(toldAction(actions), {
    to: { kind: 'action', id: 'act_recreate' },
    event: {
      type: 'ACTION_FAILED',
      code: 'INTENT_NOT_LIVE',
      message: 'the reopened attempt was not live when checked: the attempt ended CANCELLED',
      at: cancelAt,
    },
  });
});

// --- fulfil from a receipt -----------------------------------------------------------

const RECEIPT_AT = '2026-11-23T12:20:00.000Z';
const receipt = (): PaymentEvent => ({ type: 'SELLER_RECEIPT', actionId: 'act_fulfil', txId: 'venmo_4411', at: RECEIPT_AT });
const PAYMENT_PROOF: PaymentHex = '0xa77e57a77e57';
const fulfilling = () => run(awaitingPayment(), receipt(), { type: 'PAYMENT_VERIFIED', paymentProof: PAYMENT_PROOF, at: '2026-11-23T12:21:00.000Z' })[0];

test('SELLER_RECEIPT: the receipt id goes to the seller path with the intent; nothing told yet', (t) => {
  const [snapshot, actions] = send(awaitingPayment(), receipt());
  t.deepEqual(snapshot.value, { CREATED: 'VERIFYING' });
  t.like(only(actions, 'verifyPayment'), { sellerTxId: 'venmo_4411', proof: null, intent: { intentHash: INTENT_HASH } });
  t.deepEqual(toAction(actions), []);
});

test('a receipt the seller path rejects: REMEDIATION_FAILED with its message, and the attempt awaits payment again', (t) => {
  const rejectedAt = '2026-11-23T12:21:00.000Z';
  const [snapshot, actions] = send(send(awaitingPayment(), receipt())[0], {
    type: 'VERIFICATION_REJECTED',
    code: 'PAYMENT_NOT_FOUND',
    message: 'no payment venmo_4411 to the recipient',
    at: rejectedAt,
  });
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_PAYMENT' });
  t.deepEqual(toldAction(actions), {
    to: { kind: 'action', id: 'act_fulfil' },
    event: {
      type: 'ACTION_FAILED',
      code: 'REMEDIATION_FAILED',
      message: 'the receipt id could not be verified: no payment venmo_4411 to the recipient',
      at: rejectedAt,
    },
  });
  t.like(context(snapshot), { remediation: null, sellerReceipt: null });
  t.true(snapshot.can({ type: 'SELLER_RECEIPT', actionId: 'act_fulfil_2', txId: 'venmo_4412', at: rejectedAt }), 'a new request can try again');
});

test('a fulfilment from the receipt that does not mine: FULFILL_FAILED, and the attempt awaits payment again', (t) => {
  const [snapshot, actions] = send(fulfilling(), outcome(FULFIL_PURPOSE, 'FAILED', '2026-11-23T12:22:00.000Z', 'execution reverted'));
  t.deepEqual(snapshot.value, { CREATED: 'AWAITING_PAYMENT' });
  t.deepEqual(toldAction(actions), {
    to: { kind: 'action', id: 'act_fulfil' },
    event: {
      type: 'ACTION_FAILED',
      code: 'FULFILL_FAILED',
      message: 'the settlement transaction ended FAILED: execution reverted',
      at: '2026-11-23T12:22:00.000Z',
    },
  });
});

test('a fulfilment from the receipt that does not mine after the window closed: EXPIRED, and still FULFILL_FAILED', (t) => {
  const [snapshot, actions] = send(fulfilling(), outcome(FULFIL_PURPOSE, 'FAILED', '2026-11-23T13:30:00.000Z', 'execution reverted'));
  t.is(snapshot.value, 'EXPIRED');
  t.like(toldAction(actions), {
    to: { kind: 'action', id: 'act_fulfil' },
    event: { type: 'ACTION_FAILED', code: 'FULFILL_FAILED', message: 'the fulfilment transaction ended FAILED: execution reverted' },
  });
});

test('the settlement after a receipt: ACTION_SUCCEEDED with the fulfilment’s transaction id and hash', (t) => {
  const start = fulfilling();
  const attempt = context(start).fulfilAttempts;
  const settledAt = '2026-11-23T12:23:00.000Z';
  const [snapshot, actions] = run(start, outcome(FULFIL_PURPOSE, 'MINED', '2026-11-23T12:22:30.000Z', null, FULFIL_TX), {
    type: 'CHAIN_FACT',
    fact: {
      id: 'fact_fulfil_1',
      transactionHash: FULFIL_TX,
      blockTimestamp: String(seconds(settledAt)),
      intentFulfilled: { intentHash: INTENT_HASH, amount: livePaymentInput().price.netUsdc.toString(), fundsTransferredTo: DESTINATION },
    },
  });
  t.is(statusOf(snapshot), 'SETTLED');
  t.deepEqual(toldAction(actions), {
    to: { kind: 'action', id: 'act_fulfil' },
    event: { type: 'ACTION_SUCCEEDED', result: { dispatchAttemptId: `pay_live-fulfil-${attempt}`, fulfillTxHash: FULFIL_TX }, at: settledAt },
  });
  t.is(attempt, 1);
});

// --- one action at a time, and late tells ---------------------------------------------

test('a second REOPEN or EXTEND while one is carried out: the kind refuses it ACTION_IN_PROGRESS, and the machine does not take it', (t) => {
  const cases: Array<[Snapshot, PaymentEvent, string]> = [
    [extending(), extend('2026-11-23T12:35:00.000Z', 'act_extend_2'), 'payment pay_live is carrying out action act_extend (EXTEND)'],
    [reopening(), reopen('act_recreate_2'), 'payment pay_live is carrying out action act_recreate (RECREATE)'],
    [extending(), receipt(), 'payment pay_live is carrying out action act_extend (EXTEND)'],
  ];
  for (const [snapshot, event, message] of cases) {
    t.deepEqual(paymentRefusal(snapshot, event), { code: 'ACTION_IN_PROGRESS', message });
    t.false(snapshot.can(event));
  }
  // With nothing under way, the same steps are taken.
  t.is(paymentRefusal(awaitingPayment(), extend()), null);
  t.is(paymentRefusal(cancelled(), reopen()), null);
});

test('a MESSAGE_REFUSED for a tell to an action that ended is taken quietly; one from an order is not taken', (t) => {
  const refused = (kind: string): PaymentEvent => ({
    type: 'MESSAGE_REFUSED',
    to: { kind, id: `${kind}_1` },
    event: { type: 'ACTION_SUCCEEDED' },
    code: 'EVENT_NOT_ACCEPTED',
    message: 'final',
  });
  for (const snapshot of [extending(), cancelled(), send(extending(), WINDOW_EVENT)[0]]) {
    t.true(snapshot.can(refused('action')));
    const [after, actions] = send(snapshot, refused('action'));
    t.deepEqual(after.value, snapshot.value);
    t.deepEqual(after.context, snapshot.context);
    t.deepEqual(toAction(actions), []);
    t.false(snapshot.can(refused('order')));
  }
});
