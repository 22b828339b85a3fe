/**
 * The payouts area of document 2, merchant's side: create, read, list and cancel with the
 * API key; the conversion provider's activity reports; and the operators' removal of a
 * network from an open payout (admin, in payoutAdminOperations).
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { payoutKind } from '../../actors/kinds/payout-kind.js';
import { CommandRejectedError } from '../../actors/errors.js';
import { detailedFailure } from '../checkout/checkout-answers.js';
import { reply, respond } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { adminRefusal, apiKeyRefusals, merchantRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { type CancelPayoutDependencies, cancelPayout } from './cancel-payout.js';
import { type CreatePayoutDependencies, createPayout } from './create-payout.js';
import { listPayouts } from './payout-list.js';
import { payoutTimeline, timelineOf } from './payout-timeline.js';
import { liveOnly, merchantPayout, payoutViewOf } from './payout-access.js';
import type { PayoutLinks } from './payout-links.js';
import { PAYOUT_PREPARATION_FAILURES, PAYOUT_RAIL_AND_ROUTE_REFUSALS } from './payout-create-refusals.js';
import { createPayoutResponse, listPayoutsResponse, payoutFundingStatus, payoutStatus, payoutView } from './payout-resources.js';
import { IDEMPOTENCY_KEY_PATTERN, createPayoutBody, fundingActivityBody, listPayoutsQuery, payoutPath, payoutRailPath } from './payout-schemas.js';
import { z } from 'zod';
import type { PayoutRail } from '../../machines/payout/payout-rails.js';

export interface PayoutDependencies extends CreatePayoutDependencies, CancelPayoutDependencies {
  system: ActorSystem;
  /** Where a list's total stops counting (paged-views.ts). */
  totalCap: number;
}

const NOT_FOUND = { code: 'PAYOUT_NOT_FOUND' as const, when: 'no payout with this id for this merchant (another merchant’s payout included)' };
const SANDBOX = { code: 'PAYOUT_SANDBOX_UNSUPPORTED' as const, when: 'a sandbox key: payouts are live only' };

export function payoutOperations(): Operation<PayoutDependencies>[] {
  return [createPayoutOperation, listPayoutsOperation, readPayoutOperation, payoutTimelineOperation, cancelPayoutOperation, fundingActivityOperation];
}

