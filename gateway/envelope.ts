/**
 * The response envelope of every API document: `{ success, message, responseObject,
 * statusCode, errorCode? }`, on successes and failures alike.
 */
import type { Context } from 'koa';
import type { z } from 'zod';
import type { ErrorCode } from '../actors/errors/error-codes.js';
import { PlatformError } from '../actors/errors/platform-error.js';

export interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  responseObject: T | null;
  statusCode: number;
  errorCode?: string;
}

/** A failure the API answers on purpose; anything else thrown becomes a 500. */
export class ApiError extends PlatformError {
  override readonly name = 'ApiError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errorCode?: ErrorCode,
    readonly responseObject: unknown = null,
    /** Sent as Retry-After: a failure that passes with time says when asking again is worth it. */
    readonly retryAfterSeconds?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** The errorCode, or API_ERROR for an answer that carries none (validation, 401, 429). */
  get code(): string {
    return this.errorCode ?? 'API_ERROR';
  }
}

/** A 400 in the validation shape for a rule about the whole request rather than one field. */
export function formError(message: string): ApiError {
  return new ApiError(400, 'Invalid request', undefined, { fieldErrors: {}, formErrors: [message] });
}

/** The content type of every envelope: what Koa's `ctx.type = 'application/json'` sets, written out so a rendered answer skips its MIME lookup. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A request HTTP itself could not read; it has a code of its own, so that it is never taken for the validation 400. */
export const MALFORMED_REQUEST = { statusCode: 400, message: 'Malformed HTTP request', errorCode: 'MALFORMED_REQUEST' } as const;

/** A body over the limit, whichever layer measured it. */
export const PAYLOAD_TOO_LARGE = { statusCode: 413, message: 'Request body too large', errorCode: 'PAYLOAD_TOO_LARGE' } as const;

/** A 400 in the validation shape for a rule the schema cannot express, about one field. */
export function fieldError(field: string, message: string, options?: ErrorOptions): ApiError {
  return new ApiError(400, 'Invalid request', undefined, { fieldErrors: { [field]: [message] }, formErrors: [] }, undefined, options);
}

function envelope<T>(statusCode: number, message: string, responseObject: T | null, errorCode?: string): Envelope<T> {
  const body: Envelope<T> = { success: statusCode >= 200 && statusCode < 300, message, responseObject, statusCode };
  if (errorCode !== undefined) body.errorCode = errorCode;
  return body;
}

export function respond<T>(ctx: Context, statusCode: number, message: string, responseObject: T | null, errorCode?: string): void {
  ctx.status = statusCode;
  ctx.body = envelope(statusCode, message, responseObject, errorCode);
}

/**
 * A success built through the resource's schema, the one the OpenAPI document shows:
 * the schema drops anything it does not declare and refuses a value that breaks it
 * (a 500, never an undocumented answer).
 */
export function reply<S extends z.ZodType>(ctx: Context, statusCode: number, message: string, resource: S, value: z.input<S>): void {
  respond(ctx, statusCode, message, resource.parse(value));
}

/** An answer rendered once, to be sent as is each time it is asked for unchanged. */
export interface Rendered {
  readonly statusCode: number;
  readonly body: Buffer;
}

/** A success built through the resource's schema as `reply` builds it, serialised for sending many times. */
export function rendered<S extends z.ZodType>(statusCode: number, message: string, resource: S, value: z.input<S>): Rendered {
  return { statusCode, body: Buffer.from(JSON.stringify(envelope(statusCode, message, resource.parse(value)))) };
}

export function sendRendered(ctx: Context, answer: Rendered): void {
  ctx.status = answer.statusCode;
  ctx.set('content-type', JSON_CONTENT_TYPE);
  ctx.body = answer.body;
}
