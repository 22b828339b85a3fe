/** Makers' referrals (bearer; docs/maker-referrals.md), at document 3's paths, which write /v1 twice. */
import { reply } from '../envelope.js';
import { walletOf } from '../middleware/bearer-auth.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { makerTokenRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { redeemBody, referral, referralCodeBody } from '../schemas/referral-schemas.js';
import type { MakerReferrals } from './maker-referrals.js';

export interface ReferralDependencies {
  referrals: MakerReferrals;
}

export function referralOperations(): Operation<ReferralDependencies>[] {
  return [readOperation, setCodeOperation, redeemOperation];
}

const tags = ['Referrals'];

const readOperation = defineOperation({
  method: 'get',
  path: '/v1/v1/me/referral',
  operationId: 'getMyReferral',
  tags,
  summary: 'The signed-in wallet’s referral code, its redemptions and who referred it',
  guard: 'makerToken',
  answers: standardAnswers({ '200': success(200, referral, 'The wallet’s referral'), ...makerTokenRefusals }),
  handle: (deps: ReferralDependencies) => async (ctx) => {
    reply(ctx, 200, 'Referral', referral, await deps.referrals.read(walletOf(ctx)));
  },
});

const setCodeOperation = defineOperation({
  method: 'patch',
  path: '/v1/v1/me/referral/code',
  operationId: 'setMyReferralCode',
  tags,
  summary: 'Set or change the wallet’s referral code',
  description: 'The previous code is released for others to take. Redemptions stay counted for the wallet.',
  guard: 'makerToken',
  request: { body: referralCodeBody },
  answers: standardAnswers(
    {
      '200': success(200, referral, 'The wallet’s referral with its new code'),
      '400': invalid('the body'),
      ...makerTokenRefusals,
      '409': failure(409, [{ code: 'REFERRAL_CODE_TAKEN', when: 'another wallet holds the code, in any letter case' }]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: ReferralDependencies) =>
    async (ctx, { body }) => {
      reply(ctx, 200, 'Referral code set', referral, await deps.referrals.setCode(walletOf(ctx), body.code));
    },
});

const redeemOperation = defineOperation({
  method: 'post',
  path: '/v1/v1/redeem',
  operationId: 'redeemReferralCode',
  tags,
  summary: 'Redeem another maker’s referral code, once',
  guard: 'makerToken',
  request: { body: redeemBody },
  answers: standardAnswers(
    {
      '201': success(201, referral, 'Redeemed: the wallet’s referral, referredBy set'),
      '400': invalid('the body', [{ code: 'REFERRAL_OWN_CODE', when: 'the code is the wallet’s own' }]),
      ...makerTokenRefusals,
      '404': failure(404, [{ code: 'REFERRAL_CODE_NOT_FOUND', when: 'no wallet holds the code' }]),
      '409': failure(409, [{ code: 'REFERRAL_ALREADY_REDEEMED', when: 'the wallet has redeemed a code already' }]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: ReferralDependencies) =>
    async (ctx, { body }) => {
      reply(ctx, 201, 'Referral code redeemed', referral, await deps.referrals.redeem(walletOf(ctx), body.code));
    },
});