const createPayoutOperation = defineOperation({
  method: 'post',
  path: '/api/v1/payouts',
  operationId: 'createPayout',
  tags: ['Payouts'],
  summary: 'Create a payout',
  description: [
    'Pays one of your customers, by e-mail, an amount of USDC on Base, funded with the token you choose. 201 with the payout, its one-off deposit address and the exact funding amount; fund exactly funding.amount before funding.quoteExpiresAt.',
    'Idempotency-Key (required, 8 to 128 letters, digits, _ or -): the same key and body answer 200 with the payout as it is now and idempotentReplay true; another body is a 409. The body is validated before the key is looked at.',
  ].join(' '),
  guard: 'apiKey',
  request: { body: createPayoutBody },
  // Read by the handler, which answers a missing or malformed key with document 2's INVALID_IDEMPOTENCY_KEY (after the body's validation).
  documented: {
    header: z.object({
      'idempotency-key': z
        .string()
        .regex(IDEMPOTENCY_KEY_PATTERN)
        .meta({ description: 'Required: 8 to 128 letters, digits, _ or -; one key per payout', example: 'payout-2026-0001' }),
    }),
  },
  answers: standardAnswers(
    {
      '201': success(201, createPayoutResponse, 'Payout created'),
      '200': success(200, createPayoutResponse, 'A replay of the Idempotency-Key: the payout as it is now, with the current checkoutUrl'),
      '400': invalid('the body (document 2’s field rules)', [
        { code: 'INVALID_IDEMPOTENCY_KEY', when: 'the Idempotency-Key header is missing or malformed' },
        { code: 'PAYOUT_TOKEN_UNSUPPORTED', when: 'the payout is not USDC on Base' },
        { code: 'PAYOUT_NOT_STEP_MULTIPLE', when: 'below one payout step or not a whole multiple of it' },
        { code: 'PAYOUT_ABOVE_MAX', when: 'above 1,000 USDC' },
        { code: 'PAYOUT_FUNDING_TOKEN_UNSUPPORTED', when: 'the funding token is unsupported, switched off, or not among your allowed tokens' },
      ]),
      ...apiKeyRefusals([
        SANDBOX,
        { code: 'PAYOUTS_DISABLED', when: 'every payout method is turned off on the account' },
        { code: 'PAYOUT_MERCHANT_WALLET_MISSING', when: 'a merchant fee is set but no merchant wallet receives it' },
      ]),
      '409': failure(409, [
        { code: 'MERCHANT_CONFIG_MISSING', when: 'payouts are not set up on the account yet' },
        { code: 'IDEMPOTENCY_KEY_CONFLICT', when: 'the key was used with a different body' },
        { code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS', when: 'a request with this key is still running' },
      ]),
      '422': failure(422, PAYOUT_RAIL_AND_ROUTE_REFUSALS),
      '502': failure(502, PAYOUT_PREPARATION_FAILURES),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: PayoutDependencies) =>
    async (ctx, { body }) => {
      const result = await createPayout(deps, ctx.state.account, body, ctx.get('idempotency-key') || undefined);
      const answer = { ...result.payout, checkoutUrl: result.checkoutUrl, idempotentReplay: !result.created };
      if (result.created) reply(ctx, 201, 'Payout created', createPayoutResponse, answer);
      else reply(ctx, 200, 'Payout already created for this Idempotency-Key', createPayoutResponse, answer);
    },
});

const listPayoutsOperation = defineOperation({
  method: 'get',
  path: '/api/v1/payouts',
  operationId: 'listPayouts',
  tags: ['Payouts'],
  summary: 'List payouts, newest first',
  description: 'customerEmail matches exactly, case-insensitive; merchantReference exactly; status one PayoutStatus.',
  guard: 'merchant',
  request: { query: listPayoutsQuery },
  answers: standardAnswers({
    '200': success(200, listPayoutsResponse, 'A page of payouts and the total'),
    '400': invalid('the query'),
    ...merchantRefusals(false, [SANDBOX]),
  }),
  handle:
    (deps: PayoutDependencies) =>
    async (ctx, { query }) => {
      liveOnly(ctx.state.account);
      reply(ctx, 200, 'Payouts', listPayoutsResponse, await listPayouts(deps.system, ctx.state.account.merchantId, query, deps.totalCap));
    },
});

const readPayoutOperation = defineOperation({
  method: 'get',
  path: '/api/v1/payouts/:id',
  operationId: 'getPayout',
  tags: ['Payouts'],
  summary: 'Read one payout',
  guard: 'merchant',
  request: { path: payoutPath },
  answers: standardAnswers({
    '200': success(200, payoutView, 'Payout found'),
    '400': invalid('id is not a payout id'),
    ...merchantRefusals(false, [SANDBOX]),
    '404': failure(404, [NOT_FOUND]),
  }),
  handle:
    (deps: PayoutDependencies) =>
    async (ctx, { path }) => {
      liveOnly(ctx.state.account);
      const payout = await merchantPayout(deps.system, ctx.state.account.merchantId, path.id);
      if (!payout) return respond(ctx, 404, 'Payout not found', null, 'PAYOUT_NOT_FOUND');
      reply(ctx, 200, 'Payout found', payoutView, payout);
    },
});

const payoutTimelineOperation = defineOperation({
  method: 'get',
  path: '/api/v1/payouts/:id/timeline',
  operationId: 'getPayoutTimeline',
  tags: ['Payouts'],
  summary: 'A payout’s timeline and funding issues',
  description:
    'What happened to the payout, oldest first, and the money that reached it without counting (an overpayment, late funds, a route refund): what the dashboard’s payout screen shows.',
  guard: 'merchant',
  request: { path: payoutPath },
  answers: standardAnswers({
    '200': success(200, payoutTimeline, 'The timeline'),
    '400': invalid('id is not a payout id'),
    ...merchantRefusals(false, [SANDBOX]),
    '404': failure(404, [NOT_FOUND]),
  }),
  handle:
    (deps: PayoutDependencies) =>
    async (ctx, { path }) => {
      liveOnly(ctx.state.account);
      const view = await payoutViewOf(deps.system, path.id);
      if (!view?.payout || view.merchantId !== ctx.state.account.merchantId) return respond(ctx, 404, 'Payout not found', null, 'PAYOUT_NOT_FOUND');
      reply(ctx, 200, 'Payout timeline', payoutTimeline, timelineOf(path.id, view));
    },
});

const cancelPayoutOperation = defineOperation({
  method: 'post',
  path: '/api/v1/payouts/:id/cancel',
  operationId: 'cancelPayout',
  tags: ['Payouts'],
  summary: 'Cancel an unfunded payout',
  description:
    'Only while status and fundingStatus are both AWAITING_FUNDING, and only when the conversion provider has no record at the deposit address (any transfer, even a refunded one, blocks it).',
  guard: 'apiKey',
  optionalBody: true,
  request: { path: payoutPath },
  answers: standardAnswers(
    {
      '200': success(200, payoutView, 'Payout cancelled'),
      '400': invalid('id is not a payout id'),
      ...apiKeyRefusals([SANDBOX]),
      '404': failure(404, [NOT_FOUND]),
      '409': detailedFailure(409, [
        {
          code: 'PAYOUT_NOT_CANCELLABLE',
          when: 'status or fundingStatus is not AWAITING_FUNDING; responseObject is { status, fundingStatus }',
          details: z.object({
            status: payoutStatus.meta({ description: 'The payout’s status now' }),
            fundingStatus: payoutFundingStatus.meta({ description: 'Its funding status now' }),
          }),
        },
        { code: 'PAYOUT_FUNDING_DETECTED', when: 'the conversion provider has a record for the deposit address' },
      ]),
      '502': failure(502, [{ code: 'PAYOUT_BRIDGE_STATUS_FAILED', when: 'the funding could not be checked before cancelling; retry the cancel' }]),
    },
    { asksActors: true },
  ),
  handle:
    (deps: PayoutDependencies) =>
    async (ctx, { path }) => {
      liveOnly(ctx.state.account);
      reply(ctx, 200, 'Payout cancelled', payoutView, await cancelPayout(deps, ctx.state.account.merchantId, path.id));
    },
});

const fundingActivityOperation = defineOperation({
  method: 'post',
  path: '/api/v1/providers/conversion/funding-activity',
  operationId: 'reportFundingActivity',
  tags: ['Payouts'],
  summary: 'The conversion provider reports activity at a payout’s deposit address',
  description:
    'The provider’s callback: the payout checks its funding with the provider now rather than at its next scheduled check. It carries no money facts, so it needs no signature: the check reads the provider and the chain.',
  guard: 'none',
  request: { body: fundingActivityBody },
  answers: standardAnswers(
    { '202': success(202, z.null(), 'Funding check queued'), '400': invalid('the body'), '404': failure(404, [NOT_FOUND]) },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: PayoutDependencies) =>
    async (ctx, { body }) => {
      const row = await deps.system.views(payoutKind).findOne({ 'view.requestId': body.requestId }, { projection: { _id: 1 } });
      if (!row) return respond(ctx, 404, 'No payout has that funding request', null, 'PAYOUT_NOT_FOUND');
      try {
        await deps.system.ask(payoutKind, row._id, { type: 'CHECK_FUNDING', at: deps.now() });
      } catch (error) {
        if (!(error instanceof CommandRejectedError)) throw error;
      }
      respond(ctx, 202, 'Funding check queued', null);
    },
});

const rotatedKey = z
  .strictObject({ version: z.number().int().meta({ description: 'The link key’s version now; links carry it before their signature' }) })
  .meta({ id: 'PayoutLinkKey' });

export interface PayoutAdminDependencies {
  system: ActorSystem;
  now(): string;
  links: PayoutLinks;
}

/**
 * Operators take a network off an open payout (document 2, Limits), so the customer can no
 * longer choose it; and rotate the key payout links are signed with, ending every link sent.
 */
export function payoutAdminOperations(): Operation<PayoutAdminDependencies>[] {
  return [
    defineOperation({
      method: 'post',
      path: '/internal/v1/payout-links/rotate',
      operationId: 'rotatePayoutLinkKey',
      tags: ['Admin'],
      summary: 'Rotate the payout link key',
      description:
        'Signs payout links with a new key from now on: every checkoutUrl sent so far answers 401 CASHOUT_TOKEN_INVALID, and a merchant’s replayed create answers the new link. For a leaked link. No body.',
      guard: 'adminToken',
      optionalBody: true,
      answers: standardAnswers({ '200': success(200, rotatedKey, 'Rotated'), ...adminRefusal }),
      handle: (deps: PayoutAdminDependencies) => async (ctx) => {
        reply(ctx, 200, 'Payout link key rotated', rotatedKey, { version: await deps.links.rotate() });
      },
    }),
    defineOperation({
      method: 'delete',
      path: '/internal/v1/payouts/:id/rails/:rail',
      operationId: 'removePayoutRail',
      tags: ['Admin'],
      summary: 'Remove a rail from an open payout',
      guard: 'adminToken',
      request: { path: payoutRailPath },
      answers: standardAnswers(
        {
          '200': success(200, payoutView, 'Rail removed'),
          '400': invalid('the path'),
          ...adminRefusal,
          '404': failure(404, [{ code: 'PAYOUT_NOT_FOUND', when: 'no payout has that id' }]),
          '409': failure(409, [{ code: 'PAYOUT_RAILS_FINAL', when: 'the payout has ended or is being paid out' }]),
          '422': failure(422, [{ code: 'PAYOUT_RAIL_NOT_OFFERED', when: 'the payout does not offer that rail' }]),
        },
        { asksActors: true },
      ),
      handle:
        (deps: PayoutAdminDependencies) =>
        async (ctx, { path }) => {
          if (!(await payoutViewOf(deps.system, path.id))?.payout) return respond(ctx, 404, 'Payout not found', null, 'PAYOUT_NOT_FOUND');
          const after = await deps.system.ask(payoutKind, path.id, { type: 'REMOVE_RAIL', rail: path.rail as PayoutRail, at: deps.now() });
          reply(ctx, 200, 'Rail removed', payoutView, after.payout!);
        },
    }),
  ];
}
