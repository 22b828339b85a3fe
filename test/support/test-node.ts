/** Builds an embedded actor system for tests: embedded store, in-process transport and bus, test clock. */
import type { Logger } from 'pino';
import {
  ActorSystem,
  EmbeddedStore,
  EmbeddedTransport,
  MemoryBus,
  TestClock,
  createLogger,
  type ActorKind,
  type EventBus,
  type RetryPolicy,
  type NodeMetrics,
  type Transport,
  type Store,
} from '../../actors/index.js';

export interface TestSystem {
  system: ActorSystem;
  store: Store;
  bus: EventBus;
  clock: TestClock;
}

export async function startTestSystem(options: {
  kinds: ActorKind[];
  store?: Store;
  bus?: EventBus;
  clock?: TestClock;
  cacheSize?: number;
  attemptTimeoutMs?: number;
  retryPolicy?: RetryPolicy;
  doneSaveDelayMs?: number;
  harmlessDoneSaveDelayMs?: number;
  transport?: Transport;
  metrics?: NodeMetrics;
  logger?: Logger;
  /** A system clock's timers are found by polling; a test clock fires them as it advances. */
  timerPollMs?: number;
}): Promise<TestSystem> {
  const store = options.store ?? new EmbeddedStore();
  const bus = options.bus ?? new MemoryBus();
  const clock = options.clock ?? new TestClock();
  const system = new ActorSystem({
    store,
    transport: options.transport ?? new EmbeddedTransport(),
    bus,
    clock,
    logger: options.logger ?? createLogger({ level: 'silent' }),
    shardCount: 16,
    cacheSize: options.cacheSize ?? 1000,
    askTimeoutMs: 10_000,
    attemptTimeoutMs: options.attemptTimeoutMs ?? 10_000,
    retryPolicy: options.retryPolicy,
    doneSaveDelayMs: options.doneSaveDelayMs,
    harmlessDoneSaveDelayMs: options.harmlessDoneSaveDelayMs,
    metrics: options.metrics,
    timerPollMs: options.timerPollMs ?? 60_000,
  });
  for (const kind of options.kinds) system.register(kind);
  await system.start();
  return { system, store, bus, clock };
}
