import test from 'ava';
import { startTestSystem } from '../support/test-node.js';
import { serveGateway } from '../support/gateway-app.js';
import { startTestGateway } from '../support/gateway.js';
import { counterKind } from '../support/counter-kind.js';
import { createLogger } from '../../actors/logger.js';
import { HeapHealth, v8Heap } from '../../gateway/service/heap-health.js';
import { Rotation } from '../../gateway/service/rotation.js';

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

test('a heap past 80 % of its limit makes the node degraded and warns once; back under, healthy and said once', async (t) => {
  const parts = await startTestSystem({ kinds: [counterKind()] });
  const lines: { level: number; msg: string; heapUsedPercent?: number }[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  const limit = 4_000_000_000;
  let used = 1_000_000_000;
  const { url } = await serveGateway(t, parts, { logger, heap: new HeapHealth(logger, () => ({ used, limit })) });
  const heapLines = () => lines.filter((line) => line.msg.startsWith('heap ')).map((line) => [line.level, line.msg, line.heapUsedPercent]);

  t.is((await healthOf(url)).body.responseObject.status, 'healthy');
  used = limit * 0.8;
  t.is((await healthOf(url)).body.responseObject.status, 'healthy', 'at the mark is not past it');
  t.deepEqual(heapLines(), []);

  used = 3_300_000_000;
  const degraded = await healthOf(url);
  t.is(degraded.status, 200);
  t.is(degraded.body.responseObject.status, 'degraded');
  t.is(degraded.body.message, 'Service is degraded: the heap is at 82.5% of its limit');
  used = 3_900_000_000;
  t.is((await healthOf(url)).body.responseObject.status, 'degraded');
  t.deepEqual(heapLines(), [[40, 'heap above 80% of its limit; the node reports degraded', 82.5]]);

  used = 2_000_000_000;
  t.is((await healthOf(url)).body.responseObject.status, 'healthy');
  t.is((await healthOf(url)).body.responseObject.status, 'healthy');
  t.deepEqual(heapLines(), [
    [40, 'heap above 80% of its limit; the node reports degraded', 82.5],
    [40, 'heap back under 80% of its limit; the node reports healthy', 50],
  ]);
});

test('the node reads V8’s own heap figures by default', (t) => {
  const { used, limit } = v8Heap();
  t.true(used > 0 && limit > used);
});

test('the probes: alive and ready; a node leaving the rotation answers readiness 503 and asks to close every connection', async (t) => {
  const parts = await startTestSystem({ kinds: [counterKind()] });
  const rotation = new Rotation();
  const { url } = await serveGateway(t, parts, { rotation });

  const live = await fetch(`${url}/v1/health-check/live`);
  t.is(live.status, 200);
  t.deepEqual(((await live.json()) as { responseObject: unknown }).responseObject, { alive: true });
  const ready = await fetch(`${url}/v1/health-check/ready`);
  t.is(ready.status, 200);
  t.deepEqual(((await ready.json()) as { responseObject: unknown }).responseObject, { ready: true, shardsHeld: null });
  t.not(ready.headers.get('connection'), 'close');

  rotation.leave();
  const leaving = await fetch(`${url}/v1/health-check/ready`);
  t.is(leaving.status, 503);
  const body = (await leaving.json()) as { errorCode: string; message: string };
  t.is(body.errorCode, 'SERVICE_UNAVAILABLE');
  t.is(body.message, 'The node is leaving the rotation: it is stopping');
  t.is(leaving.headers.get('connection'), 'close');
  // Still alive, and still answering what the balancer sends before it notices.
  t.is((await fetch(`${url}/v1/health-check/live`)).status, 200);
  const report = await fetch(`${url}/v1/health-check`);
  t.is(report.status, 200);
  t.is(report.headers.get('connection'), 'close');
});

test('readiness is 503 while the store cannot be reached, and alive all the same', async (t) => {
  const parts = await startTestSystem({ kinds: [counterKind()] });
  let reachable = true;
  const store = new Proxy(parts.store, {
    get: (target, key) => {
      if (key === 'status') return async () => (reachable ? target.status() : { connected: false });
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const { url } = await serveGateway(t, { ...parts, store });
  t.is((await fetch(`${url}/v1/health-check/ready`)).status, 200);
  reachable = false;
  const down = await fetch(`${url}/v1/health-check/ready`);
  t.is(down.status, 503);
  t.is(((await down.json()) as { message: string }).message, 'The node cannot reach its store');
  t.is((await fetch(`${url}/v1/health-check/live`)).status, 200);
});

test('probes are not counted against the client address’s rate limit: a balancer probing often never makes a node look down', async (t) => {
  const parts = await startTestSystem({ kinds: [counterKind()] });
  const { url } = await serveGateway(t, parts, { rateLimitPerMinute: 3 });
  for (let probe = 0; probe < 10; probe++) {
    t.is((await fetch(`${url}/v1/health-check/ready`)).status, 200);
    t.is((await fetch(`${url}/v1/health-check/live`)).status, 200);
  }
  for (let request = 0; request < 3; request++) t.is((await fetch(`${url}/v1/health-check`)).status, 200);
  t.is((await fetch(`${url}/v1/health-check`)).status, 429, 'the limit itself still holds for other routes');
});
