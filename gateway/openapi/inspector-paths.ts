/** The admin API's inspector operations (docs/inspector.md), documented exactly when they are served: wherever the admin API is. */
import { actorAsOf, actorPath, actorSearch, historyQuery, inspectedActor, searchQuery, turnPage, turnPath, turnQuery } from '../schemas/inspector-schemas.js';
import { sendEventBody, sentEvent } from '../schemas/actor-event-schemas.js';
import { orderSequence, orderSequencePath } from '../schemas/sequence-schemas.js';
import { watchlist, watchlistQuery } from '../schemas/watchlist-schemas.js';
import { failure, invalid, standardAnswers, success, type Outcome } from './answers.js';
import { ADMIN_TOKEN, adminRefusal } from './security.js';

const unknownActor: Outcome[] = [
  { code: 'KIND_NOT_FOUND', when: 'this node runs no actor kind of that name' },
  { code: 'ACTOR_NOT_FOUND', when: 'no actor of that kind has that id' },
];

export function inspectorPaths() {
  return {
    '/internal/v1/actors': {
      get: {
        operationId: 'searchActors',
        tags: ['Admin'],
        summary: 'Find actors by id, address, or the merchant, order or endpoint their view names',
        description: 'Exact matches first, then the actors whose view names the id, newest first per kind. Reads documents only; never wakes an actor.',
        security: ADMIN_TOKEN,
        requestParams: { query: searchQuery },
        responses: standardAnswers({
          '200': success(200, actorSearch, 'The actors found, at most limit'),
          '400': invalid('the query'),
          ...adminRefusal,
        }),
      },
    },
    '/internal/v1/actors/watchlist': {
      get: {
        operationId: 'watchActors',
        tags: ['Admin'],
        summary: 'The actors worth a look: recent turns, due timers, stuck, failing effects, dead letters',
        description:
          'For an engineer without an id to search. Stuck: partway through its work (a nested state) with no turn for stuckAfter minutes; the one list that reads every active document rather than an index. Reads documents only; never wakes an actor.',
        security: ADMIN_TOKEN,
        requestParams: { query: watchlistQuery },
        responses: standardAnswers({
          '200': success(200, watchlist, 'Five lists, at most limit rows each'),
          '400': invalid('the query'),
          ...adminRefusal,
        }),
      },
    },
    '/internal/v1/actors/order/{orderId}/sequence': {
      get: {
        operationId: 'getOrderSequence',
        tags: ['Admin'],
        summary: 'An order’s actors over time: the order, its payments, their transactions, the webhook deliveries',
        description:
          'Every turn of those actors in one list by time, each with whom it told (the newest 200 per actor). Found through indexes and the turns’ own links; never wakes an actor.',
        security: ADMIN_TOKEN,
        requestParams: { path: orderSequencePath },
        responses: standardAnswers({
          '200': success(200, orderSequence, 'The actors and their turns'),
          '400': invalid('orderId'),
          ...adminRefusal,
          '404': failure(404, [{ code: 'ACTOR_NOT_FOUND', when: 'no order has that id' }]),
        }),
      },
    },
    '/internal/v1/actors/{kind}/{actorId}/events': {
      post: {
        operationId: 'sendActorEvent',
        tags: ['Admin'],
        summary: 'Send an event to an actor, as the platform would',
        description:
          'Through the actor system’s own message path, under the message id admin-api:<request id>, so the turn is recorded in the history like any other. A production node takes it for sandbox actors only. A refusal changes nothing.',
        security: ADMIN_TOKEN,
        requestParams: { path: actorPath },
        requestBody: { required: true, content: { 'application/json': { schema: sendEventBody } } },
        responses: standardAnswers(
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
            '422': failure(422, [
              { code: 'EVENT_FAILED', when: 'the machine could not read the event’s fields (a missing or mistyped field); nothing was written' },
            ]),
          },
          { body: true, asksActors: true },
        ),
      },
    },
    '/internal/v1/actors/{kind}/{actorId}': {
      get: {
        operationId: 'inspectActor',
        tags: ['Admin'],
        summary: 'Read an actor: its state, context, view, timers and outbox',
        description: 'As its document stands, secrets redacted. Reads the document only; never wakes the actor.',
        security: ADMIN_TOKEN,
        requestParams: { path: actorPath },
        responses: standardAnswers({
          '200': success(200, inspectedActor, 'The actor'),
          '400': invalid('kind or actorId'),
          ...adminRefusal,
          '404': failure(404, unknownActor),
        }),
      },
    },
    '/internal/v1/actors/{kind}/{actorId}/history': {
      get: {
        operationId: 'listActorTurns',
        tags: ['Admin'],
        summary: 'Page through an actor’s turns, oldest first',
        description:
          'Every turn kept (HISTORY_RETENTION_DAYS) with its event, time, message id, state before and after, and the effects it queued. Pages follow nextAfter.',
        security: ADMIN_TOKEN,
        requestParams: { path: actorPath, query: historyQuery },
        responses: standardAnswers({
          '200': success(200, turnPage, 'A page of turns'),
          '400': invalid('kind, actorId or the query'),
          ...adminRefusal,
          '404': failure(404, unknownActor),
        }),
      },
    },
    '/internal/v1/actors/{kind}/{actorId}/history/{version}': {
      get: {
        operationId: 'getActorAsOf',
        tags: ['Admin'],
        summary: 'The actor as it was after one turn',
        description: 'From the snapshot the turn stored, or with replay=true by replaying the recorded events through the machine from the creation.',
        security: ADMIN_TOKEN,
        requestParams: { path: turnPath, query: turnQuery },
        responses: standardAnswers({
          '200': success(200, actorAsOf, 'The state value and context after the turn'),
          '400': invalid('kind, actorId, version or the query'),
          ...adminRefusal,
          '404': failure(404, [...unknownActor, { code: 'TURN_NOT_FOUND', when: 'no turn wrote that version, or it is past the retention' }]),
        }),
      },
    },
  };
}
