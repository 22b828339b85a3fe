/** The merchant's own profile (document 1); the admin API that makes and changes merchants is in the admin area. */
import { reply } from '../envelope.js';
import { standardAnswers, success } from '../openapi/answers.js';
import { merchantRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import type { MerchantAccounts } from './merchant-accounts.js';
import { merchantProfile } from './merchant-schemas.js';

export interface MerchantProfileDependencies {
  accounts: MerchantAccounts;
}

const merchantProfileOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me',
  operationId: 'getMerchantProfile',
  tags: ['Merchants'],
  summary: 'Read the merchant profile',
  description: 'merchantUsers is the business’s dashboard team, kept on the live account: a sandbox key reads its live twin’s.',
  guard: 'merchant',
  answers: standardAnswers({ '200': success(200, merchantProfile, 'The profile of the key’s (or the session’s) account'), ...merchantRefusals(false) }),
  handle: (deps: MerchantProfileDependencies) => async (ctx) => {
    const { account } = ctx.state;
    const team = account.environment === 'LIVE' ? account.profile.merchantUsers : ((await deps.accounts.byId(account.twinId))?.profile.merchantUsers ?? []);
    reply(ctx, 200, 'Merchant profile', merchantProfile, { ...account.profile, merchantUsers: team });
  },
});

export function merchantOperations(): Operation<MerchantProfileDependencies>[] {
  return [merchantProfileOperation];
}
