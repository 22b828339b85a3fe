/**
 * The admin API's inspector (docs/inspector.md): search actors, list the ones worth a
 * look, read one as its document stands, page through its turns, see it as of any
 * turn, send it an event, and follow an order's actors over time. Mounted in the admin
 * area (gateway/admin/admin-area.ts), so only the admin token reaches it.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { DeadLetterStore } from '../../actors/runtime/dead-letters.js';
import { reply } from '../envelope.js';
import { failure, invalid, type Outcome, standardAnswers, success } from '../openapi/answers.js';
import { adminRefusal } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { sendEventBody, sentEvent } from '../schemas/actor-event-schemas.js';
import { actorAsOf, actorPath, actorSearch, historyQuery, inspectedActor, searchQuery, turnPage, turnPath, turnQuery } from '../schemas/inspector-schemas.js';
import { orderSequence, orderSequencePath } from '../schemas/sequence-schemas.js';
import { watchlist, watchlistQuery } from '../schemas/watchlist-schemas.js';
import type { ActorInspector } from './actor-inspector.js';
import { searchActors } from './actor-search.js';
import type { EventSender } from './event-sender.js';
import { readOrderSequence } from './order-sequence.js';
import { readWatchlist } from './watchlist.js';

export interface InspectorDependencies {
  system: ActorSystem;
  inspector: ActorInspector;
  events: EventSender;
  /** Unset on a gateway without a dead-letter store: the watchlist then names no dead letters. */
  deadLetters?: DeadLetterStore | undefined;
}

export function inspectorOperations(): Operation<InspectorDependencies>[] {
  return [searchOperation, watchlistOperation, sequenceOperation, actorOperation, sendEventOperation, historyOperation, asOfOperation];
}

const unknownActor: Outcome[] = [
  { code: 'KIND_NOT_FOUND', when: 'this node runs no actor kind of that name' },
  { code: 'ACTOR_NOT_FOUND', when: 'no actor of that kind has that id' },
];

const searchOperation = defineOperation({
  method: 'get',
  path: '/internal/v1/actors',
  operationId: 'searchActors',
  tags: ['Admin'],
  summary: 'Find actors by id, address, or the merchant, order or endpoint their view names',
  description: 'Exact matches first, then the actors whose view names the id, newest first per kind. Reads documents only; never wakes an actor.',
  guard: 'adminToken',
  request: { query: searchQuery },
  answers: standardAnswers({
    '200': success(200, actorSearch, 'The actors found, at most limit'),
    '400': invalid('the query'),
    ...adminRefusal,
  }),
  handle:
    (deps: InspectorDependencies) =>
    async (ctx, { query }) => {
      reply(ctx, 200, 'Actors', actorSearch, await searchActors(deps.system, query.query, query.limit));
    },
});

const watchlistOperation = defineOperation({
  method: 'get',
  path: '/internal/v1/actors/watchlist',
  operationId: 'watchActors',
  tags: ['Admin'],
  summary: 'The actors worth a look: recent turns, due timers, stuck, failing effects, dead letters',
  description:
    'For an engineer without an id to search. Stuck: partway through its work (a nested state) with no turn for stuckAfter minutes; the one list that reads every active document rather than an index. Reads documents only; never wakes an actor.',
  guard: 'adminToken',
  request: { query: watchlistQuery },
  answers: standardAnswers({
    '200': success(200, watchlist, 'Five lists, at most limit rows each'),
    '400': invalid('the query'),
    ...adminRefusal,
  }),
  handle:
    (deps: InspectorDependencies) =>
    async (ctx, { query }) => {
      reply(ctx, 200, 'Actors worth a look', watchlist, await readWatchlist(deps.system, deps.deadLetters, query.stuckAfter, query.limit));
    },
});

const sequenceOperation = defineOperation({
  method: 'get',
  path: '/internal/v1/actors/order/:orderId/sequence',
  operationId: 'getOrderSequence',
  tags: ['Admin'],
  summary: 'An order’s actors over time: the order, its payments, their transactions, the webhook deliveries',
  description:
    'Every turn of those actors in one list by time, each with whom it told (the newest 200 per actor). Found through indexes and the turns’ own links; never wakes an actor.',
  guard: 'adminToken',
  request: { path: orderSequencePath },
  answers: standardAnswers({
    '200': success(200, orderSequence, 'The actors and their turns'),
    '400': invalid('orderId'),
    ...adminRefusal,
    '404': failure(404, [{ code: 'ACTOR_NOT_FOUND', when: 'no order has that id' }]),
  }),
  handle:
    (deps: InspectorDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'The order’s actors over time', orderSequence, await readOrderSequence(deps.system, path.orderId));
    },
});

