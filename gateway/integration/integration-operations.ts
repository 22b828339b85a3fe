/** The integration operations of document 1 (API key): the sandbox test order and the integration status (docs/webhooks.md). */
import { reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { apiKeyRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { type IntegrationStatusDependencies, integrationStatus as status } from './integration-status.js';
import { integrationStatus, sandboxTestOrder, sandboxTestOrderBody } from './integration-schemas.js';
import { type SandboxTestOrderDependencies, sandboxTestOrder as testOrder } from './sandbox-test-order.js';

export type IntegrationDependencies = SandboxTestOrderDependencies & IntegrationStatusDependencies;

const sandboxTestOrderOperation = defineOperation({
  method: 'post',
  path: '/api/v1/sandbox/test-order',
  operationId: 'createSandboxTestOrder',
  tags: ['Integration'],
  summary: 'A sandbox order paid through the simulator',
  description:
    'Creates a sandbox order and pays it with a simulated payment, so the account’s webhooks receive ORDER_CREATED, PAYMENT_CREATED, PAYMENT_SETTLED and ORDER_FULFILLED. Sandbox key only.',
  guard: 'apiKey',
  // Which account's key the operation is for, for tools (the fuzzer) that pick a key.
  extensions: { 'x-key-environment': 'SANDBOX' },
  request: { body: sandboxTestOrderBody },
  optionalBody: true,
  answers: standardAnswers(
    {
      '201': success(201, sandboxTestOrder, 'The fulfilled order and its payment'),
      '400': invalid('the body, or an amount the create refuses'),
      ...apiKeyRefusals([{ code: 'SANDBOX_ONLY', when: 'a live key' }]),
      '422': failure(422, [{ code: 'RAIL_NOT_SUPPORTED', when: 'the rail is not one the account enables, or it enables none' }]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: IntegrationDependencies) =>
    async (ctx, { body }) => {
      reply(ctx, 201, 'Test order paid', sandboxTestOrder, await testOrder(deps, ctx.state.account, body));
    },
});

const integrationStatusOperation = defineOperation({
  method: 'get',
  path: '/api/v1/integration/status',
  operationId: 'getIntegrationStatus',
  tags: ['Integration'],
  summary: 'What is left to do before going live',
  description: 'Steps computed from both accounts (live and sandbox), whichever key asks.',
  guard: 'apiKey',
  answers: standardAnswers({ '200': success(200, integrationStatus, 'The steps and whether the account is ready'), ...apiKeyRefusals() }),
  handle: (deps: IntegrationDependencies) => async (ctx) => {
    reply(ctx, 200, 'Integration status', integrationStatus, await status(deps, ctx.state.account));
  },
});

export function integrationOperations(): Operation<IntegrationDependencies>[] {
  return [sandboxTestOrderOperation, integrationStatusOperation];
}
