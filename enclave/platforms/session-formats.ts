/**
 * The validator behind each session-material format a platform definition names
 * (machines/platforms), and the strict schemas built from a definition's fields: an
 * adapter's session and params schemas are made from its definition, so they accept
 * exactly what its provider template tells a client to capture and send.
 */
import { z } from 'zod';
import { CASHAPP_ACTIVITY_REQUEST, SESSION_FORMATS, type ParamField, type SessionField, type SessionFormat } from '../../machines/platforms/index.js';
import { headerValue, platformId } from './params.js';

/** The one Cash App request body the enclave replays; anything else is refused, so a client cannot aim the replay elsewhere. */
export const cashAppActivityRequest = z
  .object({
    activity_scope: z.literal(CASHAPP_ACTIVITY_REQUEST.activityScope),
    page_size: z.number().int().min(1).max(CASHAPP_ACTIVITY_REQUEST.maxPageSize),
    request_context: z.object({}).strict().optional(),
  })
  .strict();

const cashAppRequestText = z.string().transform((text, ctx) => {
  try {
    const parsed = cashAppActivityRequest.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Reported below like any other non-canonical payload.
  }
  ctx.addIssue({ code: 'custom', message: `must be the canonical ${CASHAPP_ACTIVITY_REQUEST.activityScope} request body` });
  return z.NEVER;
});

const replayableHeaderName = new RegExp(SESSION_FORMATS['replayable-headers'].headerNamePattern!, 'i');

const FORMATS = {
  header: headerValue,
  bearer: headerValue.regex(new RegExp(SESSION_FORMATS.bearer.pattern!), 'must be "Bearer <token>"'),
  'replayable-headers': z.record(z.string().regex(replayableHeaderName, 'only x-*, accept-language and user-agent headers may be replayed'), headerValue),
  'cashapp-activity-request': cashAppRequestText,
} satisfies Record<SessionFormat, z.ZodType>;

type Formats = typeof FORMATS;
type FieldSchema<F extends SessionField> = F extends { optional: true } ? z.ZodOptional<Formats[F['format']]> : Formats[F['format']];
type SessionShape<Fields extends readonly SessionField[]> = { -readonly [F in Fields[number] as F['name']]: FieldSchema<F> };
type ParamsShape<Params extends readonly ParamField[]> = { -readonly [P in Params[number] as P['name']]: typeof platformId };

/** The session material of `fields`, and nothing else. */
export function sessionSchema<const Fields extends readonly SessionField[]>(fields: Fields): z.ZodObject<SessionShape<Fields>, z.core.$strict> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) {
    const schema: z.ZodType = FORMATS[field.format];
    shape[field.name] = field.optional ? schema.optional() : schema;
  }
  return z.strictObject(shape) as unknown as z.ZodObject<SessionShape<Fields>, z.core.$strict>;
}

/** The public params of `params`, each a platform id, and nothing else. */
export function paramsSchema<const Params extends readonly ParamField[]>(params: Params): z.ZodObject<ParamsShape<Params>, z.core.$strict> {
  return z.strictObject(Object.fromEntries(params.map((param) => [param.name, platformId]))) as unknown as z.ZodObject<ParamsShape<Params>, z.core.$strict>;
}
