/**
 * The merchant's webhook operations (API key, or a dashboard session): setup (document 1's POST
 * /api/v1/webhooks and the rest of Peer's shapes), the delivery log, redeliveries and the test
 * event (docs/webhooks.md). A session changes webhooks and sends events as an Owner or a
 * Manager only: where the business's events go is not a cashier's decision.
 */
import { reply } from '../envelope.js';
import { failure, invalid, type Outcome, standardAnswers, success } from '../openapi/answers.js';
import { merchantRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import type { DeliveryLog } from './delivery-log.js';
import type { WebhookSetup } from './webhook-setup.js';
import {
  createWebhookBody,
  deliveryPath,
  listDeliveriesQuery,
  redeliverFailedBody,
  testWebhookBody,
  updateWebhookBody,
  webhookPath,
} from './webhook-schemas.js';
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
} from './webhook-resources.js';

export interface WebhookDependencies {
  setup: WebhookSetup;
  deliveries: DeliveryLog;
}

const WEBHOOK_NOT_FOUND: Outcome = { code: 'NOT_FOUND', when: 'no webhook of the key’s account has that id, or it was deleted' };
const DISABLED: Outcome = { code: 'WEBHOOK_DISABLED', when: 'the webhook is disabled; enable it first' };

const tags = ['Webhooks'];

const ROLE: Outcome = { code: 'ROLE_NOT_ALLOWED', when: 'a dashboard session whose member is a Cashier: changing webhooks takes an Owner or a Manager' };
/** The guard's refusals: a read's, or a change's (CSRF, and the role a session needs). */
const READS = merchantRefusals(false);
const CHANGES = merchantRefusals(true, [ROLE]);
const WRITERS = ['OWNER', 'MANAGER'] as const;

/** How an operation on one webhook by its id is refused, beside what it refuses of its own. */
const oneWebhookRefusals = (refusals: typeof READS) => ({
  '400': invalid('webhookId is not a webhook id'),
  ...refusals,
  '404': failure(404, [WEBHOOK_NOT_FOUND]),
});

const createWebhookOperation = defineOperation({
  method: 'post',
  path: '/api/v1/webhooks',
  operationId: 'createWebhook',
  tags,
  summary: 'Register an endpoint for webhook events',
  description: 'Answers the signing secret, once. events takes document 1’s types and the v0 dotted names that map to them; empty or absent is every type.',
  guard: 'merchant',
  roles: WRITERS,
  request: { body: createWebhookBody },
  answers: standardAnswers(
    {
      '201': success(201, webhookWithSecret, 'The webhook and its secret'),
      '400': invalid('the body: a URL this environment may not deliver to, an unknown event name, or a custom header that is malformed, reserved or repeated'),
      ...CHANGES,
      '409': failure(409, [{ code: 'WEBHOOK_LIMIT_REACHED', when: 'the account has 16 webhooks already' }]),
    },
    { body: true, asksActors: true },
  ),

  handle:
    ({ setup }: WebhookDependencies) =>
    async (ctx, { body }) => {
      reply(ctx, 201, 'Webhook created', webhookWithSecret, await setup.create(ctx.state.account, body));
    },
});

const listWebhooksOperation = defineOperation({
  method: 'get',
  path: '/api/v1/webhooks',
  operationId: 'listWebhooks',
  tags,
  summary: 'The account’s webhooks, oldest first',
  guard: 'merchant',
  answers: standardAnswers({ '200': success(200, webhookList, 'Every webhook not deleted'), ...READS }),

  handle:
    ({ setup }: WebhookDependencies) =>
    async (ctx) =>
      reply(ctx, 200, 'Webhooks', webhookList, await setup.list(ctx.state.account)),
});

const getWebhookOperation = defineOperation({
  method: 'get',
  path: '/api/v1/webhooks/:webhookId',
  operationId: 'getWebhook',
  tags,
  summary: 'One webhook',
  guard: 'merchant',
  request: { path: webhookPath },
  answers: standardAnswers({
    '200': success(200, webhook, 'The webhook'),
    ...oneWebhookRefusals(READS),
  }),

  handle:
    ({ setup }: WebhookDependencies) =>
    async (ctx, { path }) =>
      reply(ctx, 200, 'Webhook', webhook, await setup.read(ctx.state.account, path.webhookId)),
});

