/**
 * The admin API for dead letters (ARCHITECTURE, Actors 9): list them, read one, retry
 * one (its source puts the work back with a fresh retry budget) or discard one with a
 * reason. The routes go on the admin router (routes/admin.ts), so they are reachable
 * only through the admin token's guarded area; the store logs every retry and discard
 * with who asked for it.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { parseAddress } from '../../actors/address.js';
import type { DeadLetter, DeadLetterStore } from '../../actors/runtime/dead-letters.js';
import { reply, respond } from '../envelope.js';
import type { GatewayState } from '../state.js';
import {
  deadLetterList,
  deadLetterPath,
  deadLetterView,
  discardDeadLetterBody,
  listDeadLettersQuery,
  type ListDeadLettersQuery,
} from '../schemas/dead-letter-schemas.js';
import { parseOrThrow } from '../validation.js';

export interface DeadLetterRouteDependencies {
  deadLetters: DeadLetterStore;
  body: Middleware<GatewayState>;
}

/** Adds the dead-letter routes to the admin router (prefix `/internal/v1`). */
export function addDeadLetterRoutes(router: Router<GatewayState>, deps: DeadLetterRouteDependencies): void {
  const { deadLetters } = deps;

  router.get('/dead-letters', async (ctx) => {
    const query = parseOrThrow(listDeadLettersQuery, ctx.query);
    reply(ctx, 200, 'Dead letters', deadLetterList, await listDeadLetters(deadLetters, query));
  });

  router.get('/dead-letters/:deadLetterId', async (ctx) => {
    const { deadLetterId } = parseOrThrow(deadLetterPath, ctx.params);
    const letter = await deadLetters.get(deadLetterId);
    if (!letter) return respond(ctx, 404, 'Dead letter not found', null, 'DEAD_LETTER_NOT_FOUND');
    reply(ctx, 200, 'Dead letter', deadLetterView, toDeadLetterView(letter));
  });

  // The store answers DEAD_LETTER_NOT_FOUND (404), DEAD_LETTER_NOT_OPEN (409) and its source's refusals
  // (DEAD_LETTER_NOT_RETRYABLE, CONSUMER_NOT_RUNNING, …) as CommandRejectedErrors, which the error envelope maps.
  router.post('/dead-letters/:deadLetterId/retry', async (ctx) => {
    const { deadLetterId } = parseOrThrow(deadLetterPath, ctx.params);
    const letter = await deadLetters.retry(deadLetterId, caller(ctx.state.requestId));
    reply(ctx, 200, 'Dead letter retried', deadLetterView, toDeadLetterView(letter));
  });

  router.post('/dead-letters/:deadLetterId/discard', deps.body, async (ctx) => {
    const { deadLetterId } = parseOrThrow(deadLetterPath, ctx.params);
    const { reason } = parseOrThrow(discardDeadLetterBody, ctx.request.body);
    const letter = await deadLetters.discard(deadLetterId, reason, caller(ctx.state.requestId));
    reply(ctx, 200, 'Dead letter discarded', deadLetterView, toDeadLetterView(letter));
  });
}

/** Who acted, for the store's log line: the API and the request id, never a credential. */
function caller(requestId: string): string {
  return `admin-api:${requestId}`;
}

async function listDeadLetters(store: DeadLetterStore, query: ListDeadLettersQuery) {
  // The query schema has held actor to kind:id, so it parses.
  const actor = query.actor === undefined ? undefined : parseAddress(query.actor)!;
  const [page, openCount] = await Promise.all([
    store.list({
      status: query.status,
      ...(query.source ? { source: query.source } : {}),
      ...(actor ? { actor } : {}),
      limit: query.limit,
      ...(query.startingAfter ? { startingAfter: query.startingAfter } : {}),
    }),
    store.count('OPEN'),
  ]);
  const last = page.letters.at(-1);
  return {
    deadLetters: page.letters.map(toDeadLetterView),
    hasMore: page.hasMore,
    nextStartingAfter: page.hasMore && last ? last._id : null,
    limit: query.limit,
    openCount,
  };
}

/** The letter as the API answers it: its id as `id`, times as ISO strings, the payload as stored. */
function toDeadLetterView(letter: DeadLetter) {
  return {
    id: letter._id,
    key: letter.key,
    source: letter.source,
    actor: letter.actor ? { kind: letter.actor.kind, id: letter.actor.id } : null,
    consumer: letter.consumer,
    payload: letter.payload,
    error: { name: letter.error.name, message: letter.error.message, code: letter.error.code },
    attempts: letter.attempts,
    firstAttemptAt: iso(letter.firstAttemptAt),
    lastAttemptAt: iso(letter.lastAttemptAt),
    createdAt: iso(letter.createdAt),
    updatedAt: iso(letter.updatedAt),
    status: letter.status,
    resolution: letter.resolution,
    resolvedAt: letter.resolvedAt === null ? null : iso(letter.resolvedAt),
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
