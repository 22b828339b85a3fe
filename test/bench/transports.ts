/**
 * Ask throughput and latency per transport, each beside its baseline measured in
 * the same run: a bare async function call for the embedded transport, raw NATS
 * request/reply to a trivial responder for the NATS transport.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { EmbeddedStore, TestClock, createLogger, loadConfig, shardOf } from '../../actors/index.js';
import { startNode } from '../../deploy/node.js';
import { tallyKind } from './tally-kind.js';
import { SHARED_NATS_URL, removeNamespace, uniqueNamespace } from '../support/nats.js';
import { startTestSystem } from '../support/test-node.js';
import { closedLoop, type Comparison } from './harness.js';

const LEVELS = [1, 16, 256];
const ACTORS = 64;

/**
 * Each of the 64 actors takes a few hundred asks, so past its 64 inline ids every
 * ask also pays its share of moving ids to the message log (the durable dedupe).
 * `durable` runs the same asks over the embedded store that keeps its data on disk.
 */
export async function embeddedTransport(total: number, { durable = false } = {}): Promise<Comparison> {
  const dataDir = durable ? await mkdtemp(join(tmpdir(), 'bench-asks-')) : undefined;
  const store = dataDir ? await EmbeddedStore.open({ dataDir }) : new EmbeddedStore();
  const { system } = await startTestSystem({ kinds: [tallyKind], store });
  const ids = Array.from({ length: ACTORS }, (_, i) => `b${i}`);
  await Promise.all(ids.map((id) => system.askAt({ kind: 'tally', id }, { type: 'OPEN' })));
  let sink = 0;
  const bare = async (i: number) => {
    sink += i;
    return sink;
  };
  const rows = [];
  for (const inFlight of LEVELS) {
    const base = await closedLoop(bare, inFlight, total * 10);
    const subject = await closedLoop((i) => system.askAt({ kind: 'tally', id: ids[i % ACTORS]! }, { type: 'ADD', n: 1 }), inFlight, total);
    rows.push({ subject, base });
  }
  await system.drain();
  await store.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  const name = durable ? 'Embedded transport over the durable store (DATA_DIR): ask' : 'Embedded transport: ask (one turn and one store write each)';
  return { name, baseline: 'bare async function call', rows };
}

export async function natsTransport(total: number): Promise<Comparison> {
  const namespace = uniqueNamespace('bench');
  const store = new EmbeddedStore();
  const clock = new TestClock();
  const config = (nodeId: string) => ({
    ...loadConfig({}),
    NODE_ID: nodeId,
    PORT: 0,
    LOG_LEVEL: 'silent' as const,
    NATS_URL: SHARED_NATS_URL,
    NATS_NAMESPACE: namespace,
    SHARD_COUNT: 16,
  });
  const logger = createLogger({ level: 'silent' });
  const caller = await startNode({ config: config('caller'), kinds: [tallyKind], store, clock, logger });
  const owner = await startNode({ config: config('owner'), kinds: [tallyKind], store, clock, logger });
  const raw = await connect({ servers: SHARED_NATS_URL });
  try {
    // Wait until the shards are split, then address only actors the caller does not serve, so every ask crosses NATS.
    for (let i = 0; i < 200; i++) {
      const mine = caller.transport.ownedShards();
      if (mine !== 'all' && mine.size === 8) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const callerShards = caller.transport.ownedShards() as ReadonlySet<number>;
    const ids: string[] = [];
    for (let i = 0; ids.length < ACTORS; i++) if (!callerShards.has(shardOf(`n${i}`, 16))) ids.push(`n${i}`);
    await Promise.all(ids.map((id) => caller.system.askAt({ kind: 'tally', id }, { type: 'OPEN' })));

    const subject = `${namespace}.bench.echo`;
    const responder = raw.subscribe(subject, {
      callback: (_error, msg) => {
        msg.respond(msg.data);
      },
    });
    const client = await connect({ servers: SHARED_NATS_URL });
    const payload = JSON.stringify({ address: { kind: 'tally', id: 'n0' }, message: { id: 'x', event: { type: 'ADD', n: 1 } } });
    const rows = [];
    for (const inFlight of LEVELS) {
      const base = await closedLoop(() => client.request(subject, payload, { timeout: 10_000 }), inFlight, total);
      const measured = await closedLoop((i) => caller.system.askAt({ kind: 'tally', id: ids[i % ACTORS]! }, { type: 'ADD', n: 1 }), inFlight, total);
      rows.push({ subject: measured, base });
    }
    responder.unsubscribe();
    await client.close();
    return {
      name: 'NATS transport: ask to an actor on another node (one turn and one store write each)',
      baseline: 'raw NATS request/reply to a trivial responder',
      rows,
    };
  } finally {
    await raw.close();
    await Promise.allSettled([caller.stop(), owner.stop()]);
    await removeNamespace(namespace);
  }
}