const sendEventOperation = defineOperation({
  method: 'post',
  path: '/internal/v1/actors/:kind/:actorId/events',
  operationId: 'sendActorEvent',
  tags: ['Admin'],
  summary: 'Send an event to an actor, as the platform would',
  description:
    'Through the actor system’s own message path, under the message id admin-api:<request id>, so the turn is recorded in the history like any other. A production node takes it for sandbox actors only. A refusal changes nothing.',
  guard: 'adminToken',
  request: { path: actorPath, body: sendEventBody },
  answers: standardAnswers(
    {
      '200': success(200, sentEvent, 'Applied: the actor’s reply and the turn it made'),
      '400': invalid('kind, actorId or the body', [
        { code: 'UNKNOWN_EVENT_TYPE', when: 'the actor’s machine takes no event of that type from the admin API (the message lists the ones it takes)' },
      ]),
      ...adminRefusal,
      '403': failure(403, [{ code: 'LIVE_ACTOR_PROTECTED', when: 'the node runs in production and the actor is not a sandbox one' }]),
      '404': failure(404, unknownActor),
      '409': failure(409, [
        {
          code: 'EVENT_REFUSED',
          when: 'the actor refused it: its state does not take it, or its kind’s rules refuse it (the message gives the actor’s own code)',
        },
      ]),
      '422': failure(422, [{ code: 'EVENT_FAILED', when: 'the machine could not read the event’s fields (a missing or mistyped field); nothing was written' }]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: InspectorDependencies) =>
    async (ctx, { path, body }) => {
      reply(ctx, 200, 'Event sent', sentEvent, await deps.events.send({ kind: path.kind, id: path.actorId }, body.event, ctx.state.requestId));
    },
});

const actorOperation = defineOperation({
  method: 'get',
  path: '/internal/v1/actors/:kind/:actorId',
  operationId: 'inspectActor',
  tags: ['Admin'],
  summary: 'Read an actor: its state, context, view, timers and outbox',
  description: 'As its document stands, secrets redacted. Reads the document only; never wakes the actor.',
  guard: 'adminToken',
  request: { path: actorPath },
  answers: standardAnswers({
    '200': success(200, inspectedActor, 'The actor'),
    '400': invalid('kind or actorId'),
    ...adminRefusal,
    '404': failure(404, unknownActor),
  }),
  handle:
    (deps: InspectorDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Actor', inspectedActor, await deps.inspector.actor({ kind: path.kind, id: path.actorId }));
    },
});

const historyOperation = defineOperation({
  method: 'get',
  path: '/internal/v1/actors/:kind/:actorId/history',
  operationId: 'listActorTurns',
  tags: ['Admin'],
  summary: 'Page through an actor’s turns, oldest first',
  description:
    'Every turn kept (HISTORY_RETENTION_DAYS) with its event, time, message id, state before and after, and the effects it queued. Pages follow nextAfter.',
  guard: 'adminToken',
  request: { path: actorPath, query: historyQuery },
  answers: standardAnswers({
    '200': success(200, turnPage, 'A page of turns'),
    '400': invalid('kind, actorId or the query'),
    ...adminRefusal,
    '404': failure(404, unknownActor),
  }),
  handle:
    (deps: InspectorDependencies) =>
    async (ctx, { path, query }) => {
      reply(ctx, 200, 'Turns', turnPage, await deps.inspector.turns({ kind: path.kind, id: path.actorId }, query.after, query.limit));
    },
});

const asOfOperation = defineOperation({
  method: 'get',
  path: '/internal/v1/actors/:kind/:actorId/history/:version',
  operationId: 'getActorAsOf',
  tags: ['Admin'],
  summary: 'The actor as it was after one turn',
  description: 'From the snapshot the turn stored, or with replay=true by replaying the recorded events through the machine from the creation.',
  guard: 'adminToken',
  request: { path: turnPath, query: turnQuery },
  answers: standardAnswers({
    '200': success(200, actorAsOf, 'The state value and context after the turn'),
    '400': invalid('kind, actorId, version or the query'),
    ...adminRefusal,
    '404': failure(404, [...unknownActor, { code: 'TURN_NOT_FOUND', when: 'no turn wrote that version, or it is past the retention' }]),
  }),
  handle:
    (deps: InspectorDependencies) =>
    async (ctx, { path, query }) => {
      const actor = await deps.inspector.asOf({ kind: path.kind, id: path.actorId }, Number(path.version), query.replay === 'true');
      reply(ctx, 200, 'Actor as of the turn', actorAsOf, actor);
    },
});
