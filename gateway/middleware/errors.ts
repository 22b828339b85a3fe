/**
 * Turns whatever a handler throws into the envelope: API errors as they are, the
 * runtime's typed errors into the answer their row of the error table gives, anything else into a 500 that
 * shows no stack or internal message. Requests no route served are answered by
 * unmatched.ts.
 */
import type { Middleware } from 'koa';
import { answerOf } from '../../actors/errors/error-table.js';
import { ApiError, MALFORMED_REQUEST, PAYLOAD_TOO_LARGE, respond } from '../envelope.js';
import type { RequestState } from './request-context.js';

export function errorEnvelope(): Middleware<RequestState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof ApiError) {
        if (error.retryAfterSeconds !== undefined) {
          ctx.set('retry-after', String(error.retryAfterSeconds));
          // Document 1's 429 names its wait in x-retry-after: every 429 says it there too.
          if (error.statusCode === 429) ctx.set('x-retry-after', String(error.retryAfterSeconds));
        }
        return respond(ctx, error.statusCode, error.message, error.responseObject, error.errorCode);
      }
      // A runtime error's answer is its row in the error table: a refusal's own code, a missing actor, an outage.
      const answer = answerOf(error);
      if (answer) {
        if (answer.retryAfterSeconds !== undefined) ctx.set('retry-after', String(answer.retryAfterSeconds));
        return respond(ctx, answer.status, answer.message, answer.responseObject, answer.errorCode);
      }
      const status = httpStatusOf(error);
      if (status !== undefined && status >= 400 && status < 500) {
        if (status === 400) return respond(ctx, 400, MALFORMED_REQUEST.message, null, MALFORMED_REQUEST.errorCode);
        if (status === 413) return respond(ctx, 413, PAYLOAD_TOO_LARGE.message, null, PAYLOAD_TOO_LARGE.errorCode);
        return respond(ctx, status, 'Bad request', null);
      }
      ctx.state.log.error({ err: error }, 'unhandled error');
      respond(ctx, 500, 'Internal server error', null, 'INTERNAL_ERROR');
    }
  };
}

/** Koa and its body parsers throw http-errors with `status` and `expose` for client mistakes. */
function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  return typeof status === 'number' && expose === true ? status : undefined;
}
