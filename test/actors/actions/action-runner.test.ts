/**
 * The action kind's runAction effect against a recording context that stands in for the action
 * and its attempt: the claim (STARTED) before anything, the step handed to the attempt, what
 * each refusal of the attempt ends the action with, and message ids derived from the effect's,
 * so a second run repeats the first one's messages.
 */
import test from 'ava';
import { actionEffects } from '../../../actors/actions/action-runner.js';
import { CommandRejectedError } from '../../../actors/errors.js';
import { paymentView, type PaymentView } from '../../../actors/kinds/payment-kind.js';
import type { ActionName, RunActionParams } from '../../../machines/action/index.js';
import { DESTINATION, INTENT_HASH, livePaymentInput } from '../../support/payment-input.js';
import { create, run } from '../../support/payment-steps.js';
import { recordingEffectContext, type RecordedAsk } from '../../support/effect-context.js';

const NOW = Date.parse('2026-11-23T12:40:00.000Z');
const AT = new Date(NOW).toISOString();
const EFFECT_ID = 'action:act_1:2:0';
const FULFIL_TX = `0x${'f0'.repeat(32)}`;

const params = (actionName: ActionName): RunActionParams => ({
  actionId: 'act_1',
  actionName,
  orderId: 'ord_fixed',
  paymentId: 'pay_live',
  merchantId: 'mer_1',
  txId: actionName === 'FULFILL_SAR' ? 'venmo_4411' : null,
});

/** A live attempt, as its view reads, settled by the chain. */
function settledView(): PaymentView {
  const seconds = Math.floor(NOW / 1000);
  const [snapshot] = run(
    create()[0],
    {
      type: 'TRANSACTION_OUTCOME',
      transactionId: 'pay_live-signal',
      purpose: 'signalIntent',
      outcome: { status: 'MINED', hash: '0x51', reason: null, at: NOW },
    },
    { type: 'INTENT_SIGNALED', intentHash: INTENT_HASH, signalTimestamp: seconds, expiryTime: seconds + 86_400, at: AT },
    {
      type: 'CHAIN_FACT',
      fact: {
        id: 'fact_1',
        transactionHash: FULFIL_TX,
        blockTimestamp: String(seconds),
        intentFulfilled: { intentHash: INTENT_HASH, amount: livePaymentInput().price.netUsdc.toString(), fundsTransferredTo: DESTINATION },
      },
    },
  );
  return paymentView(snapshot);
}

type Answers = { started?: () => void; step?: () => void; payment?: PaymentView | null };

/**
 * The effect, with the action answering STARTED as `started` says and the attempt answering the
 * step as `step` says (each returns, or throws what the actor would); the asks kept in order.
 */
function runner(answers: Answers = {}) {
  const paymentReads: string[] = [];
  const effects = actionEffects({
    payment: async (paymentId) => {
      paymentReads.push(paymentId);
      return answers.payment ?? null;
    },
  });
  const { context, asks } = recordingEffectContext('action', 'act_1', {
    turn: 2,
    at: NOW,
    now: NOW,
    answer: (address, event) => {
      if (address.kind === 'action' && event.type === 'STARTED') answers.started?.();
      if (address.kind === 'payment') answers.step?.();
    },
  });
  return { run: (actionName: ActionName) => effects.runAction!(params(actionName), context), asks, paymentReads };
}

async function runWith(actionName: ActionName, answers: Answers = {}): Promise<{ asks: RecordedAsk[]; paymentReads: string[] }> {
  const { run, asks, paymentReads } = runner(answers);
  await run(actionName);
  return { asks, paymentReads };
}

const rejecting = (code: string, message: string) => () => {
  throw new CommandRejectedError(code, message);
};
const started = { address: { kind: 'action', id: 'act_1' }, event: { type: 'STARTED', at: AT }, messageId: `${EFFECT_ID}:started` };

test('claimed first, then the step handed to the attempt under ids derived from the effect’s', async (t) => {
  const steps: Array<[ActionName, Record<string, unknown>]> = [
    ['RECREATE', { type: 'REOPEN', actionId: 'act_1', at: AT }],
    ['EXTEND', { type: 'EXTEND', actionId: 'act_1', at: AT }],
    ['FULFILL_SAR', { type: 'SELLER_RECEIPT', actionId: 'act_1', txId: 'venmo_4411', at: AT }],
  ];
  for (const [actionName, step] of steps) {
    const { asks } = await runWith(actionName);
    t.deepEqual(asks, [started, { address: { kind: 'payment', id: 'pay_live' }, event: step, messageId: `${EFFECT_ID}:step` }], actionName);
  }
});

test('STARTED refused (the action ended before it was picked up): nothing is sent to the attempt', async (t) => {
  for (const actionName of ['RECREATE', 'EXTEND', 'FULFILL_SAR'] as const) {
    const { asks, paymentReads } = await runWith(actionName, { started: rejecting('EVENT_NOT_ACCEPTED', 'action act_1 is FAILED') });
    t.deepEqual(asks, [started], actionName);
    t.deepEqual(paymentReads, []);
  }
});

