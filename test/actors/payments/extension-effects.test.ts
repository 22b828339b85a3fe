/**
 * The extension's effects against a stand-in chain and relayer: `extendIntent` reads the intent
 * and what its guardian can pay, and refuses with document 1's code before anything is sent
 * (EXTENSION_REFUSED), or has the relayer send the guardian's extension under an id stable
 * across runs; `readExtension` reports the new expiry, or the intent gone.
 */
import test from 'ava';
import { paymentEffects, type IntentPort, type PaymentEffectDependencies } from '../../../actors/payments/index.js';
import type { ExtensionReadiness, IntentOnChain } from '../../../actors/adapters/chain/intent-port.js';
import { EXTEND_PURPOSE, type PaymentChain, type PaymentHex } from '../../../machines/payment/index.js';
import { recordingEffectContext } from '../../support/effect-context.js';
import { INTENT_HASH, LIVE_CHAIN, PAYMENT_CREATED_AT, QUOTE_EXPIRES_AT } from '../../support/payment-input.js';

const DAY_S = 86_400;
const GUARDIAN: PaymentHex = '0x6a4d1a0000000000000000000000000000000006';
const EXTEND_DATA: PaymentHex = '0xe7e7e7e7';
/** The intent's signal, 28 seconds after the attempt was created; on the local chain it expires a day later. */
const SIGNALLED_S = Date.parse(PAYMENT_CREATED_AT) / 1000 + 28;
/** When the effect runs: half an hour into the attempt's hour-long window. */
const NOW = Date.parse('2026-11-23T12:30:00.000Z');

const liveIntent = (overrides: Partial<IntentOnChain> = {}): IntentOnChain => ({
  timestamp: SIGNALLED_S,
  expiryTime: SIGNALLED_S + DAY_S,
  guardian: GUARDIAN,
  ...overrides,
});
const readyGuardian = (overrides: Partial<ExtensionReadiness> = {}): ExtensionReadiness => ({
  from: GUARDIAN,
  token: '0x70c3000000000000000000000000000000000070',
  fee: 1_000_000n,
  balance: 5_000_000n,
  allowance: 2n ** 255n,
  ...overrides,
});

type Sent = { id: string; request: Record<string, unknown> };

/** The effects over a chain holding `intent` (null: ended) whose guardian stands as `readiness` says. */
function effectsOn(intent: IntentOnChain | null, readiness: ExtensionReadiness = readyGuardian()) {
  const sent: Sent[] = [];
  const extendCalls: Array<{ chain: PaymentChain; intentHash: PaymentHex; additionalSeconds: number }> = [];
  const intents: Partial<IntentPort> = {
    wallets: [GUARDIAN],
    intentOnChain: async () => intent,
    extensionReadiness: async () => readiness,
    extendCall: (chain, intentHash, additionalSeconds) => {
      extendCalls.push({ chain, intentHash, additionalSeconds });
      return { to: LIVE_CHAIN.orchestrator, data: EXTEND_DATA };
    },
  };
  const relayer = {
    send: async (id: string, request: Record<string, unknown>) => {
      sent.push({ id, request });
      return {};
    },
  };
  const deps = { intents, relayer, watch: async () => {} } as unknown as PaymentEffectDependencies;
  return { effects: paymentEffects(deps), sent, extendCalls };
}

const extendParams = (overrides: Partial<{ createdAt: string; quoteExpiresAt: string; intentHash: string | null }> = {}) => ({
  paymentId: 'pay_live',
  actionId: 'act_extend_1',
  intentHash: INTENT_HASH as string | null,
  chain: LIVE_CHAIN,
  reopenings: 0,
  createdAt: PAYMENT_CREATED_AT,
  quoteExpiresAt: QUOTE_EXPIRES_AT,
  ...overrides,
});

const contextAt = (now = NOW) => recordingEffectContext('payment', 'pay_live', { turn: 7, at: NOW, now });

