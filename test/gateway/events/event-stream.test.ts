import test from 'ava';
import { readEventStream, StreamRefusedError, type StreamedEvent } from '../../../deploy/event-stream-reader.js';
import { answerOf, placeOrder } from '../../support/checkout.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { untilListed } from '../../support/merchant-events.js';
import { rawRequest } from '../../support/raw-http.js';

/** A stream read in the background: what arrived so far, and a wait for more. */
function openStream(gateway: TestGateway, key: string, options: { lastEventId?: string; types?: string[] } = {}) {
  const controller = new AbortController();
  const events: StreamedEvent[] = [];
  let markOpen: () => void = () => {};
  const opened = new Promise<void>((resolve) => (markOpen = resolve));
  const ended = readEventStream(
    { url: gateway.url, apiKey: key, signal: controller.signal, onOpen: markOpen, ...options },
    async (event) => void events.push(event),
  ).then(
    () => 'ended' as const,
    (error: unknown) => (controller.signal.aborted ? ('aborted' as const) : Promise.reject(error)),
  );
  return {
    events,
    opened,
    ended,
    async until(count: number, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (events.length < count) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} streamed events; got ${events.map((event) => event.type).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return events;
    },
    close: () => controller.abort(),
  };
}

test('the stream sends the account’s new events as they are recorded, each as its listed body, and resumes after Last-Event-ID', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const merchant = await gateway.createMerchant();
  const other = await gateway.createMerchant({ name: 'Other', tier: 'BASE', evmWalletAddress: '0x2222222222222222222222222222222222222222' });
  const before = await placeOrder(gateway, merchant.liveKey);
  await untilListed(gateway, merchant.liveKey, 1);

  const own = openStream(gateway, merchant.liveKey);
  const others = openStream(gateway, other.liveKey);
  const sandbox = openStream(gateway, merchant.sandboxKey);
  const fulfilled = openStream(gateway, merchant.liveKey, { types: ['ORDER_FULFILLED'] });
  // Open before the orders below: a stream without Last-Event-ID starts with the next event.
  await Promise.all([own.opened, others.opened, sandbox.opened, fulfilled.opened]);
  const first = await placeOrder(gateway, merchant.liveKey);
  const second = await placeOrder(gateway, merchant.liveKey);
  const [a, b] = await own.until(2);
  t.deepEqual(
    [a!.data, b!.data].map((data) => JSON.parse(data).data.order.id),
    [first.id, second.id],
    'in order, and not the order from before',
  );
  t.deepEqual([a!.type, b!.type], ['ORDER_CREATED', 'ORDER_CREATED']);
  const listed = await untilListed(gateway, merchant.liveKey, 3);
  t.is(a!.data, JSON.stringify(listed[1]), 'the body is the listed event, byte for byte');
  t.is(a!.id, listed[1].id);

  // The other streams saw none of it.
  await placeOrder(gateway, other.liveKey);
  await others.until(1);
  t.deepEqual(
    others.events.map((event) => JSON.parse(event.data).data.order.merchantId),
    [other.liveId],
  );
  t.deepEqual(sandbox.events, []);
  t.deepEqual(fulfilled.events, []);

  // Resuming after the first: the second, and what happened while away.
  own.close();
  t.is(await own.ended, 'aborted');
  const third = await placeOrder(gateway, merchant.liveKey);
  const resumed = openStream(gateway, merchant.liveKey, { lastEventId: a!.id });
  const again = await resumed.until(2);
  t.deepEqual(
    again.map((event) => JSON.parse(event.data).data.order.id),
    [second.id, third.id],
  );
  t.false(again.some((event) => event.data.includes(before.id)));

  // node.stop() ends every open stream rather than waiting on it.
  await gateway.stop();
  t.deepEqual(await Promise.all([resumed.ended, others.ended, sandbox.ended, fulfilled.ended]), ['ended', 'ended', 'ended', 'ended']);
});

test('Last-Event-ID of another account’s event, or one never made, is refused: nothing of another merchant is ever streamed', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const merchant = await gateway.createMerchant();
  const other = await gateway.createMerchant({ name: 'Other', tier: 'BASE', evmWalletAddress: '0x2222222222222222222222222222222222222222' });
  await placeOrder(gateway, merchant.liveKey);
  const [event] = await untilListed(gateway, merchant.liveKey, 1);

  for (const [key, id] of [
    [other.liveKey, event.id],
    [merchant.sandboxKey, event.id],
    [merchant.liveKey, 'evt_ord_000000000000000000000000_1_0'],
  ] as const) {
    const refused = await rawRequest(gateway.url, { path: '/api/v1/events/stream', headers: { 'x-api-key': key, 'last-event-id': id } });
    t.is(refused.status, 404);
    t.deepEqual(refused.json, { success: false, message: refused.json.message, responseObject: null, statusCode: 404, errorCode: 'EVENT_NOT_FOUND' });
    const error = await t.throwsAsync(readEventStream({ url: gateway.url, apiKey: key, lastEventId: id }, async () => t.fail('nothing is streamed')));
    t.true(error instanceof StreamRefusedError);
  }
  for (const [headers, query] of [
    [{ 'last-event-id': 'evt with spaces' }, ''],
    [{ 'last-event-id': 'e'.repeat(257) }, ''],
    [{}, '?type=NOPE'],
    [{}, '?since=1'],
  ] as const) {
    const invalid = await gateway.request('GET', `/api/v1/events/stream${query}`, { key: merchant.liveKey, headers });
    t.is(invalid.status, 400);
    t.is(invalid.body.message, 'Invalid request');
  }

  // HEAD answers the stream's head and nothing else.
  const head = await rawRequest(gateway.url, { method: 'HEAD', path: '/api/v1/events/stream', headers: { 'x-api-key': merchant.liveKey } });
  t.is(head.status, 200);
  t.true(String(head.headers['content-type']).startsWith('text/event-stream'));
  t.is(head.text, '');
  answerOf(await gateway.request('GET', '/v1/health-check'), 200, 'the node still answers');
});

test('a stream ends once its key is rotated, and the old key cannot open another', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const merchant = await gateway.createMerchant();
  const kept = openStream(gateway, merchant.sandboxKey);
  const rotated = openStream(gateway, merchant.liveKey);
  await Promise.all([kept.opened, rotated.opened]);
  answerOf(await gateway.admin('POST', `/internal/v1/merchants/${merchant.liveId}/api-keys/rotate`), 200, 'rotation');
  t.is(await rotated.ended, 'ended');
  const error = await t.throwsAsync(readEventStream({ url: gateway.url, apiKey: merchant.liveKey }, async () => t.fail('nothing is streamed')));
  t.like(error, { status: 401 });
  // The twin's key was not rotated: its stream goes on and still hears its events.
  const order = await placeOrder(gateway, merchant.sandboxKey);
  const [event] = await kept.until(1);
  t.is(JSON.parse(event!.data).data.order.id, order.id);
});
