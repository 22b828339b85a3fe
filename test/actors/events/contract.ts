/**
 * Behaviour every EventBus adapter must share, registered as ava tests. Waits end
 * when the handler has seen a given event, never after a fixed sleep: delivery is
 * in order, so once the last published event arrives everything before it (and
 * any duplicate or redelivery of it) has arrived too.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { SystemClock } from '../../../actors/clock.js';
import { CommandRejectedError } from '../../../actors/errors.js';
import { createLogger } from '../../../actors/logger.js';
import { busDeadLetterKey } from '../../../actors/events/event-bus.js';
import type { BusDeadLetterOptions, DomainEvent, EventBus, EventHandler, Subscription } from '../../../actors/events/event-bus.js';
import { DeadLetterStore } from '../../../actors/runtime/dead-letters.js';
import type { RetryPolicy } from '../../../actors/runtime/retry-policy.js';
import { EmbeddedStore } from '../../../actors/store/embedded-store.js';

/** Opens a bus of the adapter under test; `options` carry the dead-letter store and retry policy when a test gives them. */
export type OpenBus = (options?: BusDeadLetterOptions) => Promise<{ bus: EventBus; cleanup: () => Promise<void> }>;

/** Small enough that a failing event is given up in a few milliseconds. */
export const FAST_POLICY: RetryPolicy = { baseMs: 5, maxBackoffMs: 20, maxAttempts: 3, maxAgeMs: 60_000 };

export function openDeadLetters(): Promise<DeadLetterStore> {
  return DeadLetterStore.open(new EmbeddedStore(), new SystemClock(), createLogger({ level: 'silent' }));
}

const TIMEOUT_MS = 10_000;

function event(kind: string, actorId: string, version: number, type: string, index = 0): DomainEvent {
  return {
    id: `${kind}:${actorId}:${version}:${index}`,
    type,
    actor: { kind, id: actorId },
    at: Date.UTC(2026, 0, 1) + version,
    data: { version },
  };
}

function orders(count: number, actorId = 'o1', firstVersion = 1): DomainEvent[] {
  return Array.from({ length: count }, (_, i) => event('order', actorId, firstVersion + i, 'ORDER_UPDATED'));
}

/** Records delivered ids; `seen(id)` resolves once the handler has run for that id. */
class Recorder {
  readonly ids: string[] = [];
  readonly #waiters = new Map<string, () => void>();

  constructor(private readonly before: (event: DomainEvent) => void = () => {}) {}

  readonly handler: EventHandler = async (event) => {
    this.ids.push(event.id);
    this.before(event);
    this.#waiters.get(event.id)?.();
  };

  seen(id: string): Promise<void> {
    if (this.ids.includes(id)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.set(id, resolve));
  }
}

async function publishAll(bus: EventBus, events: DomainEvent[]): Promise<void> {
  for (const e of events) await bus.publish(e);
}

function lastId(events: DomainEvent[]): string {
  const last = events.at(-1);
  if (!last) throw new Error('no events');
  return last.id;
}

