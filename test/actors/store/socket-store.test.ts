/**
 * The socket-served store of the multi-process tests (actors/store/socket/socket-store-server.ts,
 * actors/store/socket/socket-store.ts) owes the runtime what every adapter owes it: the
 * shared contract suite, run through a real loopback socket. Then what is its own:
 * bigint and Date values cross, DuplicateKeyError keeps its class, and a lost
 * connection fails the calls in flight and is reopened by the next call.
 */
import test, { type ExecutionContext } from 'ava';
import { DuplicateKeyError } from '../../../actors/errors.js';
import { EmbeddedStore } from '../../../actors/store/embedded-store.js';
import type { Store } from '../../../actors/store/store.js';
import { interceptedStore } from '../../support/intercepted-store.js';
import { eventually } from '../../support/nats.js';
import { SocketStore, StoreConnectionLostError, StoreUnavailableError } from '../../../actors/store/socket/index.js';
import { SocketStoreServer } from '../../../actors/store/socket/index.js';
import { storeContract } from './contract.js';

let shared: Promise<{ server: SocketStoreServer; client: SocketStore }> | undefined;
function openShared() {
  shared ??= (async () => {
    const server = await SocketStoreServer.start({ store: new EmbeddedStore() });
    return { server, client: await SocketStore.connect({ port: server.port }) };
  })();
  return shared;
}

storeContract('remote', async () => (await openShared()).client);

test.after.always(async () => {
  if (!shared) return;
  const { server, client } = await shared;
  await client.close();
  await server.close();
});

test('remote: bigint values and dates survive the wire, nested and in filters', async (t) => {
  const client = await servedStore(t);
  const collection = await client.collection({ name: 'money', indexes: [] });
  const at = new Date('2026-01-01T00:00:00.000Z');
  await collection.insertOne({ _id: 'm1', amount: 123456789012345678901234567890n, at, list: [1n, { deeper: -5n }] });
  t.deepEqual(await collection.findOne({ _id: 'm1' }), { _id: 'm1', amount: 123456789012345678901234567890n, at, list: [1n, { deeper: -5n }] });
  t.is(await collection.count({ at: { $gte: new Date('2025-12-31T00:00:00.000Z') } }), 1);
  t.is(await collection.count({ _id: { $regex: /^M/i } }), 1, 'a RegExp crosses as a RegExp');
});

test('remote: a DuplicateKeyError crosses as its own class with collection and key', async (t) => {
  const client = await servedStore(t);
  const collection = await client.collection({ name: 'unique', indexes: [{ key: { email: 1 }, unique: true, name: 'email_unique' }] });
  await collection.insertOne({ _id: 'a', email: 'x@y' });
  const error = await t.throwsAsync(collection.insertOne({ _id: 'b', email: 'x@y' }), { instanceOf: DuplicateKeyError });
  t.is(error?.collection, 'unique');
  t.true(error?.key.startsWith('email_unique'));
});

/** A store whose reads of `held` wait until released, so a call can be in flight when the connection breaks. */
/** A client of a fresh embedded store served over a socket; both closed when the test ends. */
async function servedStore(t: ExecutionContext): Promise<SocketStore> {
  const server = await SocketStoreServer.start({ store: new EmbeddedStore() });
  const client = await SocketStore.connect({ port: server.port });
  t.teardown(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

function gatedStore(inner: Store): { store: Store; release(): void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const store = interceptedStore(inner, (_spec, collection) => ({
    findOne: async (filter, options) => {
      if (filter._id === 'held') await gate;
      return collection.findOne(filter, options);
    },
  }));
  return { store, release: () => release() };
}

test('remote: a lost connection rejects the calls in flight; the next call reconnects; a server that is gone fails fast', async (t) => {
  const gated = gatedStore(new EmbeddedStore());
  const server = await SocketStoreServer.start({ store: gated.store });
  const client = await SocketStore.connect({ port: server.port, connectTimeoutMs: 1_000 });
  t.teardown(async () => {
    gated.release();
    await client.close();
    await server.close();
  });
  const collection = await client.collection({ name: 'flaky', indexes: [] });
  await collection.insertOne({ _id: 'held', n: 1 });

  const inFlight = collection.findOne({ _id: 'held' });
  // The request must reach the server before the link is cut.
  const served = server.requests;
  await eventually(() => server.requests > served, 'the request reaching the server', 5_000);
  server.disconnectAll();
  const lost = await t.throwsAsync(inFlight, { instanceOf: StoreConnectionLostError });
  t.regex(lost!.message, /may or may not have been applied/);

  t.deepEqual(await collection.findOne({ _id: 'other' }), null, 'the next call opens a new connection');
  t.true((await client.status()).connected);

  await server.close();
  // Whether a call made just now meets the dying socket or a refused connection depends on when the client hears of the close.
  t.deepEqual(await client.status(), { connected: false });
  const started = Date.now();
  await t.throwsAsync(collection.findOne({ _id: 'other' }), { instanceOf: StoreUnavailableError });
  t.true(Date.now() - started < 1_500, 'a call with no server fails at once, not after a hidden retry');
});
