/** The integration operations of document 1: the sandbox test order and the integration status (docs/webhooks.md). */
import { integrationStatus, sandboxTestOrder, sandboxTestOrderBody } from '../schemas/integration-schemas.js';
import { failure, invalid, standardAnswers, success } from './answers.js';
import { API_KEY, apiKeyRefusals } from './security.js';

export function integrationPaths() {
  return {
    '/api/v1/sandbox/test-order': {
      post: {
        operationId: 'createSandboxTestOrder',
        tags: ['Integration'],
        summary: 'A sandbox order paid through the simulator',
        description:
          'Creates a sandbox order and pays it with a simulated payment, so the account’s webhooks receive ORDER_CREATED, PAYMENT_CREATED, PAYMENT_SETTLED and ORDER_FULFILLED. Sandbox key only.',
        security: API_KEY,
        // Which account's key the operation is for, for tools (the fuzzer) that pick a key.
        'x-key-environment': 'SANDBOX',
        requestBody: { required: false, content: { 'application/json': { schema: sandboxTestOrderBody } } },
        responses: standardAnswers(
          {
            '201': success(201, sandboxTestOrder, 'The fulfilled order and its payment'),
            '400': invalid('the body, or an amount the create refuses'),
            ...apiKeyRefusals([{ code: 'SANDBOX_ONLY', when: 'a live key' }]),
            '422': failure(422, [{ code: 'RAIL_NOT_SUPPORTED', when: 'the rail is not one the account enables, or it enables none' }]),
          },
          { body: true, asksActors: true },
        ),
      },
    },
    '/api/v1/integration/status': {
      get: {
        operationId: 'getIntegrationStatus',
        tags: ['Integration'],
        summary: 'What is left to do before going live',
        description: 'Steps computed from both accounts (live and sandbox), whichever key asks.',
        security: API_KEY,
        responses: standardAnswers({ '200': success(200, integrationStatus, 'The steps and whether the account is ready'), ...apiKeyRefusals() }),
      },
    },
  };
}
