/**
 * The admin API's inspector (docs/inspector.md): search actors, list the ones worth a
 * look, read one as its document stands, page through its turns, see it as of any
 * turn, send it an event, and follow an order's actors over time. The routes go on the admin router (routes/admin.ts), so
 * only the admin token reaches them.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { DeadLetterStore } from '../../actors/runtime/dead-letters.js';
import { reply } from '../envelope.js';
import type { ActorInspector } from '../inspector/actor-inspector.js';
import { searchActors } from '../inspector/actor-search.js';
import type { EventSender } from '../inspector/event-sender.js';
import { readOrderSequence } from '../inspector/order-sequence.js';
import { readWatchlist } from '../inspector/watchlist.js';
import type { GatewayState } from '../state.js';
import { sendEventBody, sentEvent } from '../schemas/actor-event-schemas.js';
import { actorAsOf, actorPath, actorSearch, historyQuery, inspectedActor, searchQuery, turnPage, turnPath, turnQuery } from '../schemas/inspector-schemas.js';
import { orderSequence, orderSequencePath } from '../schemas/sequence-schemas.js';
import { watchlist, watchlistQuery } from '../schemas/watchlist-schemas.js';
import { parseOrThrow } from '../validation.js';

export interface InspectorRouteDependencies {
  system: ActorSystem;
  inspector: ActorInspector;
  events: EventSender;
}

/** Adds the inspector routes to the admin router (prefix `/internal/v1`). */
export function addInspectorRoutes(
  router: Router<GatewayState>,
  { system, inspector, events, body, deadLetters }: InspectorRouteDependencies & { body: Middleware<GatewayState>; deadLetters: DeadLetterStore | undefined },
): void {
  router.get('/actors', async (ctx) => {
    const { query, limit } = parseOrThrow(searchQuery, ctx.query);
    reply(ctx, 200, 'Actors', actorSearch, await searchActors(system, query, limit));
  });

  router.get('/actors/watchlist', async (ctx) => {
    const { stuckAfter, limit } = parseOrThrow(watchlistQuery, ctx.query);
    reply(ctx, 200, 'Actors worth a look', watchlist, await readWatchlist(system, deadLetters, stuckAfter, limit));
  });

  router.get('/actors/order/:orderId/sequence', async (ctx) => {
    const { orderId } = parseOrThrow(orderSequencePath, ctx.params);
    reply(ctx, 200, 'The order’s actors over time', orderSequence, await readOrderSequence(system, orderId));
  });

  router.get('/actors/:kind/:actorId', async (ctx) => {
    const { kind, actorId } = parseOrThrow(actorPath, ctx.params);
    reply(ctx, 200, 'Actor', inspectedActor, await inspector.actor({ kind, id: actorId }));
  });

  router.post('/actors/:kind/:actorId/events', body, async (ctx) => {
    const { kind, actorId } = parseOrThrow(actorPath, ctx.params);
    const { event } = parseOrThrow(sendEventBody, ctx.request.body);
    reply(ctx, 200, 'Event sent', sentEvent, await events.send({ kind, id: actorId }, event, ctx.state.requestId));
  });

  router.get('/actors/:kind/:actorId/history', async (ctx) => {
    const { kind, actorId } = parseOrThrow(actorPath, ctx.params);
    const { after, limit } = parseOrThrow(historyQuery, ctx.query);
    reply(ctx, 200, 'Turns', turnPage, await inspector.turns({ kind, id: actorId }, after, limit));
  });

  router.get('/actors/:kind/:actorId/history/:version', async (ctx) => {
    const { kind, actorId, version } = parseOrThrow(turnPath, ctx.params);
    const { replay } = parseOrThrow(turnQuery, ctx.query);
    reply(ctx, 200, 'Actor as of the turn', actorAsOf, await inspector.asOf({ kind, id: actorId }, Number(version), replay === 'true'));
  });
}