const updateWebhookOperation = defineOperation({
  method: 'patch',
  path: '/api/v1/webhooks/:webhookId',
  operationId: 'updateWebhook',
  tags,
  summary: 'Change a webhook, or switch it on or off',
  description:
    'active: true switches a disabled webhook back on (whatever disabled it). Events raised while it was off are kept as FAILED deliveries (failure SUSPENDED) and sent by redeliver-failed, not by switching it on.',
  guard: 'merchant',
  roles: WRITERS,
  request: { path: webhookPath, body: updateWebhookBody },

  answers: standardAnswers(
    {
      '200': success(200, webhook, 'The webhook as changed'),
      '400': invalid('the body or webhookId'),
      ...CHANGES,
      '404': failure(404, [WEBHOOK_NOT_FOUND]),
    },
    { body: true, asksActors: true },
  ),

  handle:
    ({ setup }: WebhookDependencies) =>
    async (ctx, { path, body }) => {
      reply(ctx, 200, 'Webhook updated', webhook, await setup.update(ctx.state.account, path.webhookId, body));
    },
});

const deleteWebhookOperation = defineOperation({
  method: 'delete',
  path: '/api/v1/webhooks/:webhookId',
  operationId: 'deleteWebhook',
  tags,
  summary: 'Delete a webhook',
  description: 'Nothing more is sent to it; deliveries waiting for a retry end FAILED with ENDPOINT_INACTIVE.',
  guard: 'merchant',
  roles: WRITERS,
  request: { path: webhookPath },
  answers: standardAnswers(
    {
      '200': success(200, deletedWebhook, 'Deleted'),
      ...oneWebhookRefusals(CHANGES),
    },
    { asksActors: true },
  ),

  handle:
    ({ setup }: WebhookDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Webhook deleted', deletedWebhook, await setup.remove(ctx.state.account, path.webhookId));
    },
});

const rotateWebhookSecretOperation = defineOperation({
  method: 'post',
  path: '/api/v1/webhooks/:webhookId/rotate-secret',
  operationId: 'rotateWebhookSecret',
  tags,
  summary: 'Make a new signing secret',
  description: 'The previous secret keeps signing beside the new one for 24 hours (previousSecretExpiresAt): both signatures are on every request meanwhile.',
  guard: 'merchant',
  roles: WRITERS,
  request: { path: webhookPath },
  answers: standardAnswers(
    {
      '200': success(200, webhookWithSecret, 'The webhook and its new secret'),
      ...oneWebhookRefusals(CHANGES),
    },
    { asksActors: true },
  ),

  handle:
    ({ setup }: WebhookDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Secret rotated', webhookWithSecret, await setup.rotateSecret(ctx.state.account, path.webhookId));
    },
});

const testWebhookOperation = defineOperation({
  method: 'post',
  path: '/api/v1/webhooks/:webhookId/test',
  operationId: 'testWebhook',
  tags,
  summary: 'Send a test event and answer what the endpoint said',
  description:
    'One attempt, no retries; the delivery shows in the log. The body has the payload shape of eventType’s family: an order or payout test event’s id starts evt_test_ and its data carries no resource; a DISPUTE_* test event’s id is dispute_test_<24 hex>_<type>, with version 1 and a sample dispute payload as data.',
  guard: 'merchant',
  roles: WRITERS,
  request: { path: webhookPath, body: testWebhookBody },
  optionalBody: true,
  answers: standardAnswers(
    {
      '200': success(200, testWebhookResponse, 'Whether the endpoint answered 2xx'),
      '400': invalid('the body or webhookId'),
      ...CHANGES,
      '404': failure(404, [WEBHOOK_NOT_FOUND]),
      '409': failure(409, [DISABLED]),
    },
    { body: true, asksActors: true },
  ),

  handle:
    ({ deliveries }: WebhookDependencies) =>
    async (ctx, { path, body }) => {
      reply(ctx, 200, 'Test event sent', testWebhookResponse, await deliveries.test(ctx.state.account, path.webhookId, body.eventType));
    },
});

