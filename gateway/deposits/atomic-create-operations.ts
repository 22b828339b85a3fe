/** POST /v2/deposits/atomic-create and GET /v2/deposits/atomic-create/{requestId} (bearer; docs/atomic-create.md). */
import { reply } from '../envelope.js';
import { walletOf } from '../middleware/bearer-auth.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { makerTokenRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { atomicCreateBody, atomicCreatePath, atomicCreateResult, atomicCreateStatus } from '../schemas/atomic-create-schemas.js';
import type { AtomicCreate } from './atomic-create.js';

export interface AtomicCreateDependencies {
  atomicCreate: AtomicCreate;
}

export function atomicCreateOperations(): Operation<AtomicCreateDependencies>[] {
  return [createOperation, statusOperation];
}

const tags = ['Deposits'];

const createOperation = defineOperation({
  method: 'post',
  path: '/v2/deposits/atomic-create',
  operationId: 'atomicCreateDeposit',
  tags,
  summary: 'Create and configure a deposit in one sponsored batch from the signed-in embedded wallet',
  description:
    'The calls are decoded and held to the protocol’s targets and functions; the escrow’s next deposit id is reserved and put in place of deposit 0 in every call after createDeposit; the wallet provider signs the batch for the embedded wallet and the platform’s relayer submits it, paying the gas, with an on-chain assertion before (the reserved id is next) and after (the wallet holds that deposit). Answers once the batch’s transaction is sent; follow it with the status read. The same requestId and calls again answer as the first time did.',
  guard: 'makerToken',
  request: { body: atomicCreateBody },
  answers: standardAnswers(
    {
      '201': success(201, atomicCreateResult, 'Submitted: the reserved deposit id and the batch’s transaction'),
      '400': invalid('the body', [
        { code: 'INVALID_CALLDATA', when: 'a call does not decode as its slot’s function, deposits nothing, or names a deposit other than 0' },
        {
          code: 'UNSAFE_CALLDATA',
          when: 'a call decodes but is not allowed: another function, another spender or token, or an approval below the deposit’s amount',
        },
        {
          code: 'CALLDATA_REVERTS',
          when: 'the batch would revert on chain (the simulation’s reason is in the message): a balance or allowance too small, a range the escrow refuses',
        },
      ]),
      ...makerTokenRefusals,
      '404': failure(404, [{ code: 'EMBEDDED_WALLET_NOT_FOUND', when: 'the wallet provider holds no embedded wallet for the signed-in address' }]),
      '409': failure(409, [{ code: 'REQUEST_ID_CONFLICT', when: 'the requestId was used before with other calls, or by another wallet' }]),
      '502': failure(502, [
        {
          code: 'SUBMISSION_FAILED',
          when: 'the batch could not be mined: it reverted on chain, or lost its reserved id to other deposits too many times',
        },
      ]),
    },
    {
      body: true,
      asksActors: true,
      unavailable: [
        {
          code: 'TEMPORARILY_UNAVAILABLE',
          when: 'the node has no chain, relayer or wallet provider for it, or the batch is not sent yet after ATOMIC_CREATE_WAIT_MS: send the same request again after Retry-After to follow it',
        },
      ],
    },
  ),
  handle:
    (deps: AtomicCreateDependencies) =>
    async (ctx, { body }) => {
      reply(ctx, 201, 'Deposit batch submitted', atomicCreateResult, await deps.atomicCreate.create(walletOf(ctx).address, body));
    },
});

const statusOperation = defineOperation({
  method: 'get',
  path: '/v2/deposits/atomic-create/:requestId',
  operationId: 'getAtomicCreateStatus',
  tags,
  summary: 'Where the signed-in wallet’s atomic-create request stands',
  guard: 'makerToken',
  request: { path: atomicCreatePath },
  answers: standardAnswers(
    {
      '200': success(200, atomicCreateStatus, 'pending, confirmed (with the transaction hash) or failed'),
      '400': invalid('the path'),
      ...makerTokenRefusals,
      '404': failure(404, [{ code: 'REQUEST_NOT_FOUND', when: 'no request of the signed-in wallet has this requestId' }]),
    },
    { unavailable: [{ code: 'TEMPORARILY_UNAVAILABLE', when: 'the node has no chain, relayer or wallet provider for atomic deposit creation' }] },
  ),
  handle:
    (deps: AtomicCreateDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Atomic-create status', atomicCreateStatus, await deps.atomicCreate.status(walletOf(ctx).address, path.requestId));
    },
});
