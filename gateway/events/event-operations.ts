/**
 * The merchant's events (docs/events.md): the list, for reconciliation, and the stream
 * a local listener forwards from (`npm run listen`). Both read the event log, never an actor.
 */
import { z } from 'zod';
import type { MerchantEventLog } from '../../actors/merchant-events/event-log.js';
import { ApiError, reply } from '../envelope.js';
import type { MerchantAccounts } from '../merchants/merchant-accounts.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { apiKeyRefusals, merchantRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation, OperationContext } from '../operations/operation.js';
import { listEvents } from './event-list.js';
import { listEventsQuery, merchantEventList, streamEventsHeaders, streamEventsQuery } from './event-schemas.js';
import { streamEvents } from './event-stream.js';

export interface EventDependencies {
  events: MerchantEventLog;
  accounts: MerchantAccounts;
  /** Where a list's total stops counting (paged-views.ts). */
  totalCap: number;
}

export const EVENT_NOT_FOUND = 'EVENT_NOT_FOUND';

const tags = ['Webhooks'];

const STREAM_FORMAT = `
Server-Sent Events (text/event-stream). First \`retry: 2000\` and a \`: connected\` comment, then one message per event of the key's account, in the order the node recorded them:

\`\`\`
id: evt_ord_4Fz1hQk9TbW2mX7pLr0sVc3N_1_0
event: ORDER_CREATED
data: {"id":"evt_ord_4Fz1hQk9TbW2mX7pLr0sVc3N_1_0","type":"ORDER_CREATED","timestamp":"…","data":{"order":{…},"payment":null,"refund":null,"paymentBridge":null}}
\`\`\`

\`data\` is the webhook body (MerchantEvent) on one line; a \`: keep-alive\` comment comes every 15 seconds. The stream stays open until the client leaves, the node stops or the key is rotated; reconnect with Last-Event-ID set to the last \`id\` received and nothing is missed.
`.trim();

/** A parameter sent once arrives as a string, repeated as an array (form style): the schema takes the array. */
function repeatedTypes(ctx: OperationContext): Record<string, unknown> {
  const value = ctx.query.type;
  return typeof value === 'string' ? { ...ctx.query, type: [value] } : ctx.query;
}

const listEventsOperation = defineOperation({
  method: 'get',
  path: '/api/v1/events',
  operationId: 'listEvents',
  tags,
  summary: 'The account’s events of the last 30 days, newest first',
  description:
    'Every order and payment event the account’s webhooks would be sent, whether or not any webhook is set up, each in the body its webhook carries, kept 30 days. For reconciliation: what happened while a receiver was down, or to an order. A sandbox key lists sandbox events only.',
  guard: 'merchant',
  request: { query: listEventsQuery },
  read: { query: repeatedTypes },
  answers: standardAnswers({
    '200': success(200, merchantEventList, 'A page of events and the total'),
    '400': invalid('the query: an unknown type, a malformed orderId or paymentId, a page or limit out of range'),
    ...merchantRefusals(false),
  }),
  handle:
    (deps: EventDependencies) =>
    async (ctx, { query }) => {
      reply(ctx, 200, 'Events', merchantEventList, await listEvents(deps.events, ctx.state.account, query, deps.totalCap));
    },
});

const streamEventsOperation = defineOperation({
  method: 'get',
  path: '/api/v1/events/stream',
  operationId: 'streamEvents',
  tags,
  summary: 'The account’s new events as they happen (Server-Sent Events)',
  description: `What \`npm run listen\` forwards to a local receiver.\n\n${STREAM_FORMAT}`,
  guard: 'apiKey',
  request: { query: streamEventsQuery, header: streamEventsHeaders },
  read: { query: repeatedTypes, header: (ctx) => ({ 'last-event-id': ctx.get('last-event-id') || undefined }) },
  answers: standardAnswers({
    '200': {
      description: 'The stream',
      content: { 'text/event-stream': { schema: z.string().meta({ description: 'Server-Sent Events, one message per event' }) } },
    },
    '400': invalid('the query (an unknown type) or a malformed Last-Event-ID'),
    ...apiKeyRefusals(),
    '404': failure(404, [
      {
        code: 'EVENT_NOT_FOUND',
        when: 'Last-Event-ID names no event of this account of the last 30 days: list GET /api/v1/events to catch up, then stream without it',
      },
    ]),
  }),
  handle:
    (deps: EventDependencies) =>
    async (ctx, { query, header }) => {
      const lastEventId = header['last-event-id'];
      const after = lastEventId === undefined ? null : await deps.events.one(ctx.state.account.merchantId, lastEventId);
      if (lastEventId !== undefined && after === null) {
        throw new ApiError(
          404,
          'No event of this account with that id in the last 30 days: list GET /api/v1/events to catch up, then stream without Last-Event-ID',
          EVENT_NOT_FOUND,
        );
      }
      const { merchantId, apiKeyHash } = ctx.state.account;
      const keyValid = async () => (await deps.accounts.byId(merchantId))?.apiKeyHash === apiKeyHash;
      await streamEvents(ctx, deps.events, ctx.state.account, { types: query.type, after, keyValid });
    },
});

export function eventOperations(): Operation<EventDependencies>[] {
  return [listEventsOperation, streamEventsOperation];
}
