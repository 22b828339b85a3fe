import test from 'ava';
import { assign, setup } from 'xstate';
import { EFFECT_FAILED, PermanentEffectError, defineKind, type EffectContext, type EffectFailedEvent, type RetryPolicy } from '../../../actors/index.js';
import { paymentEffects } from '../../../actors/payments/payment-effects.js';
import { counterKind } from '../../support/counter-kind.js';
import { startTestSystem } from '../../support/test-node.js';

const POLICY: RetryPolicy = { baseMs: 1_000, maxBackoffMs: 4_000, maxAttempts: 10, maxAgeMs: 24 * 60 * 60 * 1000 };
const counter = (id: string) => ({ kind: 'counter', id });

test('an effect that fails for good is a dead letter after its first attempt, and the effects behind it run at once', async (t) => {
  const ran: string[] = [];
  let attempts = 0;
  const kind = counterKind(async (params) => {
    const { label } = params as { label: string };
    if (label === 'hopeless') {
      attempts++;
      throw new PermanentEffectError('the downstream will never take this', { cause: new Error('410 Gone') });
    }
    ran.push(label);
  });
  const { system } = await startTestSystem({ kinds: [kind], retryPolicy: POLICY });
  await system.askAt(counter('w'), { type: 'OPEN' });
  await system.askAt(counter('w'), { type: 'PROBE', label: 'hopeless' });
  await system.askAt(counter('w'), { type: 'PROBE', label: 'next' });
  await system.effectsIdle();

  t.is(attempts, 1, 'no retry ladder');
  t.deepEqual(ran, ['next'], 'nothing waited for a backoff');
  const { letters } = await system.deadLetters.list({ source: 'effect', limit: 10 });
  t.is(letters.length, 1);
  t.like(letters[0], { attempts: 1, error: { name: 'PermanentEffectError', message: 'the downstream will never take this' }, payload: { type: 'probe' } });
  t.deepEqual((await system.documents('counter').findOne({ _id: 'w' }))!.outbox, []);
});

/** An owner whose machine takes EFFECT_FAILED: it records each effect that failed for good. */
const ownerMachine = setup({
  types: {
    context: {} as { failed: Array<{ effect: string; code: string; message: string }> },
    events: {} as { type: 'START' } | { type: 'TRY' } | EffectFailedEvent,
  },
  actions: { attempt: () => {} },
}).createMachine({
  id: 'owner',
  context: { failed: [] },
  on: {
    TRY: { actions: 'attempt' },
    EFFECT_FAILED: {
      actions: assign({ failed: ({ context, event }) => [...context.failed, { effect: event.effect, code: event.code, message: event.message }] }),
    },
  },
});

test('an effect that fails for good reaches its owner’s machine as EFFECT_FAILED when the machine takes it', async (t) => {
  let attempts = 0;
  const ownerKind = defineKind({
    name: 'owner',
    machine: ownerMachine,
    machineVersion: 1,
    createdBy: ['START'],
    input: () => ({}),
    view: (snapshot) => ({ failed: (snapshot.context as { failed: unknown[] }).failed }),
    effects: {
      attempt: async () => {
        attempts++;
        throw new PermanentEffectError('no chain on this node', { code: 'CHAIN_UNAVAILABLE' });
      },
    },
  });
  const { system } = await startTestSystem({ kinds: [ownerKind], retryPolicy: POLICY });
  await system.askAt({ kind: 'owner', id: 'o1' }, { type: 'START' });
  await system.askAt({ kind: 'owner', id: 'o1' }, { type: 'TRY' });
  await system.effectsIdle();

  t.is(attempts, 1);
  t.is(EFFECT_FAILED, 'EFFECT_FAILED');
  const view = (await system.documents('owner').findOne({ _id: 'o1' }))!.view;
  t.deepEqual(view.failed, [{ effect: 'attempt', code: 'CHAIN_UNAVAILABLE', message: 'no chain on this node' }]);
  t.is(await system.deadLetters.count(), 0);
});

test('a live payment effect on a node with no chain fails for good instead of being retried for a day', async (t) => {
  const effects = paymentEffects(null);
  const context = {} as EffectContext;
  for (const name of ['signalIntent', 'readSignal', 'verifyPayment', 'fulfilIntent', 'checkTransfer'] as const) {
    await t.throwsAsync(effects[name]!({} as never, context), { instanceOf: PermanentEffectError }, name);
  }
});
