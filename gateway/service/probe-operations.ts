/**
 * The load balancer's and the orchestrator's probes. Liveness says only that the process
 * answers (restarting a node whose store is down would not bring the store back);
 * readiness says whether to send it traffic: 503 once the node is leaving the rotation
 * (rotation.ts), or while it cannot reach its store or its transport. Both are mounted
 * ahead of the rate limit: a balancer probing every second from one address must never
 * find a node "down" because its probes were counted as a client's requests.
 */
import { ApiError, reply } from '../envelope.js';
import { standardAnswers, success } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { liveness, readiness } from '../schemas/health-schemas.js';
import type { HealthDependencies } from './health-operations.js';
import { withTimeLimit } from '../../actors/time-limit.js';

/** A probe must answer quickly even when the store does not: past this it counts as unreachable. */
const PROBE_DEADLINE_MS = 1_000;

export function probeOperations(): Operation<HealthDependencies>[] {
  return [liveOperation, readyOperation];
}

const liveOperation = defineOperation({
  method: 'get',
  path: '/v1/health-check/live',
  operationId: 'getLiveness',
  tags: ['Service'],
  summary: 'Liveness probe: the process answers',
  guard: 'none',
  answers: standardAnswers({ '200': success(200, liveness, 'The process answers') }, { rateLimited: false }),
  handle: () => async (ctx) => {
    reply(ctx, 200, 'Alive', liveness, { alive: true });
  },
});

const readyOperation = defineOperation({
  method: 'get',
  path: '/v1/health-check/ready',
  operationId: 'getReadiness',
  tags: ['Service'],
  summary: 'Readiness probe: whether to send this node traffic',
  guard: 'none',
  answers: standardAnswers(
    { '200': success(200, readiness, 'The node takes traffic') },
    {
      rateLimited: false,
      unavailable: [{ code: 'SERVICE_UNAVAILABLE', when: 'The node is leaving the rotation (it is stopping), or cannot reach its store or transport' }],
    },
  ),
  handle: (deps: HealthDependencies) => async (ctx) => {
    if (deps.rotation?.leaving) throw new ApiError(503, 'The node is leaving the rotation: it is stopping', 'SERVICE_UNAVAILABLE');
    const [store, transport] = await Promise.all([within(deps.store.status()), within(deps.system.transport.status())]);
    if (!store) throw new ApiError(503, 'The node cannot reach its store', 'SERVICE_UNAVAILABLE');
    if (!transport) throw new ApiError(503, 'The node cannot reach its transport', 'SERVICE_UNAVAILABLE');
    const owned = deps.system.transport.ownedShards();
    reply(ctx, 200, 'Ready', readiness, { ready: true, shardsHeld: owned === 'all' ? null : owned.size });
  },
});

/** Whether a status call said "connected" within the probe's deadline; a failure or a late answer is "no". */
function within(status: Promise<{ connected: boolean }>): Promise<boolean> {
  return withTimeLimit(status, PROBE_DEADLINE_MS, () => new Error('late')).then(
    (answer) => answer.connected,
    () => false,
  );
}
