/**
 * The cluster's budgets (gateway/limits/) over the local stand-in for MongoDB: several
 * nodes' clients of one served store, taking from one key at once, never allow more
 * than the limit in a window; a window ends on the clock that opened it; closed
 * windows are swept; and a store that fails or hangs degrades every node to its share
 * of the limit, said once in the log, until the store counts again.
 */
import test, { type ExecutionContext } from 'ava';
import { MongoClient } from 'mongodb';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { createLogger } from '../../../actors/logger.js';
import { EmbeddedStore } from '../../../actors/store/embedded-store.js';
import { MongoStore } from '../../../actors/store/mongo-store.js';
import { SocketStore, SocketStoreServer } from '../../../actors/store/socket/index.js';
import type { Collection, Store } from '../../../actors/store/store.js';
import { type Budget, Budgets, WINDOWS_COLLECTION } from '../../../gateway/limits/index.js';

const START = Date.UTC(2026, 0, 1);

interface Cluster {
  server: SocketStoreServer;
  served: EmbeddedStore;
  clients: SocketStore[];
  clock: { now: number };
  logged: Array<{ level: number; msg: string }>;
}

async function cluster(t: ExecutionContext, nodes: number): Promise<Cluster> {
  const served = new EmbeddedStore();
  const server = await SocketStoreServer.start({ store: served });
  const clients = await Promise.all(Array.from({ length: nodes }, () => SocketStore.connect({ port: server.port, connectTimeoutMs: 500 })));
  t.teardown(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
  });
  return { server, served, clients, clock: { now: START }, logged: [] };
}

function budgetsOf(c: Cluster, store: Store, options: { liveNodes?: number; timeoutMs?: number } = {}): Budgets {
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void c.logged.push(JSON.parse(line)) } });
  return new Budgets({ store, logger, now: () => c.clock.now, liveNodes: () => options.liveNodes ?? 1, timeoutMs: options.timeoutMs ?? 2_000, pauseMs: 5_000 });
}

/** Consumes once: true when allowed, false when refused with the library's result; anything else fails the test. */
async function allowed(budget: Budget, key: string): Promise<boolean> {
  try {
    await budget.consume(key);
    return true;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return false;
    throw rejection;
  }
}

async function windowsIn(store: Store): Promise<Collection> {
  return store.collection({ name: WINDOWS_COLLECTION, indexes: [] });
}

/** 180 takers at once on one key, spread over `stores` (one client per node), for a limit of 25. */
async function concurrentTakers(t: ExecutionContext, c: Cluster, stores: Store[]): Promise<void> {
  const limit = 25;
  const budgets = stores.map((store) => budgetsOf(c, store).budget('address', limit, 60));
  const outcomes = await Promise.all(Array.from({ length: 3 * 60 }, (_, i) => allowed(budgets[i % budgets.length]!, '198.51.100.7')));
  t.is(outcomes.filter(Boolean).length, limit, 'exactly the limit: the conditional increment never passes it');
  const refused = await budgets[0]!.consume('198.51.100.7').catch((rejection: unknown) => rejection);
  t.true(refused instanceof RateLimiterRes);
  t.is((refused as RateLimiterRes).remainingPoints, 0);
  t.is((refused as RateLimiterRes).msBeforeNext, 60_000, 'the window the first request opened, on the clock that opened it');
  t.is((await (await windowsIn(stores[0]!)).findOne({ _id: 'address:198.51.100.7' }))?.points, limit, 'the count stops at the limit');
}

test('many concurrent takers on three nodes never get more than the limit of one key, and the refused see none left', async (t) => {
  const c = await cluster(t, 3);
  await concurrentTakers(t, c, c.clients);
});

const mongoUri = process.env.MONGODB_URI;
if (mongoUri) {
  test('on MongoDB too: three clients of one database, many concurrent takers, never more than the limit', async (t) => {
    const c = await cluster(t, 0);
    const dbName = `rate_limits_${process.pid}_${Date.now()}`;
    const stores = await Promise.all([0, 1, 2].map(() => MongoStore.connect(mongoUri, { dbName })));
    t.teardown(async () => {
      await Promise.all(stores.map((store) => store.close()));
      const client = await MongoClient.connect(mongoUri);
      await client.db(dbName).dropDatabase();
      await client.close();
    });
    await concurrentTakers(t, c, stores);
  });
} else {
  test.skip('on MongoDB too: MONGODB_URI is not set', () => {});
}

