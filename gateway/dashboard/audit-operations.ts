/** The business's audit log, newest first, for its Owners (docs/dashboard-auth.md). */
import { z } from 'zod';
import { reply } from '../envelope.js';
import { standardAnswers, success, invalid } from '../openapi/answers.js';
import { sessionRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { environment, isoTime, pageFields, pageQuery } from '../schemas/common.js';
import type { DashboardDependencies } from './dashboard-dependencies.js';
import { sessionOf } from './principal.js';

const auditEntry = z
  .object({
    id: z.string().meta({ description: 'The entry’s id (aud_…)' }),
    merchantId: z.string().meta({ description: 'The business: its live account' }),
    environment: environment.nullable().meta({ description: 'The environment the call acted on; null for a refused sign-in' }),
    actor: z
      .union([
        z.object({ kind: z.literal('apiKey').meta({ description: 'The environment’s API key' }) }),
        z.object({
          kind: z.literal('session').meta({ description: 'A team member’s dashboard session' }),
          userId: z.string().meta({ description: 'The member' }),
          email: z.string().meta({ description: 'The member’s address' }),
          sessionId: z.string().meta({ description: 'The session (dss_…); empty for a refused sign-in' }),
        }),
      ])
      .meta({ description: 'Who made the call' }),
    operationId: z.string().meta({ description: 'What was called: the operation’s operationId in this document' }),
    targets: z.record(z.string(), z.string()).meta({ description: 'The ids the call named (orderId, userId, paymentId, …)' }),
    at: isoTime,
    clientIp: z.string().meta({ description: 'The client address the call came from' }),
    status: z.number().int().meta({ description: 'The HTTP status it was answered with' }),
    read: z.boolean().meta({ description: 'A GET: a read, which changed nothing' }),
  })
  .meta({ id: 'AuditEntry', description: 'One recorded call' });

const auditPage = z
  .object({ entries: z.array(auditEntry).meta({ description: 'This page, newest first' }), ...pageFields('entries') })
  .meta({ id: 'AuditLogPage', description: 'A page of the business’s audit log' });

const auditQuery = z.strictObject({
  ...pageQuery,
  reads: z
    .enum(['include', 'exclude'])
    .default('include')
    .meta({ description: 'exclude: only the calls that could change something (and sign-ins); every read is recorded, and outnumbers them' }),
});

const readAuditLogOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me/audit-log',
  operationId: 'listAuditLog',
  tags: ['Dashboard'],
  summary: 'The business’s audit log, newest first (Owner)',
  description:
    'Every call made through the dashboard, reads included, every sign-in (refused ones too) and sign-out, and every remediation call and poll, from both environments. reads=exclude leaves the reads out.',
  guard: 'session',
  roles: ['OWNER'],
  request: { query: auditQuery },
  answers: standardAnswers({
    '200': success(200, auditPage, 'A page of entries'),
    '400': invalid('the query'),
    ...sessionRefusals(false, [{ code: 'ROLE_NOT_ALLOWED', when: 'the signed-in member is not an Owner' }]),
  }),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { query }) => {
      const { entries, ...total } = await deps.audit.page(sessionOf(ctx).businessId, query.page, query.limit, query.reads === 'include');
      reply(ctx, 200, 'Audit log', auditPage, { entries, ...total, page: query.page, limit: query.limit });
    },
});

export function auditOperations(): Operation<DashboardDependencies>[] {
  return [readAuditLogOperation];
}
