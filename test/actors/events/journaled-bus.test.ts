import test from 'ava';
import type { DomainEvent } from '../../../actors/events/event-bus.js';
import { BusJournal } from '../../../actors/events/bus-journal.js';
import { MemoryBus } from '../../../actors/events/memory-bus.js';
import { EmbeddedStore } from '../../../actors/store/embedded-store.js';
import { eventBusContract } from './contract.js';

eventBusContract('MemoryBus with a journal', async (options) => {
  const store = new EmbeddedStore();
  const bus = await MemoryBus.open({ ...options, journal: await BusJournal.open(store) });
  return { bus, cleanup: async () => (await bus.close(), await store.close()) };
});

const at = Date.UTC(2026, 0, 1);
const orderEvent = (version: number): DomainEvent => ({
  id: `order:o1:${version}:0`,
  type: 'ORDER_UPDATED',
  actor: { kind: 'order', id: 'o1' },
  at,
  data: { version },
});

/** The versions of the next `count` events `durable` takes; then the consumer stops. */
async function take(bus: MemoryBus, durable: string, count: number): Promise<number[]> {
  const seen: number[] = [];
  let enough!: () => void;
  const done = new Promise<void>((resolve) => (enough = resolve));
  const subscription = await bus.consume({ durable }, async (event) => {
    if (seen.length === count) throw new Error('past the events asked for');
    seen.push(event.data.version as number);
    if (seen.length === count) enough();
  });
  await done;
  await subscription.stop();
  return seen;
}

test('a bus opened again over the same store delivers what its consumer had not taken, and no id twice', async (t) => {
  const store = new EmbeddedStore();
  t.teardown(() => store.close());
  const first = await MemoryBus.open({ journal: await BusJournal.open(store) });
  for (const version of [1, 2, 3]) await first.publish(orderEvent(version));
  t.deepEqual(await take(first, 'webhooks', 3), [1, 2, 3]);
  await first.publish(orderEvent(4));
  // The process ends before anyone took event 4; positions are written on close.
  await first.close();

  const second = await MemoryBus.open({ journal: await BusJournal.open(store) });
  t.teardown(() => second.close());
  // A republish after a crash (the outbox had not heard the first publish land) is the same event.
  await second.publish(orderEvent(4));
  await second.publish(orderEvent(5));
  t.deepEqual(await take(second, 'webhooks', 2), [4, 5]);
  t.deepEqual(await take(second, 'from-the-start', 5), [1, 2, 3, 4, 5], 'the journal holds each id once');
});

test('a bus that was never closed (a killed process) delivers again from the last position it wrote: nothing is lost', async (t) => {
  const store = new EmbeddedStore();
  t.teardown(() => store.close());
  const killed = await MemoryBus.open({ journal: await BusJournal.open(store) });
  for (const version of [1, 2]) await killed.publish(orderEvent(version));
  // Consumed but never closed: its position may or may not have been written.
  t.deepEqual(await take(killed, 'webhooks', 2), [1, 2]);
  await killed.publish(orderEvent(3));

  const reopened = await MemoryBus.open({ journal: await BusJournal.open(store) });
  t.teardown(() => reopened.close());
  const seen = await take(reopened, 'webhooks-after', 3);
  t.deepEqual(seen, [1, 2, 3], 'a consumer new to the journal reads it from the start');
  const resumed: number[] = [];
  await new Promise<void>((resolve) => {
    void reopened.consume({ durable: 'webhooks' }, async (event) => {
      resumed.push(event.data.version as number);
      if (event.data.version === 3) resolve();
    });
  });
  t.deepEqual(resumed.slice(-1), [3]);
  t.true(
    resumed.every((version, index) => index === 0 || version > resumed[index - 1]!),
    'in order',
  );
  await killed.close();
});

test('old events leave the journal as they leave the log', async (t) => {
  const store = new EmbeddedStore();
  t.teardown(() => store.close());
  const bus = await MemoryBus.open({ journal: await BusJournal.open(store), maxEvents: 10 });
  for (let version = 0; version < 12; version++) await bus.publish(orderEvent(version));
  await bus.close();
  const reopened = await MemoryBus.open({ journal: await BusJournal.open(store), maxEvents: 10 });
  t.teardown(() => reopened.close());
  const seen = await take(reopened, 'late', 10);
  t.is(seen[0], 2);
});
