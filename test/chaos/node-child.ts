/**
 * One node of the chaos cluster, run as a child process of the test
 * (`fork(..., { execArgv: ['--import', 'tsx'], serialization: 'advanced' })`).
 *
 * It reaches the shared store over the parent's socket (SocketStore), NATS through
 * its own TCP proxy in the parent (so the parent can cut it off), and assembles an
 * ActorSystem the way deploy/node.ts does for a cluster: NatsTransport with shard
 * leases, an in-process MemoryBus (the account kind emits no domain events), a
 * SystemClock and real timer polling. It then asks what the parent tells it to over
 * IPC and answers with the reply or the error's name and code.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { pino } from 'pino';
import { ActorSystem, CommandRejectedError, MemoryBus, NatsTransport, SystemClock, createLogger } from '../../actors/index.js';
import { SocketStore } from '../../actors/store/socket/index.js';
import { accountKind } from './account-kind.js';
import { loopMonitor } from './loop-monitor.js';
import type { ChildInit, ChildReply, ChildRequest } from './protocol.js';

const loop = loopMonitor();

function send(message: ChildReply): void {
  process.send?.(message);
}

// The parent went away (it failed, or its teardown ran): a node must not outlive the test.
process.on('disconnect', () => process.exit(1));

let system: ActorSystem | undefined;
let nc: NatsConnection | undefined;
let store: SocketStore | undefined;
let transport: NatsTransport | undefined;

async function start(init: ChildInit): Promise<void> {
  const logger = createLogger({ level: init.logLevel, destination: pino.destination({ dest: init.logFile, sync: false, mkdir: true }) }).child({
    node: init.nodeId,
  });
  store = await SocketStore.connect({ port: init.storePort, callTimeoutMs: 10_000 });
  nc = await connect({
    servers: init.natsUrl,
    name: init.nodeId,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 200,
    reconnectJitter: 50,
    pingInterval: 1_000,
    maxPingOut: 2,
  });
  void (async () => {
    for await (const status of nc!.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') logger.warn({ status: status.type }, 'nats connection status');
    }
  })();
  transport = new NatsTransport({
    nc,
    namespace: init.namespace,
    nodeId: init.nodeId,
    shardCount: init.shardCount,
    leaseTtlMs: init.leaseTtlMs,
    logger,
  });
  const clock = new SystemClock();
  system = new ActorSystem({
    store,
    transport,
    bus: new MemoryBus({ logger, clock }),
    clock,
    logger,
    shardCount: init.shardCount,
    cacheSize: 1_000,
    askTimeoutMs: init.askTimeoutMs,
    attemptTimeoutMs: init.attemptTimeoutMs,
    timerPollMs: 250,
    sweepIntervalMs: 500,
    handoverWaitMs: init.leaseTtlMs / 2,
  });
  system.register(accountKind(init.nodeId, init.recorderUrl));
  await system.start();
}

async function handle(request: ChildRequest): Promise<void> {
  switch (request.type) {
    case 'init':
      try {
        await start(request.init);
        send({ type: 'ready', pid: process.pid });
      } catch (error) {
        send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      }
      return;
    case 'ask': {
      try {
        const value = await system!.askAt({ kind: 'account', id: request.id }, request.event, { messageId: request.messageId });
        send({ type: 'reply', seq: request.seq, ok: true, value });
      } catch (error) {
        const name = error instanceof Error ? error.name : 'Error';
        const code = error instanceof CommandRejectedError ? error.code : null;
        send({ type: 'reply', seq: request.seq, ok: false, name, code, message: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    case 'shards': {
      const owned = transport?.ownedShards() ?? new Set<number>();
      send({ type: 'shards', seq: request.seq, shards: [...owned] });
      return;
    }
    case 'stats':
      send({ type: 'stats', seq: request.seq, stats: loop.stats() });
      if (request.reset) loop.reset();
      return;
    case 'stop': {
      await system?.drain().catch(() => undefined);
      await nc?.close().catch(() => undefined);
      await store?.close().catch(() => undefined);
      send({ type: 'stopped' });
      process.exit(0);
    }
  }
}

process.on('message', (request: ChildRequest) => void handle(request));
