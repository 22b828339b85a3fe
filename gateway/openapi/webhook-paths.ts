/** The webhook operations: setup, the delivery log, redeliveries and the test event (docs/webhooks.md). */
import {
  createWebhookBody,
  deliveryPath,
  listDeliveriesQuery,
  redeliverFailedBody,
  testWebhookBody,
  updateWebhookBody,
  webhookPath,
} from '../schemas/webhook-schemas.js';
import {
  deletedWebhook,
  deliveryDetail,
  deliveryList,
  redeliveryBatch,
  testWebhookResponse,
  webhook,
  webhookDelivery,
  webhookList,
  webhookWithSecret,
} from '../schemas/webhook-resources.js';
import { failure, invalid, standardAnswers, success, type Outcome } from './answers.js';
import { API_KEY, apiKeyRefusals } from './security.js';

const WEBHOOK_NOT_FOUND: Outcome = { code: 'NOT_FOUND', when: 'no webhook of the key’s account has that id, or it was deleted' };
const DISABLED: Outcome = { code: 'WEBHOOK_DISABLED', when: 'the webhook is disabled; enable it first' };

const tags = ['Webhooks'];

export function webhookPaths() {
  return {
    '/api/v1/webhooks': {
      post: {
        operationId: 'createWebhook',
        tags,
        summary: 'Register an endpoint for webhook events',
        description:
          'Answers the signing secret, once. events takes document 1’s types and the v0 dotted names that map to them; empty or absent is every type.',
        security: API_KEY,
        requestBody: { required: true, content: { 'application/json': { schema: createWebhookBody } } },
        responses: standardAnswers(
          {
            '201': success(201, webhookWithSecret, 'The webhook and its secret'),
            '400': invalid(
              'the body: a URL this environment may not deliver to, an unknown event name, or a custom header that is malformed, reserved or repeated',
            ),
            ...apiKeyRefusals(),
            '409': failure(409, [{ code: 'WEBHOOK_LIMIT_REACHED', when: 'the account has 16 webhooks already' }]),
          },
          { body: true, asksActors: true },
        ),
      },
      get: {
        operationId: 'listWebhooks',
        tags,
        summary: 'The account’s webhooks, oldest first',
        security: API_KEY,
        responses: standardAnswers({ '200': success(200, webhookList, 'Every webhook not deleted'), ...apiKeyRefusals() }),
      },
    },
    '/api/v1/webhooks/{webhookId}': {
      get: {
        operationId: 'getWebhook',
        tags,
        summary: 'One webhook',
        security: API_KEY,
        requestParams: { path: webhookPath },
        responses: standardAnswers({
          '200': success(200, webhook, 'The webhook'),
          '400': invalid('webhookId is not a webhook id'),
          ...apiKeyRefusals(),
          '404': failure(404, [WEBHOOK_NOT_FOUND]),
        }),
      },
      patch: {
        operationId: 'updateWebhook',
        tags,
        summary: 'Change a webhook, or switch it on or off',
        description: 'active: true switches a disabled webhook back on (whatever disabled it); events it missed meanwhile can be sent with redeliver-failed.',
        security: API_KEY,
        requestParams: { path: webhookPath },
        requestBody: { required: true, content: { 'application/json': { schema: updateWebhookBody } } },
        responses: standardAnswers(
          {
            '200': success(200, webhook, 'The webhook as changed'),
            '400': invalid('the body or webhookId'),
            ...apiKeyRefusals(),
            '404': failure(404, [WEBHOOK_NOT_FOUND]),
          },
          { body: true, asksActors: true },
        ),
      },
      delete: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Delete a webhook',
        description: 'Nothing more is sent to it; deliveries waiting for a retry end FAILED with ENDPOINT_INACTIVE.',
        security: API_KEY,
        requestParams: { path: webhookPath },
        responses: standardAnswers(
          {
            '200': success(200, deletedWebhook, 'Deleted'),
            '400': invalid('webhookId is not a webhook id'),
            ...apiKeyRefusals(),
            '404': failure(404, [WEBHOOK_NOT_FOUND]),
          },
          { asksActors: true },
        ),
      },
    },
    '/api/v1/webhooks/{webhookId}/rotate-secret': {
      post: {
        operationId: 'rotateWebhookSecret',
        tags,
        summary: 'Make a new signing secret',
        description:
          'The previous secret keeps signing beside the new one for 24 hours (previousSecretExpiresAt): both signatures are on every request meanwhile.',
        security: API_KEY,
        requestParams: { path: webhookPath },
        responses: standardAnswers(
          {
            '200': success(200, webhookWithSecret, 'The webhook and its new secret'),
            '400': invalid('webhookId is not a webhook id'),
            ...apiKeyRefusals(),
            '404': failure(404, [WEBHOOK_NOT_FOUND]),
          },
          { asksActors: true },
        ),
      },
    },
    '/api/v1/webhooks/{webhookId}/test': {
      post: {
        operationId: 'testWebhook',
        tags,
        summary: 'Send a test event and answer what the endpoint said',
        description: 'One attempt, no retries; the delivery shows in the log. The event’s id starts evt_test_ and its data carries no order.',
        security: API_KEY,
        requestParams: { path: webhookPath },
        requestBody: { required: false, content: { 'application/json': { schema: testWebhookBody } } },
        responses: standardAnswers(
          {
            '200': success(200, testWebhookResponse, 'Whether the endpoint answered 2xx'),
            '400': invalid('the body or webhookId'),
            ...apiKeyRefusals(),
            '404': failure(404, [WEBHOOK_NOT_FOUND]),
            '409': failure(409, [DISABLED]),
          },
          { body: true, asksActors: true },
        ),
      },
    },
    '/api/v1/webhooks/{webhookId}/deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'The webhook’s deliveries, newest first',
        security: API_KEY,
        requestParams: { path: webhookPath, query: listDeliveriesQuery },
        responses: standardAnswers({
          '200': success(200, deliveryList, 'A page of deliveries and the total'),
          '400': invalid('the query or webhookId'),
          ...apiKeyRefusals(),
          '404': failure(404, [WEBHOOK_NOT_FOUND]),
        }),
      },
    },
    '/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}': {
      get: {
        operationId: 'getWebhookDelivery',
        tags,
        summary: 'One delivery with its attempts and the body it sends',
        security: API_KEY,
        requestParams: { path: deliveryPath },
        responses: standardAnswers({
          '200': success(200, deliveryDetail, 'The delivery'),
          '400': invalid('webhookId or deliveryId'),
          ...apiKeyRefusals(),
          '404': failure(404, [{ code: 'NOT_FOUND', when: 'no such webhook of the key’s account, or no such delivery of it' }]),
        }),
      },
    },
    '/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': {
      post: {
        operationId: 'redeliverWebhookDelivery',
        tags,
        summary: 'Send a delivery again now',
        description: 'The same body and event id. A delivery that has ended gets one more attempt; one waiting for a retry gets that retry now.',
        security: API_KEY,
        requestParams: { path: deliveryPath },
        responses: standardAnswers(
          {
            '202': success(202, webhookDelivery, 'The delivery, its attempt under way'),
            '400': invalid('webhookId or deliveryId'),
            ...apiKeyRefusals(),
            '404': failure(404, [{ code: 'NOT_FOUND', when: 'no such webhook of the key’s account, or no such delivery of it' }]),
            '409': failure(409, [DISABLED, { code: 'DELIVERY_IN_PROGRESS', when: 'an attempt of the delivery is under way' }]),
          },
          { asksActors: true },
        ),
      },
    },
    '/api/v1/webhooks/{webhookId}/redeliver-failed': {
      post: {
        operationId: 'redeliverFailedWebhookDeliveries',
        tags,
        summary: 'Send again every delivery that failed since a time',
        description: 'Oldest first, up to limit per call, each one attempt; more says whether to call again.',
        security: API_KEY,
        requestParams: { path: webhookPath },
        requestBody: { required: true, content: { 'application/json': { schema: redeliverFailedBody } } },
        responses: standardAnswers(
          {
            '202': success(202, redeliveryBatch, 'What was sent again'),
            '400': invalid('the body or webhookId'),
            ...apiKeyRefusals(),
            '404': failure(404, [WEBHOOK_NOT_FOUND]),
            '409': failure(409, [DISABLED]),
          },
          { body: true, asksActors: true },
        ),
      },
    },
  };
}
