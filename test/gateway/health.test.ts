import test from 'ava';
import { startTestSystem } from '../support/test-node.js';
import { serveGateway } from '../support/gateway-app.js';
import { startTestGateway } from '../support/gateway.js';
import { counterKind } from '../support/counter-kind.js';

async function healthOf(url: string) {
  const response = await fetch(`${url}/v1/health-check`);
  return { status: response.status, body: (await response.json()) as { message: string; responseObject: { status: string } } };
}

test('a node whose chain indexer is not serving is degraded, and says why', async (t) => {
  const parts = await startTestSystem({ kinds: [counterKind()] });
  let indexer = { serving: false, reason: '3 reads failed in a row: connect ECONNREFUSED 127.0.0.1:8545' as string | null };
  const { url } = await serveGateway(t, parts, { indexerHealth: async () => indexer });

  const degraded = await healthOf(url);
  t.is(degraded.status, 200, 'a degraded node still answers 200');
  t.is(degraded.body.responseObject.status, 'degraded');
  t.is(degraded.body.message, 'Service is degraded: the chain indexer is not serving (3 reads failed in a row: connect ECONNREFUSED 127.0.0.1:8545)');

  indexer = { serving: true, reason: null };
  const healthy = await healthOf(url);
  t.is(healthy.body.responseObject.status, 'healthy');
  t.is(healthy.body.message, 'Service is healthy');
});

test('a node reading a local chain is healthy while its indexer answers, and degraded once it does not', async (t) => {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true });
  t.teardown(() => gateway.stop());
  const healthy = await gateway.request('GET', '/v1/health-check');
  t.is(healthy.body.responseObject.status, 'healthy');

  await gateway.node.chain!.indexer!.stop();
  const degraded = await gateway.request('GET', '/v1/health-check');
  t.is(degraded.body.responseObject.status, 'degraded');
  t.regex(degraded.body.message, /^Service is degraded: the chain indexer is not serving \(the indexer at 127\.0\.0\.1:\d+ did not answer: /);
});