const listWebhookDeliveriesOperation = defineOperation({
  method: 'get',
  path: '/api/v1/webhooks/:webhookId/deliveries',
  operationId: 'listWebhookDeliveries',
  tags,
  summary: 'The webhook’s deliveries, newest first',
  guard: 'merchant',
  request: { path: webhookPath, query: listDeliveriesQuery },
  answers: standardAnswers({
    '200': success(200, deliveryList, 'A page of deliveries and the total'),
    '400': invalid('the query or webhookId'),
    ...READS,
    '404': failure(404, [WEBHOOK_NOT_FOUND]),
  }),

  handle:
    ({ deliveries }: WebhookDependencies) =>
    async (ctx, { path, query }) =>
      reply(ctx, 200, 'Deliveries', deliveryList, await deliveries.list(ctx.state.account, path.webhookId, query)),
});

const getWebhookDeliveryOperation = defineOperation({
  method: 'get',
  path: '/api/v1/webhooks/:webhookId/deliveries/:deliveryId',
  operationId: 'getWebhookDelivery',
  tags,
  summary: 'One delivery with its attempts and the body it sends',
  guard: 'merchant',
  request: { path: deliveryPath },
  answers: standardAnswers({
    '200': success(200, deliveryDetail, 'The delivery'),
    '400': invalid('webhookId or deliveryId'),
    ...READS,
    '404': failure(404, [{ code: 'NOT_FOUND', when: 'no such webhook of the key’s account, or no such delivery of it' }]),
  }),

  handle:
    ({ deliveries }: WebhookDependencies) =>
    async (ctx, { path }) =>
      reply(ctx, 200, 'Delivery', deliveryDetail, await deliveries.read(ctx.state.account, path.webhookId, path.deliveryId)),
});

const redeliverWebhookDeliveryOperation = defineOperation({
  method: 'post',
  path: '/api/v1/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
  operationId: 'redeliverWebhookDelivery',
  tags,
  summary: 'Send a delivery again now',
  description:
    'The same body and event id. A delivery that has ended gets one more attempt; one waiting for a retry gets that retry now; one made while the webhook was off (SUSPENDED) starts on its schedule.',
  guard: 'merchant',
  roles: WRITERS,
  request: { path: deliveryPath },
  answers: standardAnswers(
    {
      '202': success(202, webhookDelivery, 'The delivery, its attempt under way'),
      '400': invalid('webhookId or deliveryId'),
      ...CHANGES,
      '404': failure(404, [{ code: 'NOT_FOUND', when: 'no such webhook of the key’s account, or no such delivery of it' }]),
      '409': failure(409, [DISABLED, { code: 'DELIVERY_IN_PROGRESS', when: 'an attempt of the delivery is under way' }]),
    },
    { asksActors: true },
  ),

  handle:
    ({ deliveries }: WebhookDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 202, 'Redelivery started', webhookDelivery, await deliveries.redeliver(ctx.state.account, path.webhookId, path.deliveryId));
    },
});

const redeliverFailedWebhookDeliveriesOperation = defineOperation({
  method: 'post',
  path: '/api/v1/webhooks/:webhookId/redeliver-failed',
  operationId: 'redeliverFailedWebhookDeliveries',
  tags,
  summary: 'Send again every delivery that failed since a time',
  description:
    'Oldest first, up to limit per call; more says whether to call again. Each gets one attempt, but one made while the webhook was off (SUSPENDED) starts on its schedule, after the event before it of the same order.',
  guard: 'merchant',
  roles: WRITERS,
  request: { path: webhookPath, body: redeliverFailedBody },

  answers: standardAnswers(
    {
      '202': success(202, redeliveryBatch, 'What was sent again'),
      '400': invalid('the body or webhookId'),
      ...CHANGES,
      '404': failure(404, [WEBHOOK_NOT_FOUND]),
      '409': failure(409, [DISABLED]),
    },
    { body: true, asksActors: true },
  ),

  handle:
    ({ deliveries }: WebhookDependencies) =>
    async (ctx, { path, body }) => {
      reply(ctx, 202, 'Redeliveries started', redeliveryBatch, await deliveries.redeliverFailed(ctx.state.account, path.webhookId, body));
    },
});

export function webhookOperations(): Operation<WebhookDependencies>[] {
  return [
    createWebhookOperation,
    listWebhooksOperation,
    getWebhookOperation,
    updateWebhookOperation,
    deleteWebhookOperation,
    rotateWebhookSecretOperation,
    testWebhookOperation,
    listWebhookDeliveriesOperation,
    getWebhookDeliveryOperation,
    redeliverWebhookDeliveryOperation,
    redeliverFailedWebhookDeliveriesOperation,
  ];
}
