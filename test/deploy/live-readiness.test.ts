/**
 * A customer never waits on a side that cannot answer: with the attestation service or the
 * chain gone silent, a live payment is refused at once with LIVE_PAYMENTS_UNAVAILABLE and
 * the health check says why; sandbox payments, which lean on neither, go on.
 */
import test, { type ExecutionContext } from 'ava';
import { createLogger } from '../../actors/index.js';
import { LiveReadiness, type ReadinessProbe } from '../../deploy/live-readiness.js';
import { placeOrder, type PlacedOrder } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { untilOnClock } from '../support/real-time-poll.js';

const REFUSED = {
  success: false,
  message: 'Payments are unavailable right now; try again shortly',
  responseObject: null,
  statusCode: 503,
  errorCode: 'LIVE_PAYMENTS_UNAVAILABLE',
};

async function liveNode(t: ExecutionContext): Promise<{ gateway: TestGateway; live: PlacedOrder; sandbox: PlacedOrder }> {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, LOCAL_MAKERS: true });
  t.teardown(() => gateway.stop());
  const { liveKey, sandboxKey } = await gateway.createMerchant();
  const live = await placeOrder(gateway, liveKey, { requestedUsdcAmount: '20' });
  const sandbox = await placeOrder(gateway, sandboxKey, { requestedUsdcAmount: '20' });
  // Ready first: the seeded deposits are quoted, so what follows is the silence, not a node still starting.
  await untilOnClock(
    gateway.clock,
    () => live.customer('GET', '/quotes?rail=venmo'),
    (answer) => answer.status === 200 && answer.body.responseObject.platforms.length > 0,
    'the seeded deposits to be quoted',
  );
  t.is(gateway.node.livePayments!.reason(), null);
  return { gateway, live, sandbox };
}

/** Rounds of the probes until the node counts a side silent; a round begun before the side went quiet may still pass. */
async function silence(gateway: TestGateway): Promise<void> {
  for (let round = 0; round < 5 && gateway.node.livePayments!.reason() === null; round++) await gateway.node.livePayments!.refresh();
  if (gateway.node.livePayments!.reason() === null) throw new Error('no side counted silent after 5 rounds');
}

async function health(gateway: TestGateway): Promise<{ status: string; message: string }> {
  const answer = await gateway.request('GET', '/v1/health-check');
  return { status: (answer.body.responseObject as { status: string }).status, message: (answer.body as unknown as { message: string }).message };
}

test('with the attestation service silent, a live fiat payment is refused at once and the node is degraded; sandbox payments go on', async (t) => {
  const { gateway, live, sandbox } = await liveNode(t);
  await gateway.node.enclave!.stop();
  await silence(gateway);

  const asked = Date.now();
  const refused = await live.customer('POST', '/payments', { rail: 'venmo' });
  t.true(Date.now() - asked < 1_000, 'answered at once');
  t.is(refused.status, 503);
  t.deepEqual(refused.body, REFUSED);
  t.is(refused.headers.get('retry-after'), '5');
  t.is((await live.customer('GET', '/quotes?rail=venmo')).status, 503, 'no price is offered that cannot be paid');
  t.is((await gateway.request('GET', `/api/v1/orders/${live.id}`)).body.responseObject.currentPayment, null, 'no attempt was made');

  const report = await health(gateway);
  t.is(report.status, 'degraded');
  t.regex(report.message, /live payments are off: the attestation service does not answer/);

  t.is((await sandbox.customer('POST', '/payments', { rail: 'venmo' })).status, 201);
});

test('with the chain silent, a live payment is refused at once and the node is degraded', async (t) => {
  const { gateway, live } = await liveNode(t);
  await gateway.node.chain!.localChain!.stop();
  await silence(gateway);

  const asked = Date.now();
  const refused = await live.customer('POST', '/payments', { rail: 'venmo' });
  t.true(Date.now() - asked < 1_000, 'answered at once');
  t.deepEqual(refused.body, REFUSED);
  const report = await health(gateway);
  t.is(report.status, 'degraded');
  t.regex(report.message, /the chain does not answer/);
});

test('a side counts silent only after missing silentAfter rounds in a row, only for the rails it serves, and answers again at once', async (t) => {
  let chainAnswers = true;
  let attestationAnswers = true;
  const probes: ReadinessProbe[] = [
    { name: 'the chain', rails: ['fiat', 'crypto'], ask: async () => void (chainAnswers || (await new Promise(() => {}))) },
    {
      name: 'the attestation service',
      rails: ['fiat'],
      ask: async () => {
        if (!attestationAnswers) throw new Error('connection refused');
      },
    },
  ];
  const readiness = new LiveReadiness({ probes, deadlineMs: 20, everyMs: 60_000, silentAfter: 2, logger: createLogger({ level: 'silent' }) });
  await readiness.refresh();
  t.is(readiness.reason(), null);

  attestationAnswers = false;
  await readiness.refresh();
  t.is(readiness.unavailable('fiat'), null, 'one missed round is not silence');
  await readiness.refresh();
  t.is(readiness.unavailable('fiat'), 'the attestation service does not answer (connection refused)');
  t.is(readiness.unavailable('crypto'), null, 'crypto rails do not lean on the attestation service');

  chainAnswers = false;
  await readiness.refresh();
  await readiness.refresh();
  t.is(readiness.unavailable('crypto'), 'the chain does not answer (no answer within 20 ms)', 'a side that never answers misses its deadline');
  t.is(readiness.reason(), 'the chain does not answer (no answer within 20 ms); the attestation service does not answer (connection refused)');

  chainAnswers = true;
  attestationAnswers = true;
  await readiness.refresh();
  t.is(readiness.reason(), null, 'one answer is enough to count again');
});

test('a standing reason holds whatever the probes say', async (t) => {
  const readiness = new LiveReadiness({
    probes: [],
    standing: 'the data was written against another chain',
    deadlineMs: 20,
    everyMs: 60_000,
    silentAfter: 2,
    logger: createLogger({ level: 'silent' }),
  });
  await readiness.refresh();
  t.is(readiness.unavailable('fiat'), 'the data was written against another chain');
  t.is(readiness.unavailable('crypto'), 'the data was written against another chain');
});
