import test from 'ava';
import { MemoryBus } from '../../../actors/events/memory-bus.js';
import { eventBusContract } from './contract.js';

eventBusContract('MemoryBus', async () => {
  const bus = new MemoryBus();
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
  await t.throwsAsync(bus.consume({ durable: 'single' }, async () => {}), { message: /already consuming/ });
});
