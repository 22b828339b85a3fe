/**
 * Parses request input with a zod schema. A failure is the documented validation
 * 400: message 'Invalid request', no errorCode, and zod's flattened
 * `{ fieldErrors, formErrors }` as the responseObject.
 */
import { z } from 'zod';
import { MoneyFormatError } from '../machines/money.js';
import { ApiError, fieldError } from './envelope.js';

/**
 * `retired` names fields an older API version took: each one present gets its own
 * field error saying what replaced it, beside whatever else is wrong with the rest.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, retired: Readonly<Record<string, string>> = {}): z.output<S> {
  const present = isRecord(input) ? Object.keys(input).filter((key) => Object.hasOwn(retired, key)) : [];
  const rest = present.length > 0 ? Object.fromEntries(Object.entries(input as Record<string, unknown>).filter(([key]) => !present.includes(key))) : input;
  const result = schema.safeParse(rest);
  if (result.success && present.length === 0) return result.data;
  const flattened: { formErrors: string[]; fieldErrors: Record<string, string[]> } = result.success
    ? { formErrors: [], fieldErrors: {} }
    : (z.flattenError(result.error) as { formErrors: string[]; fieldErrors: Record<string, string[]> });
  for (const key of present) flattened.fieldErrors[key] = [retired[key]!];
  throw new ApiError(400, 'Invalid request', undefined, flattened);
}

/** A money field parsed with machines/money.ts: a malformed amount is that field's validation 400, not a fault. */
export function moneyField(field: string, parse: () => bigint): bigint {
  try {
    return parse();
  } catch (error) {
    if (error instanceof MoneyFormatError) throw fieldError(field, error.message, { cause: error });
    throw error;
  }
}

/** moneyField, and above zero. */
export function positiveMoneyField(field: string, parse: () => bigint): bigint {
  const value = moneyField(field, parse);
  if (value <= 0n) throw fieldError(field, 'must be above zero');
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
