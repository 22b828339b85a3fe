/** The merchant's events: the list and the stream (docs/events.md). */
import { z } from 'zod';
import { listEventsQuery, merchantEventList, streamEventsHeaders, streamEventsQuery } from '../schemas/event-schemas.js';
import { failure, invalid, standardAnswers, success } from './answers.js';
import { API_KEY, apiKeyRefusals } from './security.js';

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

export function eventPaths() {
  return {
    '/api/v1/events': {
      get: {
        operationId: 'listEvents',
        tags,
        summary: 'The account’s events of the last 30 days, newest first',
        description:
          'Every order and payment event the account’s webhooks would be sent, whether or not any webhook is set up, each in the body its webhook carries, kept 30 days. For reconciliation: what happened while a receiver was down, or to an order. A sandbox key lists sandbox events only.',
        security: API_KEY,
        requestParams: { query: listEventsQuery },
        responses: standardAnswers({
          '200': success(200, merchantEventList, 'A page of events and the total'),
          '400': invalid('the query: an unknown type, a malformed orderId or paymentId, a page or limit out of range'),
          ...apiKeyRefusals(),
        }),
      },
    },
    '/api/v1/events/stream': {
      get: {
        operationId: 'streamEvents',
        tags,
        summary: 'The account’s new events as they happen (Server-Sent Events)',
        description: `What \`npm run listen\` forwards to a local receiver.\n\n${STREAM_FORMAT}`,
        security: API_KEY,
        requestParams: { query: streamEventsQuery, header: streamEventsHeaders },
        responses: standardAnswers({
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
      },
    },
  };
}
