/**
 * JSON request bodies for the routes that take one. Only `application/json` is
 * accepted: a body of any other type is refused with 415 rather than parsed as `{}`,
 * because an empty object would come back as a confusing list of missing fields.
 * A request without a body passes with `{}`, so body-less POSTs (key rotation) work.
 *
 * Every way a body can fail becomes an envelope here, never a 500: malformed JSON, a
 * body that does not decode as its Content-Encoding says (gzip, deflate, br), one
 * over the size limit (after decoding, so a small gzip cannot inflate past it), an
 * unknown encoding or charset, and JSON nested deeper than MAX_BODY_DEPTH, which is
 * refused before any handler, codec or hash walks it recursively.
 */
import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware } from 'koa';
import { ApiError, PAYLOAD_TOO_LARGE, formError } from '../envelope.js';
import { nestsDeeperThan } from '../json-limits.js';
import type { RequestState } from './request-context.js';

/** Deeper than any request of the API needs (free-form fields stop at 16 inside it), shallow enough for recursive code. */
export const MAX_BODY_DEPTH = 32;

export function jsonBody(limitBytes: number): Middleware<RequestState> {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: limitBytes,
    onError(error, ctx) {
      throw parserFailure(error, ctx);
    },
  });
  return (ctx, next) => {
    // `is` is false for a body of another type; an empty body (Content-Length: 0,
    // what clients send on a body-less POST) is no body whatever its type.
    if (ctx.request.length !== 0 && ctx.request.is('application/json') === false) throw unsupportedMediaType();
    return parse(ctx, () => {
      if (nestsDeeperThan(ctx.request.body, MAX_BODY_DEPTH)) throw formError(`JSON body nests deeper than ${MAX_BODY_DEPTH} levels`);
      return next();
    });
  };
}

function parserFailure(error: Error, ctx: Context): Error {
  // co-body reports JSON.parse failures (and non-object top levels) as SyntaxError.
  if (error instanceof SyntaxError) return formError('Malformed JSON body');
  const status = (error as { status?: unknown }).status;
  if (status === 413) return new ApiError(PAYLOAD_TOO_LARGE.statusCode, PAYLOAD_TOO_LARGE.message, PAYLOAD_TOO_LARGE.errorCode);
  // raw-body's unsupported charset or content-encoding.
  if (status === 415) return unsupportedMediaType();
  // zlib's errors carry no HTTP status; with a decoder in play they mean the bytes are not what the header claims.
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (status === undefined && encoding !== '' && encoding !== 'identity') return formError(`Body is not valid ${encoding} data, as its Content-Encoding says`);
  return error;
}

function unsupportedMediaType(): ApiError {
  return new ApiError(415, 'Unsupported media type: send application/json', 'UNSUPPORTED_MEDIA_TYPE');
}
