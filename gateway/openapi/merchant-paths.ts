/** The admin API that makes and changes merchants. */
import { createdMerchant, createMerchantBody, merchantPath, merchantProfile, rotatedApiKey, updateMerchantBody } from '../merchants/merchant-schemas.js';
import { failure, invalid, standardAnswers, success } from './answers.js';
import { ADMIN_TOKEN, adminRefusal } from './security.js';

const noMerchant = failure(404, [{ code: 'NOT_FOUND', when: 'no merchant has that id' }]);

export function merchantAdminPaths() {
  return {
    '/internal/v1/merchants': {
      post: {
        operationId: 'createMerchant',
        tags: ['Admin'],
        summary: 'Create a merchant and its sandbox twin',
        description: 'The raw API keys appear only in this answer and on rotation.',
        security: ADMIN_TOKEN,
        requestBody: { required: true, content: { 'application/json': { schema: createMerchantBody } } },
        responses: standardAnswers(
          { '201': success(201, createdMerchant, 'Created'), '400': invalid('the body'), ...adminRefusal },
          { body: true, asksActors: true },
        ),
      },
    },
    '/internal/v1/merchants/{merchantId}': {
      patch: {
        operationId: 'updateMerchant',
        tags: ['Admin'],
        summary: "Change a merchant account's settings",
        security: ADMIN_TOKEN,
        requestParams: { path: merchantPath },
        requestBody: { required: true, content: { 'application/json': { schema: updateMerchantBody } } },
        responses: standardAnswers(
          {
            '200': success(200, merchantProfile, 'Updated'),
            '400': invalid('the body, or merchantId is not a merchant id'),
            ...adminRefusal,
            '404': noMerchant,
          },
          { body: true, asksActors: true },
        ),
      },
    },
    '/internal/v1/merchants/{merchantId}/api-keys/rotate': {
      post: {
        operationId: 'rotateApiKey',
        tags: ['Admin'],
        summary: 'Issue a new API key; the old one stops working',
        security: ADMIN_TOKEN,
        requestParams: { path: merchantPath },
        responses: standardAnswers(
          { '200': success(200, rotatedApiKey, 'Rotated'), '400': invalid('merchantId is not a merchant id'), ...adminRefusal, '404': noMerchant },
          { asksActors: true },
        ),
      },
    },
  };
}
