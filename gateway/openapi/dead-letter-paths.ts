/** The admin API's dead-letter operations, documented exactly when they are served: on a gateway given a dead-letter store. */
import { deadLetterList, deadLetterPath, deadLetterView, discardDeadLetterBody, listDeadLettersQuery } from '../schemas/dead-letter-schemas.js';
import { failure, invalid, standardAnswers, success } from './answers.js';
import { ADMIN_TOKEN, adminRefusal } from './security.js';

const notFound = failure(404, [{ code: 'DEAD_LETTER_NOT_FOUND', when: 'no dead letter has that id' }]);

export function deadLetterPaths() {
  return {
    '/internal/v1/dead-letters': {
      get: {
        operationId: 'listDeadLetters',
        tags: ['Admin'],
        summary: 'List dead letters, newest first',
        description: 'Work that failed past its retry policy (effects, timers, bus deliveries) or that its target refused. Pages follow nextStartingAfter.',
        security: ADMIN_TOKEN,
        requestParams: { query: listDeadLettersQuery },
        responses: standardAnswers({
          '200': success(200, deadLetterList, 'A page of dead letters, and how many are open'),
          '400': invalid('the query'),
          ...adminRefusal,
          '404': failure(404, [{ code: 'DEAD_LETTER_NOT_FOUND', when: 'startingAfter names no dead letter' }]),
        }),
      },
    },
    '/internal/v1/dead-letters/{deadLetterId}': {
      get: {
        operationId: 'getDeadLetter',
        tags: ['Admin'],
        summary: 'Read a dead letter',
        security: ADMIN_TOKEN,
        requestParams: { path: deadLetterPath },
        responses: standardAnswers({
          '200': success(200, deadLetterView, 'The dead letter'),
          '400': invalid('deadLetterId is not a dead letter id'),
          ...adminRefusal,
          '404': notFound,
        }),
      },
    },
    '/internal/v1/dead-letters/{deadLetterId}/retry': {
      post: {
        operationId: 'retryDeadLetter',
        tags: ['Admin'],
        summary: 'Put an open dead letter’s work back where it came from',
        description:
          'The work gets a fresh retry budget; a bus delivery is handed to the live consumer at once. If its source cannot take it back, the letter stays open.',
        security: ADMIN_TOKEN,
        requestParams: { path: deadLetterPath },
        responses: standardAnswers(
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
      },
    },
    '/internal/v1/dead-letters/{deadLetterId}/discard': {
      post: {
        operationId: 'discardDeadLetter',
        tags: ['Admin'],
        summary: 'Close an open dead letter without running its work again',
        security: ADMIN_TOKEN,
        requestParams: { path: deadLetterPath },
        requestBody: { required: true, content: { 'application/json': { schema: discardDeadLetterBody } } },
        responses: standardAnswers(
          {
            '200': success(200, deadLetterView, 'Discarded: the letter, now DISCARDED, with the reason'),
            '400': invalid('the body, or deadLetterId is not a dead letter id'),
            ...adminRefusal,
            '404': notFound,
            '409': failure(409, [{ code: 'DEAD_LETTER_NOT_OPEN', when: 'the letter was already retried or discarded' }]),
          },
          { body: true },
        ),
      },
    },
  };
}
