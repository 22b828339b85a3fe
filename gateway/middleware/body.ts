/**
 * JSON request bodies for the routes that take one. Only `application/json` is
 * accepted: a body of any other type is refused with 415 rather than parsed as `{}`,
 * because an empty object would come back as a confusing list of missing fields.
 * A request without a body passes with `{}`, so body-less POSTs (key rotation) work.
 * Parser failures become envelopes here, with the exact documented messages, instead
 * of reaching errors.ts as generic http errors.
 */
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { ApiError } from '../envelope.js';
import type { RequestState } from './request-context.js';

export function jsonBody(limitBytes: number): Middleware<RequestState> {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: limitBytes,
    onError(error) {
      throw parserFailure(error);
    },
  });
  return (ctx, next) => {
    // `is` is false for a body of another type; an empty body (Content-Length: 0,
    // what clients send on a body-less POST) is no body whatever its type.
    if (ctx.request.length !== 0 && ctx.request.is('application/json') === false) throw unsupportedMediaType();
    return parse(ctx, next);
  };
}

function parserFailure(error: Error): Error {
  // co-body reports JSON.parse failures (and non-object top levels) as SyntaxError.
  if (error instanceof SyntaxError) {
    return new ApiError(400, 'Invalid request', undefined, { fieldErrors: {}, formErrors: ['Malformed JSON body'] });
  }
  const status = (error as { status?: unknown }).status;
  if (status === 413) return new ApiError(413, 'Request body too large');
  // raw-body's unsupported charset or content-encoding.
  if (status === 415) return unsupportedMediaType();
  return error;
}

function unsupportedMediaType(): ApiError {
  return new ApiError(415, 'Unsupported media type: send application/json');
}