/** Runs extendIntent and returns the one refusal it reported, checking nothing reached the chain. */
async function refusal(
  t: import('ava').ExecutionContext,
  intent: IntentOnChain | null,
  options: { readiness?: ExtensionReadiness; now?: number; params?: Parameters<typeof extendParams>[0] } = {},
) {
  const { effects, sent, extendCalls } = effectsOn(intent, options.readiness);
  const { context, reports, asks } = contextAt(options.now);
  await effects.extendIntent!(extendParams(options.params), context);
  t.deepEqual(sent, [], 'no transaction is sent');
  t.deepEqual(extendCalls, [], 'no extension call is even prepared');
  t.is(reports.length, 1);
  t.is(asks[0]?.messageId, 'payment:pay_live:7:0:report');
  const report = reports[0] as { type: string; code: string; message: string; at: string };
  t.is(report.type, 'EXTENSION_REFUSED');
  t.is(report.at, new Date(options.now ?? NOW).toISOString());
  return report;
}

test('the intent gone from the chain (intentOnChain null): PAYMENT_NOT_OPEN', async (t) => {
  const report = await refusal(t, null);
  t.deepEqual(report, { type: 'EXTENSION_REFUSED', code: 'PAYMENT_NOT_OPEN', message: 'the intent has ended on chain', at: new Date(NOW).toISOString() });
});

test('an attempt with no intent hash: PAYMENT_NOT_OPEN without reading the chain', async (t) => {
  const report = await refusal(t, liveIntent(), { params: { intentHash: null } });
  t.is(report.code, 'PAYMENT_NOT_OPEN');
});

test('the actor’s time at or past the intent’s expiry: INTENT_ALREADY_EXPIRED', async (t) => {
  const expiry = SIGNALLED_S + DAY_S;
  t.is((await refusal(t, liveIntent(), { now: expiry * 1000 })).code, 'INTENT_ALREADY_EXPIRED');
  t.is((await refusal(t, liveIntent(), { now: expiry * 1000 + 60_000 })).code, 'INTENT_ALREADY_EXPIRED');
});

test('a second before the intent’s expiry it is still extended', async (t) => {
  const { effects, sent } = effectsOn(liveIntent());
  const { context, reports } = contextAt((SIGNALLED_S + DAY_S - 1) * 1000);
  await effects.extendIntent!(extendParams(), context);
  t.is(sent.length, 1);
  t.deepEqual(reports, []);
});

test('24 more hours past 5 days from the intent’s signal: FIVE_DAY_LIFETIME_EXCEEDED', async (t) => {
  // Already extended to 4 days and 1 second: one more day passes the orchestrator's 5 days by a second.
  const report = await refusal(t, liveIntent({ expiryTime: SIGNALLED_S + 4 * DAY_S + 1 }));
  t.is(report.code, 'FIVE_DAY_LIFETIME_EXCEEDED');
  t.is(report.message, '24 more hours would pass the attempt’s 5-day lifetime');
});

test('exactly 5 days from the intent’s signal is still allowed', async (t) => {
  const { effects, sent } = effectsOn(liveIntent({ expiryTime: SIGNALLED_S + 4 * DAY_S }));
  const { context, reports } = contextAt();
  await effects.extendIntent!(extendParams(), context);
  t.is(sent.length, 1);
  t.deepEqual(reports, []);
});

test('the window 24 hours later past 5 days from the attempt’s creation: FIVE_DAY_LIFETIME_EXCEEDED, even with the intent young', async (t) => {
  // A reopened attempt: its intent is a day old, the attempt itself was created 4 days before its window ends.
  const report = await refusal(t, liveIntent(), { params: { createdAt: '2026-11-19T12:59:59.000Z' } });
  t.is(report.code, 'FIVE_DAY_LIFETIME_EXCEEDED');
  const { effects, sent } = effectsOn(liveIntent());
  await effects.extendIntent!(extendParams({ createdAt: '2026-11-19T13:00:00.000Z' }), contextAt().context);
  t.is(sent.length, 1, 'a window ending exactly 5 days after creation is extended');
});

