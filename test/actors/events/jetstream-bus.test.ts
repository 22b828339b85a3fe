/**
 * Runs the contract on the machine's shared nats-server. Each test gets its own
 * namespace, hence its own memory-stored stream, and deletes only that stream.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { CommandRejectedError } from '../../../actors/errors.js';
import type { BusDeadLetterOptions, DomainEvent } from '../../../actors/events/event-bus.js';
import { JetStreamBus, eventStreamName } from '../../../actors/events/jetstream-bus.js';
import { DeadLetterStore } from '../../../actors/runtime/dead-letters.js';
import { eventually } from '../../support/nats.js';
import { FAST_POLICY, eventBusContract, openDeadLetters } from './contract.js';

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

async function openBus(options: BusDeadLetterOptions = {}, namespace = uniqueNamespace()) {
  const nc = await connectLocal();
  const bus = await JetStreamBus.connect(nc, { namespace, storage: 'memory', ...options });
  const cleanup = async (): Promise<void> => {
    await bus.close();
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(eventStreamName(namespace));
    await nc.close();
  };
  return { bus, nc, namespace, cleanup };
}

eventBusContract('JetStreamBus', (options) => openBus(options));

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

test('JetStreamBus: messages that are not domain events become dead letters with their raw bytes, and the consumer moves on', async (t) => {
  t.timeout(10_000);
  const deadLetters = await openDeadLetters();
  const { bus, nc, namespace, cleanup } = await openBus({ deadLetters, retryPolicy: FAST_POLICY });
  t.teardown(cleanup);
  const js = jetstream(nc);
  const subject = `${namespace}.events.order.o1.ORDER_UPDATED`;
  const notJson = await js.publish(subject, 'not json {', { msgID: 'broken-1' });
  const notUtf8 = await js.publish(subject, new Uint8Array([0xff, 0xfe, 0x7b]));
  const notAnEvent = await js.publish(subject, JSON.stringify({ hello: 'world' }));
  const good: DomainEvent = { id: 'order:o1:1:0', type: 'ORDER_UPDATED', actor: { kind: 'order', id: 'o1' }, at: Date.UTC(2026, 0, 1), data: {} };
  await bus.publish(good);
  const seen: string[] = [];
  await bus.consume({ durable: 'raw' }, async (event) => void seen.push(event.id));
  await eventually(() => seen.includes(good.id), 'the event after the undecodable messages');
  t.deepEqual(seen, [good.id], 'the handler never saw the undecodable messages');

  const letter = (id: string) => deadLetters.get(DeadLetterStore.idOf(`bus:raw:${id}`));
  t.like(await letter('broken-1'), {
    source: 'bus',
    consumer: 'raw',
    attempts: 1,
    status: 'OPEN',
    error: { name: 'SyntaxError', code: null },
    payload: { subject, streamSequence: notJson.seq, text: 'not json {' },
  });
  t.like(await letter(`seq-${notUtf8.seq}`), { payload: { subject, streamSequence: notUtf8.seq, base64: Buffer.from([0xff, 0xfe, 0x7b]).toString('base64') } });
  t.like(await letter(`seq-${notAnEvent.seq}`), { error: { name: 'TypeError' }, payload: { text: '{"hello":"world"}' } });
  t.is(await deadLetters.count(), 3);

  const refused = await t.throwsAsync(deadLetters.retry(DeadLetterStore.idOf('bus:raw:broken-1'), 'test'), { instanceOf: CommandRejectedError });
  t.like(refused, { code: 'DEAD_LETTER_NOT_RETRYABLE', status: 409 });
  t.like(await letter('broken-1'), { status: 'OPEN' });
});

test('JetStreamBus: a dead letter is filed with the server’s delivery count and the message is terminated, so a restarted consumer does not get it again', async (t) => {
  t.timeout(10_000);
  const deadLetters = await openDeadLetters();
  const { bus, cleanup } = await openBus({ deadLetters, retryPolicy: FAST_POLICY });
  t.teardown(cleanup);
  const poison: DomainEvent = { id: 'order:o9:1:0', type: 'ORDER_UPDATED', actor: { kind: 'order', id: 'o9' }, at: Date.UTC(2026, 0, 1), data: {} };
  await bus.publish(poison);
  const tries: string[] = [];
  const first = await bus.consume({ durable: 'terminated' }, async (event) => {
    tries.push(event.id);
    throw new Error('always');
  });
  await eventually(async () => (await deadLetters.count()) === 1, 'the dead letter');
  await first.stop();
  t.deepEqual(tries, [poison.id, poison.id, poison.id]);
  t.like(await deadLetters.get(DeadLetterStore.idOf(`bus:terminated:${poison.id}`)), { attempts: 3 });

  const after: DomainEvent = { ...poison, id: 'order:o9:2:0' };
  await bus.publish(after);
  const seen: string[] = [];
  await bus.consume({ durable: 'terminated' }, async (event) => void seen.push(event.id));
  await eventually(() => seen.includes(after.id), 'the next event');
  t.deepEqual(seen, [after.id]);
});
