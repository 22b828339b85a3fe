/** The envelope as a zod schema, wrapping each resource for the OpenAPI document. */
import { z } from 'zod';

export function envelopeOf<T extends z.ZodType>(responseObject: T) {
  return z.object({
    success: z.boolean(),
    message: z.string().meta({ description: 'For a log line, not for matching' }),
    responseObject,
    statusCode: z.number(),
    errorCode: z.string().optional().meta({ description: 'Present on some failures; branch on it' }),
  });
}

export const failureEnvelope = envelopeOf(z.unknown().nullable()).meta({ id: 'Failure' });

export const validationFailure = envelopeOf(z.object({ fieldErrors: z.record(z.string(), z.array(z.string())), formErrors: z.array(z.string()) })).meta({
  id: 'ValidationFailure',
});
