/**
 * Runs the contract on the machine's shared nats-server. Each test gets its own
 * namespace, hence its own memory-stored stream, and deletes only that stream.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { JetStreamBus, eventStreamName } from '../../../actors/events/jetstream-bus.js';
import { eventBusContract } from './contract.js';

const NATS_URL = 'nats://127.0.0.1:4222';

async function connectLocal(): Promise<NatsConnection> {
  try {
    return await connect({ servers: NATS_URL, timeout: 3_000, reconnect: false });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`JetStreamBus tests need the local NATS server with JetStream at ${NATS_URL}, which is not reachable: ${reason}`);
  }
}

function uniqueNamespace(): string {
  return `t${process.pid}_${randomBytes(4).toString('hex')}`;
}

async function openBus(namespace = uniqueNamespace()) {
  const nc = await connectLocal();
  const bus = await JetStreamBus.connect(nc, { namespace, storage: 'memory' });
  const cleanup = async (): Promise<void> => {
    await bus.close();
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(eventStreamName(namespace));
    await nc.close();
  };
  return { bus, nc, namespace, cleanup };
}

eventBusContract('JetStreamBus', openBus);

test('JetStreamBus: connect is idempotent and names the stream after the namespace', async (t) => {
  t.timeout(10_000);
  const { nc, namespace, cleanup } = await openBus();
  t.teardown(cleanup);
  const again = await JetStreamBus.connect(nc, { namespace, storage: 'memory', duplicateWindowMs: 60_000 });
  const info = await (await jetstreamManager(nc)).streams.info(eventStreamName(namespace));
  t.is(info.config.name, `${namespace.toUpperCase()}_EVENTS`);
  t.deepEqual(info.config.subjects, [`${namespace}.events.>`]);
  t.is(info.config.duplicate_window, 60_000 * 1_000_000);
  await again.close();
});

test('JetStreamBus: status reports the round-trip time and close leaves the connection open', async (t) => {
  t.timeout(10_000);
  const { bus, nc, cleanup } = await openBus();
  t.teardown(cleanup);
  const status = await bus.status();
  t.true(status.connected);
  t.is(typeof status.responseTimeMs, 'number');
  await bus.close();
  t.false(nc.isClosed());
});

test('JetStreamBus: status is disconnected once the connection is closed', async (t) => {
  t.timeout(10_000);
  const namespace = uniqueNamespace();
  const nc = await connectLocal();
  const bus = await JetStreamBus.connect(nc, { namespace, storage: 'memory' });
  await (await jetstreamManager(nc)).streams.delete(eventStreamName(namespace));
  await nc.close();
  t.deepEqual(await bus.status(), { connected: false });
});