test('the window ends on the budgets’ clock: a minute later the key has its whole budget again, on every node', async (t) => {
  const c = await cluster(t, 2);
  const [a, b] = c.clients.map((client) => budgetsOf(c, client).budget('merchant-actions', 2, 60));
  t.true(await allowed(a!, 'm1'));
  c.clock.now += 30_000;
  const second = await b!.consume('m1');
  t.is(second.remainingPoints, 0);
  t.is(second.msBeforeNext, 30_000, 'one window for both nodes, opened by the first request');
  t.false(await allowed(a!, 'm1'));
  t.false(await allowed(b!, 'm1'));
  c.clock.now += 30_000;
  const renewed = await a!.consume('m1');
  t.is(renewed.remainingPoints, 1);
  t.is(renewed.msBeforeNext, 60_000);
  t.true(await allowed(b!, 'm1'));
  t.false(await allowed(a!, 'm1'));
});

test('limits of different names count apart for one key', async (t) => {
  const c = await cluster(t, 1);
  const budgets = budgetsOf(c, c.clients[0]!);
  const reads = budgets.budget('merchant-reads', 1, 60);
  const actions = budgets.budget('merchant-actions', 1, 60);
  t.true(await allowed(reads, 'm1'));
  t.true(await allowed(actions, 'm1'));
  t.false(await allowed(reads, 'm1'));
});

test('windows closed for a minute are swept by the next count after it, whatever their key', async (t) => {
  const c = await cluster(t, 1);
  const budget = budgetsOf(c, c.clients[0]!).budget('address', 5, 60);
  for (const key of ['a', 'b', 'c']) await budget.consume(key);
  const windows = await windowsIn(c.served);
  t.is(await windows.count({}), 3);
  c.clock.now += 60_000 + 60_000 + 1;
  await budget.consume('d');
  await eventuallyEqual(t, () => windows.count({}), 1, 'only the window just opened is left');
});

test('while the store cannot be reached each node allows its share of the limit, logs that once, and counts in the store again after', async (t) => {
  const c = await cluster(t, 1);
  const budgets = budgetsOf(c, c.clients[0]!, { liveNodes: 3 });
  const address = budgets.budget('address', 10, 60);
  const reads = budgets.budget('merchant-reads', 10, 60);
  t.true(await allowed(address, 'k'), 'counted in the store');
  c.server.disconnectAll({ refuse: true });
  const outcomes: boolean[] = [];
  for (let i = 0; i < 6; i++) outcomes.push(await allowed(address, 'k'));
  t.deepEqual(outcomes, [true, true, true, false, false, false], 'a third of 10, rounded down, on this node');
  t.true(await allowed(reads, 'k'), 'another limit falls back too, to its own share');
  const warnings = c.logged.filter((line) => line.level === 40);
  t.is(warnings.length, 1, 'one warning for the outage, not one per request or per limit');
  t.regex(warnings[0]!.msg, /share/);
  c.server.accept();
  c.clock.now += 5_000;
  const back = await address.consume('k');
  t.is(back.remainingPoints, 8, 'the store’s window again: the one request before the outage and this one');
  t.is(c.logged.filter((line) => line.level === 30 && /again/.test(line.msg)).length, 1);
});

test('a store that hangs is given up on after the timeout, and left alone for the pause', async (t) => {
  const c = await cluster(t, 1);
  let asked = 0;
  const hanging: Store = {
    adapter: 'socket',
    collection: () => {
      asked++;
      return new Promise(() => {});
    },
    status: async () => ({ connected: false }),
    close: async () => {},
  };
  const budget = budgetsOf(c, hanging, { liveNodes: 2, timeoutMs: 50 }).budget('wallet-history', 4, 60);
  const started = Date.now();
  t.deepEqual([await allowed(budget, 'w'), await allowed(budget, 'w'), await allowed(budget, 'w')], [true, true, false]);
  t.true(Date.now() - started < 1_000, 'only the first request waited for the timeout');
  t.is(asked, 1);
  c.clock.now += 5_000;
  t.false(await allowed(budget, 'w'), 'still this node’s share, spent');
  t.is(asked, 2, 'after the pause the store is asked again, not the hanging declaration waited on');
  t.is(c.logged.filter((line) => line.level === 40).length, 1);
});

async function eventuallyEqual(t: ExecutionContext, read: () => Promise<number>, expected: number, message: string): Promise<void> {
  let value = await read();
  for (let i = 0; i < 100 && value !== expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = await read();
  }
  t.is(value, expected, message);
}
