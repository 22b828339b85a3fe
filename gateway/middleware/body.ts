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
 *
 * A body sent as is (no Content-Encoding, or `identity`), which is nearly every body, is
 * read here with the reader and parser @koa/bodyparser itself ends in (raw-body, then
 * @hapi/bourne refusing `__proto__` keys, objects and arrays only at the top): the same
 * body, limits and errors, without the wrapper's second content-type match, option
 * copies and decoder set-up on every request (issue 42). Encoded bodies still go
 * through @koa/bodyparser, which inflates them.
 */
import { parse as parseJson } from '@hapi/bourne';
import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware } from 'koa';
import readRawBody from 'raw-body';
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
  const checked = (ctx: Context, next: () => Promise<unknown>) => {
    if (nestsDeeperThan(ctx.request.body, MAX_BODY_DEPTH)) throw formError(`JSON body nests deeper than ${MAX_BODY_DEPTH} levels`);
    return next();
  };
  return async (ctx, next) => {
    // `is` is false for a body of another type; an empty body (Content-Length: 0,
    // what clients send on a body-less POST) is no body whatever its type.
    const json = ctx.request.length === 0 ? null : jsonType(ctx);
    if (json === false) throw unsupportedMediaType();
    // Without a body, @koa/bodyparser's answer turns on the type alone (a JSON type reads `''`, as the raw body webhooks verify).
    if (!json || !sentAsIs(ctx)) return parse(ctx, () => checked(ctx, next));
    try {
      const raw = await readRawBody(ctx.req, {
        length: ctx.get('content-length') === '' ? undefined : ctx.request.length,
        limit: limitBytes,
        encoding: 'utf-8',
      });
      ctx.request.body = parseStrict(raw);
      ctx.request.rawBody = raw;
    } catch (error) {
      throw parserFailure(error as Error, ctx);
    }
    return checked(ctx, next);
  };
}

/** Content-Type headers matched against JSON, each kept once: clients send one or two, and matching parses the header. */
const JSON_TYPES = new Map<string, string | false>();
const KEPT_TYPES = 64;

/** `ctx.request.is('application/json')`, its answer for each header value kept (it turns on the value alone once there is a body). */
function jsonType(ctx: Context): string | false | null {
  const type = ctx.req.headers['content-type'];
  // type-is's own test for a body: a length that is a number, or a transfer encoding.
  const hasBody = ctx.req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(ctx.req.headers['content-length']));
  if (type === undefined || !hasBody) return ctx.request.is('application/json');
  let known = JSON_TYPES.get(type);
  if (known === undefined) {
    known = ctx.request.is('application/json') ?? false;
    if (JSON_TYPES.size < KEPT_TYPES) JSON_TYPES.set(type, known);
  }
  return known;
}

/** Methods @koa/bodyparser reads a body for; it leaves every other request's body unset. */
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A body @koa/bodyparser would read without a decoder, on a request it would read at all. */
function sentAsIs(ctx: Context): boolean {
  const encoding = ctx.req.headers['content-encoding'];
  return (
    (encoding === undefined || encoding === '' || encoding === 'identity') &&
    PARSED_METHODS.has(ctx.method.toUpperCase()) &&
    ctx.request.body === undefined &&
    !ctx.req.closed
  );
}

/** co-body's strict JSON: empty is `{}`, anything but an object or array at the top is refused. */
function parseStrict(text: string): unknown {
  if (!text) return {};
  if (!STRICT_JSON.test(text)) throw new SyntaxError('invalid JSON, only supports object and array');
  return parseJson(text, { protoAction: 'error' });
}

/** RFC 7159's whitespace, then an object or an array. */
const STRICT_JSON = /^[\x20\x09\x0a\x0d]*(\[|\{)/;

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
