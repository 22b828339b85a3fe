/**
 * An Owner rotates the API key of the environment their session is on (document 1: "keys are
 * managed in the merchant dashboard"). The new key is answered once and never again; the
 * previous key stops working at once, so the business's backend must take the new one. The
 * rotation is recorded in the audit log, refused or not.
 */
import { z } from 'zod';
import { reply } from '../envelope.js';
import { rotateApiKey } from '../merchants/api-key-rotation.js';
import { standardAnswers, success } from '../openapi/answers.js';
import { sessionRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { environment } from '../schemas/common.js';
import { audited } from './audit-log.js';
import type { DashboardDependencies } from './dashboard-dependencies.js';

const rotatedKey = z
  .object({
    apiKey: z.string().meta({ description: 'The new key, shown once: it is kept only as a hash' }),
    apiKeyHint: z.string().meta({ description: 'How the profile shows the new key from now on: its prefix and last four characters' }),
    environment: environment.meta({ description: 'The environment whose key was rotated: the session’s' }),
  })
  .meta({ id: 'DashboardRotatedApiKey', description: 'The environment’s new API key' });

const rotateOwnApiKeyOperation = defineOperation({
  method: 'post',
  path: '/api/v1/merchants/me/api-key/rotate',
  operationId: 'rotateOwnApiKey',
  tags: ['Dashboard'],
  summary: 'Issue a new API key for the session’s environment (Owner); the old one stops working',
  description: 'Only a dashboard session may rotate: a key cannot replace itself. Recorded in the audit log.',
  guard: 'session',
  roles: ['OWNER'],
  before: (deps: DashboardDependencies) => [audited(deps.audit, 'rotateOwnApiKey')],
  answers: standardAnswers(
    {
      '200': success(200, rotatedKey, 'The new key, once'),
      ...sessionRefusals(true, [{ code: 'ROLE_NOT_ALLOWED', when: 'the signed-in member is not an Owner' }]),
    },
    { asksActors: true },
  ),
  handle: (deps: DashboardDependencies) => async (ctx) => {
    const { account } = ctx.state;
    const { merchant, apiKey } = await rotateApiKey(deps.system, account.merchantId, account.environment, deps.now());
    reply(ctx, 200, 'API key rotated', rotatedKey, { apiKey, apiKeyHint: merchant.apiKey, environment: account.environment });
  },
});

export function apiKeyOperations(): Operation<DashboardDependencies>[] {
  return [rotateOwnApiKeyOperation];
}
