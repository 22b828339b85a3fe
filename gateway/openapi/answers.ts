/**
 * Building blocks for an operation's documented answers. A success is the envelope
 * around the resource schema the route replies through; a failure lists every way
 * an operation can fail with that status, each with its `errorCode` (or none), and
 * its schema admits exactly those codes, so a response validator catches a code that
 * nobody documented. Each code is a row of the error table (actors/errors/error-codes.ts):
 * listed under a status its row does not give it, the document fails to build, and an
 * outcome that says no `when` of its own says the row's.
 */
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode, type ErrorCodeRow } from '../../actors/errors/error-codes.js';

/**
 * One way to fail: the errorCode it carries (none for validation, 401 and 429, as document 1
 * has them) and when; a coded outcome may leave `when` to its row in the error table.
 */
export type Outcome = { code: ErrorCode; when?: string } | { code?: undefined; when: string };

type Listed = { code?: ErrorCode; when: string };

/** The outcomes as listed under `status`, each code checked against its row, each `when` defaulted from it. */
function listed(status: number, outcomes: readonly Outcome[]): Listed[] {
  return outcomes.map((outcome) => {
    if (outcome.code === undefined) return outcome;
    const row: ErrorCodeRow = ERROR_CODES[outcome.code];
    if (row.status !== status && !row.alsoStatus?.includes(status)) {
      throw new Error(`${outcome.code} is listed under ${status}, but its row in actors/errors/error-codes.ts answers it with ${row.status}`);
    }
    return { code: outcome.code, when: outcome.when ?? row.when };
  });
}

type Answer = { description: string; content: Record<string, { schema: z.ZodType }>; headers?: z.ZodObject };
export type Answers = Record<string, Answer>;

const json = (schema: z.ZodType, description: string): Answer => ({ description, content: { 'application/json': { schema } } });

const envelopeFields = (status: number) => ({
  success: z.literal(status >= 200 && status < 300).meta({ description: 'True exactly for a 2xx answer' }),
  message: z.string().meta({ description: 'For a log line, not for matching' }),
  statusCode: z.literal(status).meta({ description: 'The HTTP status' }),
});

/** The envelope of a success, around the resource the route replies through. */
export function success(status: number, resource: z.ZodType, description: string): Answer {
  return json(z.object({ ...envelopeFields(status), responseObject: resource.meta({ description: 'The payload' }) }), description);
}

/** Document 1's validation 400: message 'Invalid request', no errorCode, which fields failed and why. */
export const validationFailure = z
  .object({
    ...envelopeFields(400),
    message: z.literal('Invalid request').meta({ description: 'Always Invalid request' }),
    responseObject: z
      .object({
        fieldErrors: z.record(z.string(), z.array(z.string())).meta({ description: 'Messages per field; a nested field is named by its first segment' }),
        formErrors: z.array(z.string()).meta({ description: 'Messages about the request as a whole' }),
      })
      .meta({ description: 'Which fields failed, and why' }),
  })
  .meta({ id: 'ValidationFailure' });

export const noPayload = z.null().meta({ description: 'Null: a failure carries no payload' });

/** The errorCode of a failure: one of the codes the operation lists for the status. */
export function errorCode(codes: readonly string[]) {
  return z
    .enum(codes as [string, ...string[]])
    .meta({ description: 'What went wrong, for a program to branch on; the status’s list above says when each is answered' });
}

function coded(status: number, outcomes: readonly Listed[]): z.ZodType[] {
  const codes = outcomes.flatMap((outcome) => (outcome.code === undefined ? [] : [outcome.code]));
  const variants: z.ZodType[] = [];
  if (codes.length > 0) variants.push(z.object({ ...envelopeFields(status), responseObject: noPayload, errorCode: errorCode(codes) }));
  if (codes.length < outcomes.length) variants.push(z.object({ ...envelopeFields(status), responseObject: noPayload }));
  return variants;
}

function describe(outcomes: readonly Listed[], lead?: string): string {
  const lines = outcomes.map((outcome) => `- ${outcome.code === undefined ? 'no errorCode' : `\`${outcome.code}\``}: ${outcome.when}`);
  return [...(lead ? [lead, ''] : []), ...lines].join('\n');
}

function oneOf(variants: z.ZodType[]): z.ZodType {
  return variants.length === 1 ? variants[0]! : z.union(variants as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}

/** Every way an operation fails with `status` (not a validation 400: see `invalid`). */
export function failure(status: number, outcomes: readonly Outcome[]): Answer {
  const answers = listed(status, outcomes);
  return json(oneOf(coded(status, answers)), describe(answers));
}

/** A 400: the validation shape, or one of the coded business rules listed. */
export function invalid(what: string, outcomes: readonly Outcome[] = []): Answer {
  const answers = listed(400, outcomes);
  return json(oneOf([validationFailure, ...coded(400, answers)]), describe(answers, `Validation failed (${what}): ValidationFailure, no errorCode.`));
}

const RATE_LIMITED: Answers = {
  '429': {
    ...failure(429, [{ when: 'Too many requests from this client address (message `Too many requests`); retry after `x-retry-after` seconds' }]),
    headers: z.object({
      'x-retry-after': z.string().meta({ description: 'Whole seconds until a request is allowed again' }),
      'x-rate-limit-remaining': z.string().meta({ description: 'Requests left in the window' }),
      'x-rate-limiter-resets-at': z.string().meta({ description: 'ISO time the window resets' }),
    }),
  },
};
const INTERNAL: Answers = {
  '500': failure(500, [{ code: 'INTERNAL_ERROR', when: 'A fault of ours; the answer shows no detail, the log has it under the request id' }]),
};

/**
 * What every operation can answer beside its own outcomes: the rate limit and a fault
 * of ours; with a body, its size and type; when it asks an actor, the node being
 * unable to reach it. `unavailable` adds the operation's own 503 outcomes; `rateLimited: false`
 * is for the probes, which are mounted ahead of the limit.
 */
export function standardAnswers(
  own: Answers,
  options: { body?: boolean; asksActors?: boolean; unavailable?: readonly Outcome[]; rateLimited?: boolean } = {},
): Answers {
  const answers: Answers = { ...own, ...(options.rateLimited === false ? {} : RATE_LIMITED), ...INTERNAL };
  if (options.body) {
    answers['413'] = failure(413, [{ code: 'PAYLOAD_TOO_LARGE', when: 'The body is over the limit (BODY_LIMIT_BYTES, counted after decompression)' }]);
    answers['415'] = failure(415, [
      { code: 'UNSUPPORTED_MEDIA_TYPE', when: 'The body is not application/json, or its Content-Encoding or charset is unknown' },
    ]);
  }
  const unavailable: Outcome[] = [
    ...(options.asksActors
      ? [{ code: 'SERVICE_UNAVAILABLE' as const, when: 'The node could not reach the actor in time, or is shutting down; retry after Retry-After' }]
      : []),
    ...(options.unavailable ?? []),
  ];
  if (unavailable.length > 0) answers['503'] = failure(503, unavailable);
  return answers;
}
