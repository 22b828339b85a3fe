import test from 'ava';
import fc from 'fast-check';
import { z } from 'zod';
import { ApiError } from '../../gateway/envelope.js';
import { parseOrThrow } from '../../gateway/validation.js';

const schema = z.strictObject({
  id: z.string().regex(/^[a-z]{3}_\w+$/),
  amount: z.string().regex(/^\d+(\.\d{1,6})?$/),
  count: z.number().int().min(0).max(10).optional(),
  nested: z.object({ flag: z.boolean() }).optional(),
});

const candidate = fc.oneof(
  fc.record(
    {
      id: fc.stringMatching(/^[a-z]{3}_\w{1,8}$/),
      amount: fc.stringMatching(/^\d{1,4}(\.\d{1,6})?$/),
      count: fc.integer({ min: 0, max: 10 }),
      nested: fc.record({ flag: fc.boolean() }),
    },
    { requiredKeys: ['id', 'amount'] },
  ),
  fc.anything(),
  fc.object(),
  fc.record(
    {
      id: fc.oneof(fc.constantFrom('ord_1', 'ORD_1', 'ord_'), fc.string(), fc.anything()),
      amount: fc.oneof(fc.constantFrom('25', '12.5', '1.1234567', '-1', ''), fc.string(), fc.double()),
      count: fc.oneof(fc.integer({ min: -5, max: 15 }), fc.double(), fc.anything()),
      nested: fc.oneof(fc.record({ flag: fc.anything() }), fc.anything()),
      extra: fc.anything(),
    },
    { requiredKeys: [] },
  ),
);

const isStringList = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');

test('parseOrThrow returns a value or throws only the documented validation ApiError', (t) => {
  const outcomes = { parsed: 0, rejected: 0 };
  fc.assert(
    fc.property(candidate, (input) => {
      let parsed: unknown;
      try {
        parsed = parseOrThrow(schema, input);
      } catch (error) {
        outcomes.rejected++;
        if (!(error instanceof ApiError)) return false;
        const details = error.responseObject as { fieldErrors?: unknown; formErrors?: unknown };
        const fieldErrors = details.fieldErrors;
        return (
          error.statusCode === 400 &&
          error.message === 'Invalid request' &&
          error.errorCode === undefined &&
          Object.keys(details).sort().join() === 'fieldErrors,formErrors' &&
          isStringList(details.formErrors) &&
          typeof fieldErrors === 'object' &&
          fieldErrors !== null &&
          Object.entries(fieldErrors).every(([field, messages]) => field in schema.shape && isStringList(messages) && messages.length > 0) &&
          !schema.safeParse(input).success
        );
      }
      outcomes.parsed++;
      return schema.safeParse(input).success && typeof parsed === 'object';
    }),
    { numRuns: 2000 },
  );
  t.true(outcomes.rejected > 0);
  t.true(outcomes.parsed > 0, 'some candidates pass, so both branches are checked');
});