test('an intent signalled without a guardian: UNSUPPORTED_INTENT_GUARDIAN', async (t) => {
  const report = await refusal(t, liveIntent({ guardian: null }));
  t.is(report.code, 'UNSUPPORTED_INTENT_GUARDIAN');
});

test('a guardian whose key the relayer does not hold (readiness.from null): UNSUPPORTED_INTENT_GUARDIAN', async (t) => {
  const report = await refusal(t, liveIntent(), { readiness: readyGuardian({ from: null }) });
  t.is(report.code, 'UNSUPPORTED_INTENT_GUARDIAN');
});

test('the guardian’s fee-token balance below the fee: INSUFFICIENT_EXTENSION_TOKEN_BALANCE', async (t) => {
  const report = await refusal(t, liveIntent(), { readiness: readyGuardian({ balance: 999_999n }) });
  t.is(report.code, 'INSUFFICIENT_EXTENSION_TOKEN_BALANCE');
});

test('the guardian’s allowance to the orchestrator below the fee: INSUFFICIENT_EXTENSION_TOKEN_BALANCE', async (t) => {
  const report = await refusal(t, liveIntent(), { readiness: readyGuardian({ allowance: 999_999n }) });
  t.is(report.code, 'INSUFFICIENT_EXTENSION_TOKEN_BALANCE');
});

test('a free extension needs no balance', async (t) => {
  const { effects, sent } = effectsOn(liveIntent(), readyGuardian({ token: null, fee: 0n, balance: 0n, allowance: 0n }));
  await effects.extendIntent!(extendParams(), contextAt().context);
  t.is(sent.length, 1);
});

test('nothing in the way: the relayer sends the guardian’s 24-hour extension for the payment, under the same id on a second run', async (t) => {
  const { effects, sent, extendCalls } = effectsOn(liveIntent());
  const first = contextAt();
  await effects.extendIntent!(extendParams(), first.context);
  t.deepEqual(extendCalls, [{ chain: LIVE_CHAIN, intentHash: INTENT_HASH, additionalSeconds: DAY_S }]);
  t.deepEqual(sent, [
    {
      id: 'pay_live-extend-act_extend_1',
      request: {
        to: LIVE_CHAIN.orchestrator,
        data: EXTEND_DATA,
        value: 0n,
        purpose: EXTEND_PURPOSE,
        owner: { kind: 'payment', id: 'pay_live' },
        from: GUARDIAN,
      },
    },
  ]);
  t.is(EXTEND_PURPOSE, 'extendIntent');
  t.deepEqual(first.reports, [], 'the outcome of the transaction tells the payment, not the effect');

  await effects.extendIntent!(extendParams(), contextAt().context);
  t.is(sent.length, 2);
  t.deepEqual(sent[1], sent[0], 'a second run prepares the same transaction: the relayer answers it with the first');
});

test('readExtension: the intent still open reports INTENT_EXTENDED with its expiry on chain', async (t) => {
  const { effects } = effectsOn(liveIntent({ expiryTime: SIGNALLED_S + 2 * DAY_S }));
  const { context, reports, asks } = contextAt();
  await effects.readExtension!(extendParams(), context);
  t.deepEqual(reports, [{ type: 'INTENT_EXTENDED', expiryTime: SIGNALLED_S + 2 * DAY_S, at: new Date(NOW).toISOString() }]);
  t.deepEqual(asks[0]?.address, { kind: 'payment', id: 'pay_live' });
  t.is(asks[0]?.messageId, 'payment:pay_live:7:0:report');
});

test('readExtension: the intent gone reports EXTENSION_REFUSED PAYMENT_NOT_OPEN', async (t) => {
  const { effects, sent } = effectsOn(null);
  const { context, reports } = contextAt();
  await effects.readExtension!(extendParams(), context);
  t.deepEqual(reports, [
    {
      type: 'EXTENSION_REFUSED',
      code: 'PAYMENT_NOT_OPEN',
      message: 'the intent ended on chain before its extension was read',
      at: new Date(NOW).toISOString(),
    },
  ]);
  t.deepEqual(sent, []);
});