export function eventBusContract(title: string, open: OpenBus): void {
  const setup = async (t: ExecutionContext, options?: BusDeadLetterOptions): Promise<EventBus> => {
    t.timeout(TIMEOUT_MS);
    const { bus, cleanup } = await open(options);
    t.teardown(cleanup);
    return bus;
  };

  /** A bus with a dead-letter store and FAST_POLICY, and a consumer on which `failing` always throws until `heal()`. */
  const withPoisonedConsumer = async (t: ExecutionContext, durable: string) => {
    const deadLetters = await openDeadLetters();
    const bus = await setup(t, { deadLetters, retryPolicy: FAST_POLICY });
    const events = orders(3);
    const [e0, e1, e2] = events;
    if (!e0 || !e1 || !e2) throw new Error('unreachable');
    let poisoned = true;
    const recorder = new Recorder((e) => {
      if (e.id === e1.id && poisoned) throw new Error(`cannot project ${e.id}`);
    });
    const subscription = await bus.consume({ durable }, recorder.handler);
    await publishAll(bus, events);
    await recorder.seen(e2.id);
    const letterId = DeadLetterStore.idOf(busDeadLetterKey(durable, e1.id));
    return { bus, deadLetters, events: [e0, e1, e2] as const, recorder, subscription, letterId, heal: () => (poisoned = false) };
  };

  test(`${title}: publish then consume delivers in order`, async (t) => {
    const bus = await setup(t);
    const recorder = new Recorder();
    await bus.consume({ durable: 'in-order' }, recorder.handler);
    const events = orders(10);
    await publishAll(bus, events);
    await recorder.seen(lastId(events));
    t.deepEqual(
      recorder.ids,
      events.map((e) => e.id),
    );
  });

  test(`${title}: a duplicate id is delivered once`, async (t) => {
    const bus = await setup(t);
    const [first, second] = orders(2);
    if (!first || !second) throw new Error('unreachable');
    await bus.publish(first);
    await bus.publish({ ...first, data: { republished: true } });
    await bus.publish(second);
    const recorder = new Recorder();
    await bus.consume({ durable: 'dedup' }, recorder.handler);
    await recorder.seen(second.id);
    t.deepEqual(recorder.ids, [first.id, second.id]);
  });

  test(`${title}: a durable consumer resumes after what it acknowledged`, async (t) => {
    const bus = await setup(t);
    const before = orders(3);
    await publishAll(bus, before);
    const firstRun = new Recorder();
    const subscription = await bus.consume({ durable: 'resume' }, firstRun.handler);
    await firstRun.seen(lastId(before));
    await subscription.stop();
    t.deepEqual(
      firstRun.ids,
      before.map((e) => e.id),
    );

    const after = orders(2, 'o1', 4);
    await publishAll(bus, after);
    const secondRun = new Recorder();
    await bus.consume({ durable: 'resume' }, secondRun.handler);
    await secondRun.seen(lastId(after));
    t.deepEqual(
      secondRun.ids,
      after.map((e) => e.id),
    );
    t.deepEqual(
      firstRun.ids,
      before.map((e) => e.id),
      'the stopped consumer got nothing more',
    );
  });

  test(`${title}: two durable names each get every event`, async (t) => {
    const bus = await setup(t);
    const events = orders(4);
    const a = new Recorder();
    const b = new Recorder();
    await bus.consume({ durable: 'projection-a' }, a.handler);
    await bus.consume({ durable: 'projection-b' }, b.handler);
    await publishAll(bus, events);
    await Promise.all([a.seen(lastId(events)), b.seen(lastId(events))]);
    t.deepEqual(
      a.ids,
      events.map((e) => e.id),
    );
    t.deepEqual(
      b.ids,
      events.map((e) => e.id),
    );
  });

  test(`${title}: kinds and types filter what a consumer sees`, async (t) => {
    const bus = await setup(t);
    const events = [
      event('order', 'o1', 1, 'ORDER_CREATED'),
      event('payment', 'p1', 1, 'PAYMENT_SETTLED'),
      event('order', 'o1', 2, 'ORDER_CANCELLED'),
      event('invoice', 'i1', 1, 'ORDER_CREATED'),
      event('payment', 'p1', 2, 'PAYMENT_FAILED'),
      // Matches every filter below, so it marks the end of each consumer's stream.
      event('order', 'o2', 1, 'ORDER_CREATED'),
    ];
    const byKind = new Recorder();
    const byType = new Recorder();
    const byBoth = new Recorder();
    const subscriptions: Subscription[] = [
      await bus.consume({ durable: 'kinds', kinds: ['order'] }, byKind.handler),
      await bus.consume({ durable: 'types', types: ['ORDER_CREATED'] }, byType.handler),
      await bus.consume({ durable: 'kinds-and-types', kinds: ['order', 'payment'], types: ['ORDER_CREATED', 'PAYMENT_SETTLED'] }, byBoth.handler),
    ];
    await publishAll(bus, events);
    const end = lastId(events);
    await Promise.all([byKind.seen(end), byType.seen(end), byBoth.seen(end)]);
    await Promise.all(subscriptions.map((s) => s.stop()));
    t.deepEqual(byKind.ids, ['order:o1:1:0', 'order:o1:2:0', 'order:o2:1:0']);
    t.deepEqual(byType.ids, ['order:o1:1:0', 'invoice:i1:1:0', 'order:o2:1:0']);
    t.deepEqual(byBoth.ids, ['order:o1:1:0', 'payment:p1:1:0', 'order:o2:1:0']);
  });

  test(`${title}: a failing handler gets the event again and later events wait`, async (t) => {
    const bus = await setup(t);
    const events = orders(3);
    const failing = events[1]?.id;
    let failed = false;
    const recorder = new Recorder((e) => {
      if (e.id === failing && !failed) {
        failed = true;
        throw new Error('handler failed once');
      }
    });
    await bus.consume({ durable: 'retry' }, recorder.handler);
    await publishAll(bus, events);
    await recorder.seen(lastId(events));
    const [e0, e1, e2] = events.map((e) => e.id);
    t.deepEqual(recorder.ids, [e0, e1, e1, e2]);
  });

  test(`${title}: events published before a consumer exists are delivered to it`, async (t) => {
    const bus = await setup(t);
    const early = orders(3);
    await publishAll(bus, early);
    const recorder = new Recorder();
    await bus.consume({ durable: 'late-joiner' }, recorder.handler);
    const late = orders(1, 'o1', 4);
    await publishAll(bus, late);
    await recorder.seen(lastId(late));
    t.deepEqual(
      recorder.ids,
      [...early, ...late].map((e) => e.id),
    );
  });

  test(`${title}: an event that always fails becomes a dead letter and does not block the events after it`, async (t) => {
    const { deadLetters, events, recorder, letterId } = await withPoisonedConsumer(t, 'poisoned');
    const [e0, e1, e2] = events;
    t.deepEqual(recorder.ids, [e0.id, e1.id, e1.id, e1.id, e2.id], 'three attempts (maxAttempts), then the next event');
    const letter = await deadLetters.get(letterId);
    t.like(letter, {
      _id: letterId,
      key: `bus:poisoned:${e1.id}`,
      source: 'bus',
      actor: null,
      consumer: 'poisoned',
      attempts: FAST_POLICY.maxAttempts,
      status: 'OPEN',
      resolution: null,
      error: { name: 'Error', message: `cannot project ${e1.id}`, code: null },
    });
    t.deepEqual(letter?.payload, e1 as unknown, 'the payload is the event as published');
    t.true(letter!.firstAttemptAt <= letter!.lastAttemptAt);
    t.is(await deadLetters.count(), 1);
  });

  test(`${title}: retrying a bus letter through the store redelivers the event to the live consumer`, async (t) => {
    const { deadLetters, events, recorder, letterId, heal } = await withPoisonedConsumer(t, 'redeliver');
    const [, e1] = events;
    heal();
    const before = recorder.ids.length;
    const retried = await deadLetters.retry(letterId, 'test');
    t.is(retried.status, 'RETRIED');
    t.deepEqual(recorder.ids.slice(before), [e1.id], 'delivered once more, to the same consumer');
    t.like(await deadLetters.get(letterId), { status: 'RETRIED', resolution: 'retried' });
    t.is(await deadLetters.count(), 0);
  });

  test(`${title}: a retry the handler fails again, or with no consumer of that name running, leaves the letter open`, async (t) => {
    const { deadLetters, events, recorder, subscription, letterId, heal } = await withPoisonedConsumer(t, 'refusing');
    const [, e1] = events;
    const failed = await t.throwsAsync(deadLetters.retry(letterId, 'test'), { instanceOf: CommandRejectedError });
    t.like(failed, { code: 'DEAD_LETTER_RETRY_FAILED', status: 422 });
    t.is(recorder.ids.at(-1), e1.id, 'the handler did get the event');
    t.like(await deadLetters.get(letterId), { status: 'OPEN' });

    await subscription.stop();
    heal();
    const count = recorder.ids.length;
    const refused = await t.throwsAsync(deadLetters.retry(letterId, 'test'), { instanceOf: CommandRejectedError });
    t.like(refused, { code: 'CONSUMER_NOT_RUNNING', status: 409 });
    t.is(recorder.ids.length, count, 'a stopped consumer gets nothing');
    t.like(await deadLetters.get(letterId), { status: 'OPEN' });
  });

  test(`${title}: without a dead-letter store a failing event is retried past maxAttempts and still holds back the rest`, async (t) => {
    const bus = await setup(t, { retryPolicy: { ...FAST_POLICY, maxAttempts: 2 } });
    const events = orders(3);
    const failing = events[1]?.id;
    let failures = 0;
    const recorder = new Recorder((e) => {
      if (e.id === failing && failures < 4) {
        failures += 1;
        throw new Error('not yet');
      }
    });
    await bus.consume({ durable: 'no-store' }, recorder.handler);
    await publishAll(bus, events);
    await recorder.seen(lastId(events));
    const [e0, e1, e2] = events.map((e) => e.id);
    t.deepEqual(recorder.ids, [e0, e1, e1, e1, e1, e1, e2]);
  });

  test(`${title}: status reports connected`, async (t) => {
    const bus = await setup(t);
    t.true((await bus.status()).connected);
  });
}
