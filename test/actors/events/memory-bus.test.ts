import test from 'ava';
import type { DomainEvent } from '../../../actors/events/event-bus.js';
import { MemoryBus } from '../../../actors/events/memory-bus.js';
import { createLogger } from '../../../actors/logger.js';
import { DeadLetterStore } from '../../../actors/runtime/dead-letters.js';
import type { NewDeadLetter } from '../../../actors/runtime/dead-letters.js';
import { eventually } from '../../support/nats.js';
import { FAST_POLICY, eventBusContract, openDeadLetters } from './contract.js';

eventBusContract('MemoryBus', async (options) => {
  const bus = new MemoryBus(options);
  return { bus, cleanup: () => bus.close() };
});

test('MemoryBus: an id older than the de-dup window is accepted again', async (t) => {
  const bus = new MemoryBus({ dedupWindow: 2 });
  t.teardown(() => bus.close());
  const at = Date.UTC(2026, 0, 1);
  const make = (id: string) => ({ id, type: 'ORDER_UPDATED', actor: { kind: 'order', id: 'o1' }, at, data: {} });
  for (const id of ['a', 'b', 'a', 'c', 'a']) await bus.publish(make(id));
  const ids: string[] = [];
  const done = new Promise<void>((resolve) => {
    void bus.consume({ durable: 'window' }, async (event) => {
      ids.push(event.id);
      if (ids.length === 4) resolve();
    });
  });
  await done;
  t.deepEqual(ids, ['a', 'b', 'c', 'a']);
});

test('MemoryBus: a consumer behind the retained log skips to its start', async (t) => {
  const bus = new MemoryBus({ maxEvents: 10 });
  t.teardown(() => bus.close());
  const at = Date.UTC(2026, 0, 1);
  for (let i = 0; i < 12; i++) {
    await bus.publish({ id: `order:o1:${i}:0`, type: 'ORDER_UPDATED', actor: { kind: 'order', id: 'o1' }, at, data: {} });
  }
  const ids: string[] = [];
  await new Promise<void>((resolve) => {
    void bus.consume({ durable: 'behind' }, async (event) => {
      ids.push(event.id);
      if (event.id === 'order:o1:11:0') resolve();
    });
  });
  t.is(ids[0], 'order:o1:2:0');
  t.is(ids.length, 10);
});

test('MemoryBus: a durable name can only consume once at a time', async (t) => {
  const bus = new MemoryBus();
  t.teardown(() => bus.close());
  await bus.consume({ durable: 'single' }, async () => {});
  await t.throwsAsync(
    bus.consume({ durable: 'single' }, async () => {}),
    { message: /already consuming/ },
  );
});

const at = Date.UTC(2026, 0, 1);
const orderEvent = (version: number): DomainEvent => ({
  id: `order:o1:${version}:0`,
  type: 'ORDER_UPDATED',
  actor: { kind: 'order', id: 'o1' },
  at,
  data: { version },
});

test('MemoryBus: an event whose dead letter cannot be filed is not dropped: it is tried again until the letter is filed', async (t) => {
  const real = await openDeadLetters();
  let refusals = 2;
  const flaky = {
    add: async (letter: NewDeadLetter) => {
      if (refusals-- > 0) throw new Error('store unavailable');
      return real.add(letter);
    },
    onRetry: (...args: Parameters<DeadLetterStore['onRetry']>) => real.onRetry(...args),
  } as unknown as DeadLetterStore;
  const bus = new MemoryBus({ deadLetters: flaky, retryPolicy: FAST_POLICY });
  t.teardown(() => bus.close());
  const seen: string[] = [];
  await bus.consume({ durable: 'flaky-store' }, async (event) => {
    seen.push(event.id);
    if (event.id === 'order:o1:1:0') throw new Error('always');
  });
  await bus.publish(orderEvent(1));
  await bus.publish(orderEvent(2));
  await eventually(() => seen.includes('order:o1:2:0'), 'the next event');
  t.deepEqual(
    seen,
    ['order:o1:1:0', 'order:o1:1:0', 'order:o1:1:0', 'order:o1:1:0', 'order:o1:1:0', 'order:o1:2:0'],
    'two more attempts while the store refused',
  );
  t.like(await real.get(DeadLetterStore.idOf('bus:flaky-store:order:o1:1:0')), { attempts: 5, status: 'OPEN' });
});

test('MemoryBus: without a dead-letter store, failures past maxAttempts are logged at error level', async (t) => {
  const lines: Array<{ level: number; msg: string; failures: number }> = [];
  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
  const bus = new MemoryBus({ logger, retryPolicy: { ...FAST_POLICY, maxAttempts: 2 } });
  t.teardown(() => bus.close());
  let failures = 0;
  const seen: string[] = [];
  await bus.consume({ durable: 'logged' }, async (event) => {
    seen.push(event.id);
    if (event.id === 'order:o1:1:0' && failures++ < 3) throw new Error('not yet');
  });
  await bus.publish(orderEvent(1));
  await bus.publish(orderEvent(2));
  await eventually(() => seen.includes('order:o1:2:0'), 'the next event');
  t.deepEqual(
    lines.map((line) => [line.level, line.failures]),
    [
      [40, 1],
      [50, 2],
      [50, 3],
    ],
  );
});

test('MemoryBus: a retry of a dead letter waits for the delivery in progress, so the handler never runs twice at once', async (t) => {
  const deadLetters = await openDeadLetters();
  const bus = new MemoryBus({ deadLetters, retryPolicy: FAST_POLICY });
  t.teardown(() => bus.close());
  let running = 0;
  let overlapped = false;
  let poisoned = true;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const seen: string[] = [];
  await bus.consume({ durable: 'serial' }, async (event) => {
    running += 1;
    overlapped ||= running > 1;
    try {
      seen.push(event.id);
      if (event.id === 'order:o1:1:0' && poisoned) throw new Error('poison');
      if (event.id === 'order:o1:2:0') await gate;
    } finally {
      running -= 1;
    }
  });
  await bus.publish(orderEvent(1));
  await bus.publish(orderEvent(2));
  await eventually(() => seen.includes('order:o1:2:0'), 'the slow event');
  poisoned = false;
  const letterId = DeadLetterStore.idOf('bus:serial:order:o1:1:0');
  const retried = deadLetters.retry(letterId, 'test');
  // The store claims the letter just before it hands it to the bus.
  await eventually(async () => (await deadLetters.get(letterId))?.status === 'RETRIED', 'the letter claimed');
  t.is(seen.at(-1), 'order:o1:2:0', 'the retry waits for the delivery in progress');
  release();
  await retried;
  t.is(seen.at(-1), 'order:o1:1:0');
  t.false(overlapped);
});
