/**
 * The merchant's events (docs/events.md): the list, for reconciliation, and the stream
 * a local listener forwards from (`npm run listen`). Both read the event log, never an actor.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { MerchantEventLog } from '../../actors/merchant-events/event-log.js';
import { ApiError, reply } from '../envelope.js';
import { listEvents } from '../events/event-list.js';
import { streamEvents } from '../events/event-stream.js';
import type { MerchantAccounts } from '../merchants/merchant-accounts.js';
import { exactRouter } from '../routing.js';
import { listEventsQuery, merchantEventList, streamEventsHeaders, streamEventsQuery } from '../schemas/event-schemas.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';

export interface EventRouteDependencies {
  events: MerchantEventLog;
  accounts: MerchantAccounts;
  auth: Middleware<GatewayState>;
}

export const EVENT_NOT_FOUND = 'EVENT_NOT_FOUND';

export function eventRoutes(deps: EventRouteDependencies): Router<GatewayState> {
  const router = exactRouter('/api/v1');

  router.get('/events', deps.auth, async (ctx) => {
    const query = parseOrThrow(listEventsQuery, repeatable(ctx.query, 'type'));
    reply(ctx, 200, 'Events', merchantEventList, await listEvents(deps.events, ctx.state.account, query));
  });

  router.get('/events/stream', deps.auth, async (ctx) => {
    const query = parseOrThrow(streamEventsQuery, repeatable(ctx.query, 'type'));
    const headers = parseOrThrow(streamEventsHeaders, { 'last-event-id': ctx.get('last-event-id') || undefined });
    const lastEventId = headers['last-event-id'];
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
  });

  return router;
}

/** A parameter sent once arrives as a string, repeated as an array (form style): the schema takes the array. */
function repeatable(query: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = query[name];
  return typeof value === 'string' ? { ...query, [name]: [value] } : query;
}
