/**
 * GET /v1/health-check: document 3's health report. `services.database` is the
 * store; `services.redis` is the document's name for the message bus slot, which
 * here is the transport and event bus (NATS in a cluster, in-process when embedded).
 * A node reading a chain is degraded while its indexer does not keep the chain's
 * facts current, or while it cannot complete live payments, and any node is degraded
 * while its heap is past 80 % of V8's limit (heap-health.ts); the message says why
 * (document 3's report has no slot for it).
 */
import { freemem, totalmem } from 'node:os';
import type { EventBus } from '../../actors/events/event-bus.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { Store } from '../../actors/store/store.js';
import { reply } from '../envelope.js';
import { standardAnswers, success } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { healthReport } from '../schemas/health-schemas.js';
import type { HeapHealth } from './heap-health.js';
import type { Rotation } from './rotation.js';

export interface HealthDependencies {
  store: Store;
  bus: EventBus;
  system: ActorSystem;
  environment: string;
  version: string;
  startedAt: number;
  /** The chain indexer's health, where the node reads a chain: not serving makes the node degraded. */
  indexerHealth?: () => Promise<{ serving: boolean; reason: string | null }>;
  /** Why live payments cannot be completed now, where the node takes them: a reason makes the node degraded. */
  livePayments?: () => string | null;
  /** The heap against its limit: past the mark the node is degraded (heap-health.ts). */
  heap: HeapHealth;
  /** Whether the node is in the load balancer's rotation (probe-operations.ts); unset, always in it. */
  rotation?: Rotation;
}

type ServiceStatus = { status: 'connected' | 'disconnected'; responseTime?: number };

export function healthOperations(): Operation<HealthDependencies>[] {
  return [healthOperation];
}

const healthOperation = defineOperation({
  method: 'get',
  path: '/v1/health-check',
  operationId: 'getHealth',
  tags: ['Service'],
  summary: 'Health report (document 3)',
  guard: 'none',
  answers: standardAnswers({ '200': success(200, healthReport, 'The health report; a degraded or unhealthy node still answers 200') }),
  handle: (deps: HealthDependencies) => async (ctx) => {
    const [database, transport, bus, indexer] = await Promise.all([
      deps.store.status().catch(() => ({ connected: false, responseTimeMs: undefined })),
      deps.system.transport.status().catch(() => ({ connected: false, responseTimeMs: undefined })),
      deps.bus.status().catch(() => ({ connected: false, responseTimeMs: undefined })),
      deps.indexerHealth?.() ?? { serving: true, reason: null },
    ]);
    const databaseStatus = service(database.connected, database.responseTimeMs);
    const busStatus = service(transport.connected && bus.connected, transport.responseTimeMs);
    const payments = deps.livePayments?.() ?? null;
    const heap = deps.heap.check();
    const fine = busStatus.status === 'connected' && indexer.serving && payments === null && heap === null;
    const status = !database.connected ? 'unhealthy' : fine ? 'healthy' : 'degraded';
    const used = totalmem() - freemem();
    const reasons = [
      ...(indexer.serving ? [] : [`the chain indexer is not serving (${indexer.reason})`]),
      ...(payments === null ? [] : [`live payments are off: ${payments}`]),
      ...(heap === null ? [] : [heap]),
    ];
    const message = status === 'healthy' ? 'Service is healthy' : reasons.length === 0 ? `Service is ${status}` : `Service is ${status}: ${reasons.join('; ')}`;
    reply(ctx, 200, message, healthReport, {
      status,
      timestamp: new Date().toISOString(),
      uptime: Math.round((Date.now() - deps.startedAt) / 10) / 100,
      environment: deps.environment,
      version: deps.version,
      services: { database: databaseStatus, redis: busStatus },
      memory: { used, total: totalmem(), percentage: Math.round((used / totalmem()) * 10_000) / 100 },
    });
  },
});

function service(connected: boolean, responseTimeMs: number | undefined): ServiceStatus {
  const entry: ServiceStatus = { status: connected ? 'connected' : 'disconnected' };
  if (connected && responseTimeMs !== undefined) entry.responseTime = Math.round(responseTimeMs * 1000) / 1000;
  return entry;
}
