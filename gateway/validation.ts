/**
 * Parses request input with a zod schema. A failure is the documented validation
 * 400: message 'Invalid request', no errorCode, and zod's flattened
 * `{ fieldErrors, formErrors }` as the responseObject.
 */
import { z } from 'zod';
import { ApiError } from './envelope.js';

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ApiError(400, 'Invalid request', undefined, z.flattenError(result.error));
}
