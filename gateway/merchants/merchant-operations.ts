/** The merchant's own profile (document 1); the admin API that makes and changes merchants is in the admin area. */
import { reply } from '../envelope.js';
import { standardAnswers, success } from '../openapi/answers.js';
import { apiKeyRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { merchantProfile } from './merchant-schemas.js';

const merchantProfileOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me',
  operationId: 'getMerchantProfile',
  tags: ['Merchants'],
  summary: 'Read the merchant profile',
  guard: 'apiKey',
  answers: standardAnswers({ '200': success(200, merchantProfile, 'The profile of the key’s account'), ...apiKeyRefusals() }),
  handle: () => (ctx) => reply(ctx, 200, 'Merchant profile', merchantProfile, ctx.state.account.profile),
});

export function merchantOperations(): Operation<unknown>[] {
  return [merchantProfileOperation];
}