test('STARTED failing any other way is thrown, so the effect is retried', async (t) => {
  await t.throwsAsync(runWith('EXTEND', { started: rejecting('UNKNOWN_ACTOR', 'no action actor with id act_1') }), {
    message: 'no action actor with id act_1',
  });
  await t.throwsAsync(
    runWith('EXTEND', {
      started: () => {
        throw new Error('store unavailable');
      },
    }),
    { message: 'store unavailable' },
  );
});

test('EXTEND refused PAYMENT_NOT_OPEN by the attempt: ACTION_FAILED PAYMENT_NOT_OPEN with the refusal’s message', async (t) => {
  const message = 'payment pay_live is EXPIRED: it is no longer open';
  const { asks } = await runWith('EXTEND', { step: rejecting('PAYMENT_NOT_OPEN', message) });
  t.deepEqual(asks[2], {
    address: { kind: 'action', id: 'act_1' },
    event: { type: 'ACTION_FAILED', code: 'PAYMENT_NOT_OPEN', message, at: AT },
    messageId: `${EFFECT_ID}:report`,
  });
  t.is(asks.length, 3);
});

test('EXTEND refused any other way: REMEDIATION_FAILED with the refusal’s message', async (t) => {
  const message = 'payment pay_live is carrying out action act_0 (FULFILL_SAR)';
  const { asks } = await runWith('EXTEND', { step: rejecting('ACTION_IN_PROGRESS', message) });
  t.deepEqual(asks[2]?.event, { type: 'ACTION_FAILED', code: 'REMEDIATION_FAILED', message, at: AT });
});

test('RECREATE refused, whatever the code (PAYMENT_NOT_OPEN included): REMEDIATION_FAILED with the refusal’s message', async (t) => {
  const refusals: Array<[string, string]> = [
    ['PAYMENT_NOT_ELIGIBLE', 'payment pay_live is SETTLED: only an expired, cancelled or failed attempt is reopened'],
    ['RAIL_NOT_SUPPORTED', 'payment pay_live is not a live fiat attempt: remediation acts on live fiat attempts only'],
    ['PAYMENT_NOT_OPEN', 'payment pay_live is gone'],
  ];
  for (const [code, message] of refusals) {
    const { asks, paymentReads } = await runWith('RECREATE', { step: rejecting(code, message) });
    t.deepEqual(asks[2]?.event, { type: 'ACTION_FAILED', code: 'REMEDIATION_FAILED', message, at: AT }, code);
    t.deepEqual(paymentReads, [], 'only a fulfil reads the attempt after a refusal');
  }
});

test('FULFILL_SAR refused and the attempt SETTLED meanwhile: ACTION_SUCCEEDED with alreadyCompleted and its fulfilment', async (t) => {
  const view = settledView();
  t.is(view.status, 'SETTLED');
  const { asks, paymentReads } = await runWith('FULFILL_SAR', {
    step: rejecting('PAYMENT_NOT_OPEN', 'payment pay_live is SETTLED: it is no longer open'),
    payment: view,
  });
  t.deepEqual(paymentReads, ['pay_live']);
  t.deepEqual(asks[2], {
    address: { kind: 'action', id: 'act_1' },
    event: { type: 'ACTION_SUCCEEDED', result: { alreadyCompleted: true, fulfillTxHash: FULFIL_TX }, at: AT },
    messageId: `${EFFECT_ID}:report`,
  });
});

test('FULFILL_SAR refused with the attempt not settled (or gone): REMEDIATION_FAILED', async (t) => {
  const message = 'payment pay_live is VERIFYING: only an attempt awaiting the customer’s payment takes this action';
  for (const payment of [paymentView(create()[0]), null]) {
    const { asks } = await runWith('FULFILL_SAR', { step: rejecting('PAYMENT_NOT_OPEN', message), payment });
    t.deepEqual(asks[2]?.event, { type: 'ACTION_FAILED', code: 'REMEDIATION_FAILED', message, at: AT });
  }
});

test('the attempt failing to answer (not a refusal) is thrown, and nothing is reported', async (t) => {
  const { run, asks } = runner({
    step: () => {
      throw new Error('ask timed out');
    },
  });
  await t.throwsAsync(run('EXTEND'), { message: 'ask timed out' });
  t.deepEqual(
    asks.map((ask) => ask.event.type),
    ['STARTED', 'EXTEND'],
  );
});

test('a second run of the same effect repeats the first one’s messages, ids included: the actors take them as replays', async (t) => {
  const first = await runWith('EXTEND', { step: rejecting('PAYMENT_NOT_OPEN', 'gone') });
  const second = await runWith('EXTEND', { step: rejecting('PAYMENT_NOT_OPEN', 'gone') });
  t.deepEqual(second.asks, first.asks);
  t.deepEqual(
    first.asks.map((ask) => ask.messageId),
    [`${EFFECT_ID}:started`, `${EFFECT_ID}:step`, `${EFFECT_ID}:report`],
  );
});
