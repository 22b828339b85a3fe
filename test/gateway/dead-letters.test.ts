/**
 * The admin API for dead letters, through HTTP: a gateway given a DeadLetterStore that
 * the tests fill directly (and a real MemoryBus for the bus letters), behind the admin
 * token like every other admin route.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { CommandRejectedError } from '../../actors/errors.js';
import { createLogger } from '../../actors/logger.js';
import { MemoryBus } from '../../actors/events/memory-bus.js';
import { merchantKind, orderKind } from '../../actors/kinds/index.js';
import { DeadLetterStore } from '../../actors/runtime/dead-letters.js';
import type { DeadLetter, NewDeadLetter } from '../../actors/runtime/dead-letters.js';
import { ADMIN_TOKEN, missingToken, invalidToken } from '../support/gateway.js';
import { serveGateway } from '../support/gateway-app.js';
import { eventually } from '../support/nats.js';
import { rawRequest, type RawResponse } from '../support/raw-http.js';
import { startTestSystem, type TestSystem } from '../support/test-node.js';

const ABSENT = 'dlq_0123456789abcdef01234567';

interface Fixture {
  url: string;
  deadLetters: DeadLetterStore;
  bus: MemoryBus;
  clock: TestSystem['clock'];
  /** What the store logged, one parsed line each. */
  logs: Array<Record<string, unknown>>;
  admin(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  /** Files a letter at the clock's current time, then moves the clock on a second so the next one is newer. */
  file(letter: Partial<NewDeadLetter> & { key: string }): Promise<DeadLetter>;
}

