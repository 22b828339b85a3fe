/**
 * Turns whatever a handler throws into the envelope: API errors as they are, the
 * runtime's typed errors into their HTTP meaning, anything else into a 500 that
 * shows no stack or internal message. Requests no route served are answered by
 * unmatched.ts.
 */
import type { Middleware } from 'koa';
import { AskTimeoutError, CommandRejectedError, ShuttingDownError, UnknownActorError } from '../../actors/errors.js';
import { RateUnavailableError } from '../../actors/adapters/rates/rate-source.js';
import { IndexerUnavailableError } from '../../actors/chain/wallet-transfers.js';
import { ApiError, MALFORMED_REQUEST, PAYLOAD_TOO_LARGE, respond } from '../envelope.js';
import type { RequestState } from './request-context.js';

export function errorEnvelope(): Middleware<RequestState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (error instanceof ApiError) {
        if (error.retryAfterSeconds !== undefined) ctx.set('retry-after', String(error.retryAfterSeconds));
        return respond(ctx, error.statusCode, error.message, error.responseObject, error.errorCode);
      }
      if (error instanceof CommandRejectedError) return respond(ctx, error.status, error.message, error.details ?? null, error.code);
      if (error instanceof UnknownActorError) return respond(ctx, 404, 'Not found', null, 'NOT_FOUND');
      if (error instanceof AskTimeoutError || error instanceof ShuttingDownError) {
        ctx.set('retry-after', '1');
        return respond(ctx, 503, 'Service temporarily unavailable', null, 'SERVICE_UNAVAILABLE');
      }
      if (error instanceof RateUnavailableError) return respond(ctx, 503, 'Exchange rates are unavailable right now; retry shortly', null, 'RATE_UNAVAILABLE');
      if (error instanceof IndexerUnavailableError) {
        ctx.set('retry-after', '1');
        return respond(ctx, 503, 'The chain indexer is not answering; retry shortly', null, 'INDEXER_UNAVAILABLE');
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
