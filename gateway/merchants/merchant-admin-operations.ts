/**
 * The admin API that makes and changes merchants, under /internal/v1: create a merchant
 * and its sandbox twin, change an account's settings, rotate its key. Reached only
 * through the admin token's guarded area (gateway/admin/admin-area.ts).
 */
import { reply, respond } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { adminRefusal } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { addOwnerBody, merchantUser } from '../dashboard/team-schemas.js';
import type { MerchantAccounts } from './merchant-accounts.js';
import type { MerchantAdmin } from './merchant-admin.js';
import { adminMerchantProfile, createdMerchant, createMerchantBody, merchantPath, rotatedApiKey, updateMerchantBody } from './merchant-schemas.js';

export interface MerchantAdminDependencies {
  admin: MerchantAdmin;
  accounts: MerchantAccounts;
}

export function merchantAdminOperations(): Operation<MerchantAdminDependencies>[] {
  return [createMerchantOperation, updateMerchantOperation, rotateApiKeyOperation, addOwnerOperation];
}

const noMerchant = failure(404, [{ code: 'NOT_FOUND', when: 'no merchant has that id' }]);

const createMerchantOperation = defineOperation({
  method: 'post',
  path: '/internal/v1/merchants',
  operationId: 'createMerchant',
  tags: ['Admin'],
  summary: 'Create a merchant and its sandbox twin',
  description: 'The raw API keys appear only in this answer and on rotation.',
  guard: 'adminToken',
  request: { body: createMerchantBody },
  answers: standardAnswers({ '201': success(201, createdMerchant, 'Created'), '400': invalid('the body'), ...adminRefusal }, { body: true, asksActors: true }),
  handle:
    (deps: MerchantAdminDependencies) =>
    async (ctx, { body }) => {
      reply(ctx, 201, 'Merchant created', createdMerchant, await deps.admin.create(body));
    },
});

const updateMerchantOperation = defineOperation({
  method: 'patch',
  path: '/internal/v1/merchants/:merchantId',
  operationId: 'updateMerchant',
  tags: ['Admin'],
  summary: "Change a merchant account's settings",
  guard: 'adminToken',
  request: { path: merchantPath, body: updateMerchantBody },
  answers: standardAnswers(
    {
      '200': success(200, adminMerchantProfile, 'Updated'),
      '400': invalid('the body, or merchantId is not a merchant id'),
      ...adminRefusal,
      '404': noMerchant,
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: MerchantAdminDependencies) =>
    async (ctx, { path, body }) => {
      reply(ctx, 200, 'Merchant updated', adminMerchantProfile, await deps.admin.update(path.merchantId, body));
    },
});

const rotateApiKeyOperation = defineOperation({
  method: 'post',
  path: '/internal/v1/merchants/:merchantId/api-keys/rotate',
  operationId: 'rotateApiKey',
  tags: ['Admin'],
  summary: 'Issue a new API key; the old one stops working',
  guard: 'adminToken',
  request: { path: merchantPath },
  answers: standardAnswers(
    { '200': success(200, rotatedApiKey, 'Rotated'), '400': invalid('merchantId is not a merchant id'), ...adminRefusal, '404': noMerchant },
    { asksActors: true },
  ),
  handle:
    (deps: MerchantAdminDependencies) =>
    async (ctx, { path }) => {
      const account = await deps.accounts.byId(path.merchantId);
      if (!account) return respond(ctx, 404, 'Merchant not found', null, 'NOT_FOUND');
      reply(ctx, 200, 'API key rotated', rotatedApiKey, await deps.admin.rotateApiKey(account.merchantId, account.environment));
    },
});

const addOwnerOperation = defineOperation({
  method: 'post',
  path: '/internal/v1/merchants/:merchantId/owners',
  operationId: 'addMerchantOwner',
  tags: ['Admin'],
  summary: 'Add an Owner to a business’s dashboard team',
  description:
    'On the live account, which keeps the team of both environments. The Owner is INVITED and signs in with a code e-mailed to the address (docs/dashboard-auth.md); every other member is invited by an Owner.',
  guard: 'adminToken',
  request: { path: merchantPath, body: addOwnerBody },
  answers: standardAnswers(
    {
      '201': success(201, merchantUser, 'The Owner, INVITED'),
      '400': invalid('the body, or merchantId is not a merchant id'),
      ...adminRefusal,
      '404': noMerchant,
      '409': failure(409, [{ code: 'MEMBER_EXISTS' }, { code: 'TEAM_ON_LIVE_ACCOUNT', when: 'merchantId is a sandbox account: name its live twin' }]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: MerchantAdminDependencies) =>
    async (ctx, { path, body }) => {
      reply(ctx, 201, 'Owner added', merchantUser, await deps.admin.addOwner(path.merchantId, body.email));
    },
});
