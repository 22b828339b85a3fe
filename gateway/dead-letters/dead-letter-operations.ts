/**
 * The admin API for dead letters (ARCHITECTURE, Actors 9): list them, read one, retry
 * one (its source puts the work back with a fresh retry budget) or discard one with a
 * reason. Mounted in the admin area (gateway/admin/admin-area.ts) on a gateway given a
 * dead-letter store, and documented exactly then; the store logs every retry and
 * discard with who asked for it.
 */
import { parseAddress } from '../../actors/address.js';
import type { DeadLetter, DeadLetterStore } from '../../actors/runtime/dead-letters.js';
import { reply, respond } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { adminRefusal } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import {
  deadLetterList,
  deadLetterPath,
  deadLetterView,
  discardDeadLetterBody,
  type ListDeadLettersQuery,
  listDeadLettersQuery,
} from '../schemas/dead-letter-schemas.js';

export interface DeadLetterDependencies {
  deadLetters: DeadLetterStore;
}

export function deadLetterOperations(): Operation<DeadLetterDependencies>[] {
  return [listOperation, readOperation, retryOperation, discardOperation];
}

const notFound = failure(404, [{ code: 'DEAD_LETTER_NOT_FOUND', when: 'no dead letter has that id' }]);

const listOperation = defineOperation({
  method: 'get',
  path: '/internal/v1/dead-letters',
  operationId: 'listDeadLetters',
  tags: ['Admin'],
  summary: 'List dead letters, newest first',
  description: 'Work that failed past its retry policy (effects, timers, bus deliveries) or that its target refused. Pages follow nextStartingAfter.',
  guard: 'adminToken',
  request: { query: listDeadLettersQuery },
  answers: standardAnswers({
    '200': success(200, deadLetterList, 'A page of dead letters, and how many are open'),
    '400': invalid('the query'),
    ...adminRefusal,
    '404': failure(404, [{ code: 'DEAD_LETTER_NOT_FOUND', when: 'startingAfter names no dead letter' }]),
  }),
  handle:
    (deps: DeadLetterDependencies) =>
    async (ctx, { query }) => {
      reply(ctx, 200, 'Dead letters', deadLetterList, await listDeadLetters(deps.deadLetters, query));
    },
});

const readOperation = defineOperation({
  method: 'get',
  path: '/internal/v1/dead-letters/:deadLetterId',
  operationId: 'getDeadLetter',
  tags: ['Admin'],
  summary: 'Read a dead letter',
  guard: 'adminToken',
  request: { path: deadLetterPath },
  answers: standardAnswers({
    '200': success(200, deadLetterView, 'The dead letter'),
    '400': invalid('deadLetterId is not a dead letter id'),
    ...adminRefusal,
    '404': notFound,
  }),
  handle:
    (deps: DeadLetterDependencies) =>
    async (ctx, { path }) => {
      const letter = await deps.deadLetters.get(path.deadLetterId);
      if (!letter) return respond(ctx, 404, 'Dead letter not found', null, 'DEAD_LETTER_NOT_FOUND');
      reply(ctx, 200, 'Dead letter', deadLetterView, toDeadLetterView(letter));
    },
});

const retryOperation = defineOperation({
  method: 'post',
  path: '/internal/v1/dead-letters/:deadLetterId/retry',
  operationId: 'retryDeadLetter',
  tags: ['Admin'],
  summary: 'Put an open dead letter’s work back where it came from',
  description:
    'The work gets a fresh retry budget; a bus delivery is handed to the live consumer at once. If its source cannot take it back, the letter stays open.',
  guard: 'adminToken',
  request: { path: deadLetterPath },
  answers: standardAnswers(
    {
      '200': success(200, deadLetterView, 'Retried: the letter, now RETRIED'),
      '400': invalid('deadLetterId is not a dead letter id'),
      ...adminRefusal,
      '404': notFound,
      '409': failure(409, [
        { code: 'DEAD_LETTER_NOT_OPEN', when: 'the letter was already retried or discarded' },
        { code: 'DEAD_LETTER_NOT_RETRYABLE', when: 'no retrier for its source on this node, or work that cannot run again' },
        { code: 'CONSUMER_NOT_RUNNING', when: 'no consumer of that name runs on this node' },
      ]),
      '422': failure(422, [{ code: 'DEAD_LETTER_RETRY_FAILED', when: 'the work failed again; the letter stays open' }]),
    },
    { asksActors: true },
  ),
  handle:
    (deps: DeadLetterDependencies) =>
    // The store answers DEAD_LETTER_NOT_FOUND (404), DEAD_LETTER_NOT_OPEN (409) and its source's refusals
    // (DEAD_LETTER_NOT_RETRYABLE, CONSUMER_NOT_RUNNING, …) as CommandRejectedErrors, which the error envelope maps.
    async (ctx, { path }) => {
      const letter = await deps.deadLetters.retry(path.deadLetterId, caller(ctx.state.requestId));
      reply(ctx, 200, 'Dead letter retried', deadLetterView, toDeadLetterView(letter));
    },
});

const discardOperation = defineOperation({
  method: 'post',
  path: '/internal/v1/dead-letters/:deadLetterId/discard',
  operationId: 'discardDeadLetter',
  tags: ['Admin'],
  summary: 'Close an open dead letter without running its work again',
  guard: 'adminToken',
  request: { path: deadLetterPath, body: discardDeadLetterBody },
  answers: standardAnswers(
    {
      '200': success(200, deadLetterView, 'Discarded: the letter, now DISCARDED, with the reason'),
      '400': invalid('the body, or deadLetterId is not a dead letter id'),
      ...adminRefusal,
      '404': notFound,
      '409': failure(409, [{ code: 'DEAD_LETTER_NOT_OPEN', when: 'the letter was already retried or discarded' }]),
    },
    { body: true },
  ),
  handle:
    (deps: DeadLetterDependencies) =>
    async (ctx, { path, body }) => {
      const letter = await deps.deadLetters.discard(path.deadLetterId, body.reason, caller(ctx.state.requestId));
      reply(ctx, 200, 'Dead letter discarded', deadLetterView, toDeadLetterView(letter));
    },
});

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
