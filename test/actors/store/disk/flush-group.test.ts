import test from 'ava';
import { FlushGroup } from '../../../../actors/store/disk/flush-group.js';

/** A sync whose end the test decides. */
function controlledSync() {
  const calls: Array<{ done(): void; fail(error: Error): void }> = [];
  const sync = () => new Promise<void>((done, fail) => calls.push({ done, fail }));
  return { calls, sync };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('flush group: the writes of one turn share a sync; writes during a sync wait for the next', async (t) => {
  const { calls, sync } = controlledSync();
  const group = new FlushGroup(sync);
  const order: string[] = [];
  const first = [group.durable(), group.durable()].map((promise, i) => promise.then(() => order.push(`a${i}`)));
  await turn();
  t.is(calls.length, 1, 'one sync for the turn');
  const second = group.durable().then(() => order.push('b'));
  t.truthy(group.settled(), 'a read waits while anything is unsynced');
  calls[0]!.done();
  await Promise.all(first);
  t.deepEqual(order, ['a0', 'a1'], 'the write after the sync started is not durable yet');
  await turn();
  t.is(calls.length, 2);
  calls[1]!.done();
  await second;
  t.deepEqual(order, ['a0', 'a1', 'b']);
  t.is(group.settled(), null, 'nothing waits once everything is synced');
});

test('flush group: a failed sync fails its writes, the waiting ones and every later one', async (t) => {
  const { calls, sync } = controlledSync();
  const group = new FlushGroup(sync);
  const first = group.durable();
  await turn();
  const waiting = group.durable();
  calls[0]!.fail(new Error('EIO'));
  await t.throwsAsync(first, { message: 'EIO' });
  await t.throwsAsync(waiting, { message: 'EIO' });
  await t.throwsAsync(group.durable(), { message: 'EIO' });
  t.is(group.failure?.message, 'EIO');
  t.is(calls.length, 1, 'nothing is synced after a failure');
});