async function start(t: ExecutionContext, options: { deadLetters?: boolean } = {}): Promise<Fixture> {
  const logs: Array<Record<string, unknown>> = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void logs.push(JSON.parse(line)) } });
  const { system, store, clock } = await startTestSystem({ kinds: [merchantKind, orderKind] });
  const deadLetters = await DeadLetterStore.open(store, clock, logger);
  const bus = new MemoryBus({ deadLetters, retryPolicy: { baseMs: 5, maxBackoffMs: 20, maxAttempts: 3, maxAgeMs: 60_000 } });
  t.teardown(async () => {
    await bus.close();
    await system.drain();
    await store.close();
  });
  const { url } = await serveGateway(t, { system, store, bus, clock }, options.deadLetters === false ? {} : { deadLetters });
  return {
    url,
    deadLetters,
    bus,
    clock,
    logs,
    admin: (method, path, body, headers = {}) =>
      rawRequest(url, {
        method,
        path,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async file(letter) {
      const filed = await deadLetters.add({
        source: 'effect',
        actor: { kind: 'order', id: 'ord_4Fz1hQk9TbW2mX7pLr0sVc3N' },
        consumer: null,
        payload: { kind: 'event', event: { type: 'PING' }, amount: { __bigint: '25000000' } },
        error: { name: 'Error', message: 'indexer unreachable', code: null },
        attempts: 10,
        firstAttemptAt: clock.now() - 60_000,
        ...letter,
      });
      await clock.advance(1_000);
      return filed;
    },
  };
}

function ids(response: RawResponse): string[] {
  return response.json.responseObject.deadLetters.map((letter: { id: string }) => letter.id);
}

test('a letter reads as its view: ids, source, actor, payload as stored, error, attempts, ISO times, status', async (t) => {
  const f = await start(t);
  const filedAt = f.clock.now();
  const letter = await f.file({ key: 'effect:order:ord_4Fz1hQk9TbW2mX7pLr0sVc3N:3:0' });
  const response = await f.admin('GET', `/internal/v1/dead-letters/${letter._id}`);
  t.is(response.status, 200);
  t.deepEqual(response.json, {
    success: true,
    message: 'Dead letter',
    statusCode: 200,
    responseObject: {
      id: letter._id,
      key: 'effect:order:ord_4Fz1hQk9TbW2mX7pLr0sVc3N:3:0',
      source: 'effect',
      actor: { kind: 'order', id: 'ord_4Fz1hQk9TbW2mX7pLr0sVc3N' },
      consumer: null,
      payload: { kind: 'event', event: { type: 'PING' }, amount: { __bigint: '25000000' } },
      error: { name: 'Error', message: 'indexer unreachable', code: null },
      attempts: 10,
      firstAttemptAt: new Date(filedAt - 60_000).toISOString(),
      lastAttemptAt: new Date(filedAt).toISOString(),
      createdAt: new Date(filedAt).toISOString(),
      updatedAt: new Date(filedAt).toISOString(),
      status: 'OPEN',
      resolution: null,
      resolvedAt: null,
    },
  });
  t.regex(letter._id, /^dlq_[0-9a-f]{24}$/);
});

test('an absent letter is a 404 with a code; an id of the wrong shape is a 400 naming the parameter', async (t) => {
  const f = await start(t);
  const absent = await f.admin('GET', `/internal/v1/dead-letters/${ABSENT}`);
  t.is(absent.status, 404);
  t.like(absent.json, { success: false, statusCode: 404, errorCode: 'DEAD_LETTER_NOT_FOUND', responseObject: null });
  for (const id of ['dlq_0123', 'dlq_0123456789ABCDEF01234567', 'ord_4Fz1hQk9TbW2mX7pLr0sVc3N', 'dlq_0123456789abcdef0123456z']) {
    for (const [method, path] of [
      ['GET', `/internal/v1/dead-letters/${id}`],
      ['POST', `/internal/v1/dead-letters/${id}/retry`],
    ] as const) {
      const response = await f.admin(method, path);
      t.is(response.status, 400, `${method} ${path}`);
      t.is(response.json.errorCode, undefined);
      t.deepEqual(Object.keys(response.json.responseObject.fieldErrors), ['deadLetterId'], `${method} ${path}`);
    }
  }
  const encoded = await f.admin('GET', `/internal/v1/dead-letters/${ABSENT.replace('_', '%5F')}`);
  t.is(encoded.status, 404, 'a percent-encoded id is the same id');
  for (const [method, path] of [
    ['POST', `/internal/v1/dead-letters/${ABSENT}/retry`],
    ['POST', `/internal/v1/dead-letters/${ABSENT}/discard`],
  ] as const) {
    const response = await f.admin(method, path, method === 'POST' && path.endsWith('discard') ? { reason: 'gone' } : undefined);
    t.is(response.status, 404, path);
    t.is(response.json.errorCode, 'DEAD_LETTER_NOT_FOUND', path);
  }
});

test('the list answers open letters newest first by default, with the open count, and filters by status, source and actor', async (t) => {
  const f = await start(t);
  const a = await f.file({ key: 'effect:a', actor: { kind: 'order', id: 'ord_A' } });
  const b = await f.file({ key: 'timer:order:ord_B:t1@1', source: 'timer', actor: { kind: 'order', id: 'ord_B' } });
  const c = await f.file({ key: 'bus:webhooks:order:o1:1:0', source: 'bus', actor: null, consumer: 'webhooks' });
  const d = await f.file({ key: 'refusal:x', source: 'refusal', actor: { kind: 'merchant', id: 'mer_A' } });
  await f.deadLetters.discard(d._id, 'not needed', 'test');

  const open = await f.admin('GET', '/internal/v1/dead-letters');
  t.is(open.status, 200);
  t.like(open.json, { success: true, statusCode: 200, message: 'Dead letters' });
  t.deepEqual(ids(open), [c._id, b._id, a._id]);
  t.like(open.json.responseObject, { hasMore: false, nextStartingAfter: null, limit: 20, openCount: 3 });
  t.is(open.json.responseObject.deadLetters[0].createdAt, new Date(c.createdAt).toISOString());

  t.deepEqual(ids(await f.admin('GET', '/internal/v1/dead-letters?status=DISCARDED')), [d._id]);
  t.like((await f.admin('GET', '/internal/v1/dead-letters?status=DISCARDED')).json.responseObject.deadLetters[0], {
    status: 'DISCARDED',
    resolution: 'not needed',
  });
  t.deepEqual(ids(await f.admin('GET', '/internal/v1/dead-letters?status=RETRIED')), []);
  t.deepEqual(ids(await f.admin('GET', '/internal/v1/dead-letters?source=timer')), [b._id]);
  t.deepEqual(ids(await f.admin('GET', '/internal/v1/dead-letters?source=bus')), [c._id]);
  t.deepEqual(ids(await f.admin('GET', '/internal/v1/dead-letters?actor=order:ord_A')), [a._id]);
  t.deepEqual(ids(await f.admin('GET', '/internal/v1/dead-letters?actor=order%3Aord_B&source=timer')), [b._id]);
  t.deepEqual(ids(await f.admin('GET', '/internal/v1/dead-letters?actor=order:ord_B&source=effect')), []);
  t.deepEqual(ids(await f.admin('GET', '/internal/v1/dead-letters?actor=merchant:mer_A&status=DISCARDED')), [d._id]);
});

test('pages follow nextStartingAfter until hasMore is false, each letter once, newest first', async (t) => {
  const f = await start(t);
  const filed: DeadLetter[] = [];
  for (let i = 0; i < 7; i++) filed.push(await f.file({ key: `effect:page:${i}` }));
  const seen: string[] = [];
  let path = '/internal/v1/dead-letters?limit=3';
  const pages: boolean[] = [];
  for (;;) {
    const response = await f.admin('GET', path);
    t.is(response.status, 200, path);
    const page = response.json.responseObject;
    t.is(page.limit, 3);
    t.true(page.deadLetters.length <= 3);
    seen.push(...ids(response));
    pages.push(page.hasMore);
    if (!page.hasMore) {
      t.is(page.nextStartingAfter, null);
      break;
    }
    t.is(page.nextStartingAfter, page.deadLetters.at(-1).id);
    path = `/internal/v1/dead-letters?limit=3&startingAfter=${page.nextStartingAfter}`;
  }
  t.deepEqual(pages, [true, true, false]);
  t.deepEqual(seen, filed.map((letter) => letter._id).reverse());
  t.is((await f.admin('GET', '/internal/v1/dead-letters?limit=100')).json.responseObject.deadLetters.length, 7);
  t.deepEqual(ids(await f.admin('GET', '/internal/v1/dead-letters?limit=1')), [filed[6]!._id]);

  const unknownCursor = await f.admin('GET', `/internal/v1/dead-letters?startingAfter=${ABSENT}`);
  t.is(unknownCursor.status, 404);
  t.is(unknownCursor.json.errorCode, 'DEAD_LETTER_NOT_FOUND');
});

test('the list query is validated: limit 1..100, known statuses and sources, kind:id actors, no unknown parameters', async (t) => {
  const f = await start(t);
  const cases: Array<[string, string]> = [
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=ten', 'limit'],
    ['status=open', 'status'],
    ['status=ALL', 'status'],
    ['status=OPEN&status=RETRIED', 'status'],
    ['source=queue', 'source'],
    ['actor=order', 'actor'],
    ['actor=order:', 'actor'],
    ['actor=order:a:b', 'actor'],
    ['actor=ord%20er:x', 'actor'],
    ['startingAfter=dlq_1', 'startingAfter'],
  ];
  for (const [query, field] of cases) {
    const response = await f.admin('GET', `/internal/v1/dead-letters?${query}`);
    t.is(response.status, 400, query);
    t.is(response.json.errorCode, undefined, query);
    t.deepEqual(Object.keys(response.json.responseObject.fieldErrors), [field], query);
  }
  const unknown = await f.admin('GET', '/internal/v1/dead-letters?page=2');
  t.is(unknown.status, 400);
  t.true(unknown.json.responseObject.formErrors.length > 0, 'an unknown parameter is a form error');
});

test('retry hands an open letter to its source’s retrier, and logs who asked; a second retry is DEAD_LETTER_NOT_OPEN', async (t) => {
  const f = await start(t);
  const handed: DeadLetter[] = [];
  f.deadLetters.onRetry('effect', async (letter) => void handed.push(letter));
  const letter = await f.file({ key: 'effect:retry-me' });
  const response = await f.admin('POST', `/internal/v1/dead-letters/${letter._id}/retry`, undefined, { 'x-request-id': 'req-retry-0001' });
  t.is(response.status, 200);
  t.like(response.json, { success: true, message: 'Dead letter retried', statusCode: 200 });
  t.like(response.json.responseObject, { id: letter._id, status: 'RETRIED', resolution: 'retried', resolvedAt: new Date(f.clock.now()).toISOString() });
  t.deepEqual(
    handed.map((l) => l._id),
    [letter._id],
  );
  t.like(await f.deadLetters.get(letter._id), { status: 'RETRIED' });
  const logged = f.logs.find((line) => line.msg === 'dead letter retried');
  t.like(logged, { deadLetter: letter._id, by: 'admin-api:req-retry-0001' });
  t.false(JSON.stringify(f.logs).includes(ADMIN_TOKEN), 'the token is never logged');

  const again = await f.admin('POST', `/internal/v1/dead-letters/${letter._id}/retry`);
  t.is(again.status, 409);
  t.like(again.json, { success: false, statusCode: 409, errorCode: 'DEAD_LETTER_NOT_OPEN' });
  t.is(handed.length, 1);
});

test('retry answers the store’s refusals and leaves the letter open: no retrier for the source, or a retrier that refuses', async (t) => {
  const f = await start(t);
  const timer = await f.file({ key: 'timer:order:ord_A:t1@5', source: 'timer' });
  const noRetrier = await f.admin('POST', `/internal/v1/dead-letters/${timer._id}/retry`);
  t.is(noRetrier.status, 409);
  t.is(noRetrier.json.errorCode, 'DEAD_LETTER_NOT_RETRYABLE');
  t.like(await f.deadLetters.get(timer._id), { status: 'OPEN' });

  f.deadLetters.onRetry('refusal', async () => {
    throw new CommandRejectedError('CONSUMER_NOT_RUNNING', 'nobody takes it here');
  });
  const refusal = await f.file({ key: 'refusal:r1', source: 'refusal' });
  const refused = await f.admin('POST', `/internal/v1/dead-letters/${refusal._id}/retry`);
  t.is(refused.status, 409);
  t.like(refused.json, { errorCode: 'CONSUMER_NOT_RUNNING', message: 'nobody takes it here' });
  t.like(await f.deadLetters.get(refusal._id), { status: 'OPEN', resolution: null });
});

test('a bus letter retried through the API goes back to the live consumer; with the consumer stopped it is CONSUMER_NOT_RUNNING', async (t) => {
  const f = await start(t);
  let poisoned = true;
  const seen: string[] = [];
  const subscription = await f.bus.consume({ durable: 'projection' }, async (event) => {
    seen.push(event.id);
    if (poisoned) throw new Error('projection broken');
  });
  const event = { id: 'order:ord_A:1:0', type: 'ORDER_CREATED', actor: { kind: 'order', id: 'ord_A' }, at: f.clock.now(), data: { amount: '25' } };
  await f.bus.publish(event);
  const letterId = DeadLetterStore.idOf(`bus:projection:${event.id}`);
  await eventually(async () => (await f.deadLetters.get(letterId)) !== null, 'the bus letter', 5_000);

  const shown = await f.admin('GET', `/internal/v1/dead-letters/${letterId}`);
  t.like(shown.json.responseObject, {
    source: 'bus',
    consumer: 'projection',
    actor: null,
    attempts: 3,
    payload: event,
    error: { message: 'projection broken' },
  });

  const failedAgain = await f.admin('POST', `/internal/v1/dead-letters/${letterId}/retry`);
  t.is(failedAgain.status, 422);
  t.is(failedAgain.json.errorCode, 'DEAD_LETTER_RETRY_FAILED');
  t.like(await f.deadLetters.get(letterId), { status: 'OPEN' });

  poisoned = false;
  const retried = await f.admin('POST', `/internal/v1/dead-letters/${letterId}/retry`);
  t.is(retried.status, 200);
  t.deepEqual(seen, [event.id, event.id, event.id, event.id, event.id]);

  await f.deadLetters.add({
    key: `bus:projection:${event.id}`,
    source: 'bus',
    actor: null,
    consumer: 'projection',
    payload: event,
    error: { name: 'Error', message: 'again', code: null },
    attempts: 1,
    firstAttemptAt: f.clock.now(),
  });
  await subscription.stop();
  const stopped = await f.admin('POST', `/internal/v1/dead-letters/${letterId}/retry`);
  t.is(stopped.status, 409);
  t.is(stopped.json.errorCode, 'CONSUMER_NOT_RUNNING');
  t.like(await f.deadLetters.get(letterId), { status: 'OPEN' });
});

test('discard closes an open letter with its reason and logs who asked; the reason is required, 1 to 500 characters, and nothing else is taken', async (t) => {
  const f = await start(t);
  const letter = await f.file({ key: 'effect:discard-me' });
  const path = `/internal/v1/dead-letters/${letter._id}/discard`;
  const invalid: Array<[unknown, string | null]> = [
    [{}, 'reason'],
    [{ reason: '' }, 'reason'],
    [{ reason: '   ' }, 'reason'],
    [{ reason: 'x'.repeat(501) }, 'reason'],
    [{ reason: 42 }, 'reason'],
    [{ reason: 'ok', by: 'someone else' }, null],
  ];
  for (const [body, field] of invalid) {
    const response = await f.admin('POST', path, body);
    t.is(response.status, 400, JSON.stringify(body));
    t.is(response.json.errorCode, undefined);
    if (field) t.deepEqual(Object.keys(response.json.responseObject.fieldErrors), [field], JSON.stringify(body));
    else t.true(response.json.responseObject.formErrors.length > 0, 'an unknown field is refused');
  }
  const notJson = await f.admin('POST', path, '{"reason":');
  t.is(notJson.status, 400);
  t.like(await f.deadLetters.get(letter._id), { status: 'OPEN' }, 'no invalid request changed the letter');

  const reason = 'y'.repeat(500);
  const discarded = await f.admin('POST', path, { reason }, { 'x-request-id': 'req-discard-01' });
  t.is(discarded.status, 200);
  t.like(discarded.json, { success: true, message: 'Dead letter discarded', statusCode: 200 });
  t.like(discarded.json.responseObject, { id: letter._id, status: 'DISCARDED', resolution: reason });
  t.like(
    f.logs.find((line) => line.msg === 'dead letter discarded'),
    { deadLetter: letter._id, reason, by: 'admin-api:req-discard-01' },
  );

  const again = await f.admin('POST', path, { reason: 'twice' });
  t.is(again.status, 409);
  t.is(again.json.errorCode, 'DEAD_LETTER_NOT_OPEN');
  const retry = await f.admin('POST', `/internal/v1/dead-letters/${letter._id}/retry`);
  t.is(retry.status, 409);
  t.is(retry.json.errorCode, 'DEAD_LETTER_NOT_OPEN');
  t.like(await f.deadLetters.get(letter._id), { status: 'DISCARDED', resolution: reason });
});

test('every dead-letter route refuses a caller without the admin token, or with a wrong one, and changes nothing', async (t) => {
  const f = await start(t);
  let retried = 0;
  f.deadLetters.onRetry('effect', async () => void retried++);
  const letter = await f.file({ key: 'effect:guarded' });
  const routes: Array<[string, string, unknown]> = [
    ['GET', '/internal/v1/dead-letters', undefined],
    ['GET', `/internal/v1/dead-letters/${letter._id}`, undefined],
    ['POST', `/internal/v1/dead-letters/${letter._id}/retry`, undefined],
    ['POST', `/internal/v1/dead-letters/${letter._id}/discard`, { reason: 'no' }],
    ['GET', '/internal/v1/Dead-Letters', undefined],
  ];
  for (const [method, path, body] of routes) {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    const text = body === undefined ? undefined : JSON.stringify(body);
    const none = await rawRequest(f.url, { method, path, headers, body: text });
    t.is(none.status, 401, `${method} ${path}`);
    t.deepEqual(none.json, missingToken);
    const wrong = await rawRequest(f.url, { method, path, headers: { ...headers, authorization: `Bearer ${ADMIN_TOKEN}x` }, body: text });
    t.deepEqual(wrong.json, invalidToken);
  }
  t.is(retried, 0);
  t.like(await f.deadLetters.get(letter._id), { status: 'OPEN' });
});

test('the OpenAPI document describes the four operations behind the admin token, with the id pattern and a discard example', async (t) => {
  const f = await start(t);
  const document = (await rawRequest(f.url, { path: '/api/v1/openapi.json' })).json;
  const paths = document.paths as Record<
    string,
    Record<string, { security?: unknown; parameters?: Array<{ name: string; in: string; schema: { pattern?: string } }> }>
  >;
  const operations = [
    ['/internal/v1/dead-letters', 'get'],
    ['/internal/v1/dead-letters/{deadLetterId}', 'get'],
    ['/internal/v1/dead-letters/{deadLetterId}/retry', 'post'],
    ['/internal/v1/dead-letters/{deadLetterId}/discard', 'post'],
  ] as const;
  for (const [path, method] of operations) {
    const operation = paths[path]?.[method];
    t.truthy(operation, `${method} ${path}`);
    t.deepEqual(operation?.security, [{ adminToken: [] }]);
    if (path.includes('{deadLetterId}')) {
      const parameter = operation?.parameters?.find((p) => p.in === 'path' && p.name === 'deadLetterId');
      t.is(parameter?.schema.pattern, '^dlq_[0-9a-f]{24}$');
    }
  }
  const discard = paths['/internal/v1/dead-letters/{deadLetterId}/discard']?.post as {
    requestBody?: { content: Record<string, { schema: { example?: unknown } }> };
  };
  t.truthy(discard.requestBody?.content['application/json']?.schema.example);
  const listParameters = paths['/internal/v1/dead-letters']?.get?.parameters?.map((p) => p.name).sort();
  t.deepEqual(listParameters, ['actor', 'limit', 'source', 'startingAfter', 'status']);
});

test('without a dead-letter store the routes are neither served nor documented', async (t) => {
  const f = await start(t, { deadLetters: false });
  const response = await f.admin('GET', '/internal/v1/dead-letters');
  t.is(response.status, 404);
  t.is(response.json.errorCode, 'NOT_FOUND');
  const document = (await rawRequest(f.url, { path: '/api/v1/openapi.json' })).json;
  t.false(Object.keys(document.paths).some((path) => path.includes('dead-letters')));
});
