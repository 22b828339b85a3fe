import test from 'ava';
import fc from 'fast-check';
import { startTestGateway } from '../support/gateway.js';

const amount = fc.oneof(fc.constantFrom('1', '0', '-5', '12.5', '1.1234567', '', 'abc', '1e9', ' 3', '99999999999999999999'), fc.string());
const field = fc.oneof(fc.constant(undefined), amount, fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 8 }));

const body = fc.record(
  {
    requestedUsdcAmount: field,
    requestedFiatAmount: field,
    requestedFiatCurrency: fc.oneof(fc.constantFrom('USD', 'eur', 'XXX', 'EURO'), fc.string()),
    openAmount: fc.oneof(
      fc.constant(undefined),
      fc.record(
        {
          currency: fc.constantFrom('USD', 'eur', 'x'),
          minAmount: field,
          maxAmount: field,
          presets: fc.oneof(fc.constant(undefined), fc.array(amount, { maxLength: 8 })),
        },
        { requiredKeys: ['currency'] },
      ),
      fc.anything(),
    ),
    idempotencyKey: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 140 })),
    destinationAddress: fc.oneof(fc.constant(undefined), fc.constant('0x5555555555555555555555555555555555555555'), fc.string()),
    destinationToken: fc.oneof(fc.constant(undefined), fc.constantFrom('USDC', 'usdc', 'DOGE'), fc.string()),
    destinationChainId: fc.oneof(fc.constant(undefined), fc.constantFrom(8453, 1, 0, -1, 1.5), fc.string()),
    feePayer: fc.oneof(fc.constant(undefined), fc.constantFrom('MERCHANT', 'PAYEE', 'SPLIT', 'NOBODY')),
    buyerFeeShareBps: fc.oneof(fc.constant(undefined), fc.integer({ min: -10, max: 20_000 })),
    dynamicOrdersEnabled: fc.oneof(fc.constant(undefined), fc.boolean(), fc.string()),
    enabledRails: fc.oneof(fc.constant(undefined), fc.array(fc.constantFrom('venmo', 'zelle', 'fax'), { maxLength: 4 })),
    successUrl: fc.oneof(fc.constant(undefined), fc.constant(null), fc.webUrl(), fc.string()),
    notes: fc.oneof(fc.constant(undefined), fc.constant(null), fc.object({ maxDepth: 2 }), fc.string()),
    surprise: fc.oneof(fc.constant(undefined), fc.anything()),
  },
  { requiredKeys: [] },
);

/** Bodies the API accepts, so the property also covers the success path rather than only refusals. */
const acceptable = fc.record(
  {
    requestedUsdcAmount: fc.constantFrom('1', '12.5', '0.000001', '250'),
    buyerFeeShareBps: fc.integer({ min: 0, max: 10_000 }),
    feePayer: fc.constantFrom('MERCHANT', 'PAYEE', 'SPLIT'),
    notes: fc.oneof(fc.constant(null), fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 16 }), { maxKeys: 3 })),
  },
  { requiredKeys: ['requestedUsdcAmount'] },
);

test('random create bodies never cause a 5xx, and every 400 has the documented shape', async (t) => {
  t.timeout(120_000);
  const gateway = await startTestGateway();
  try {
    const { liveKey } = await gateway.createMerchant();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.oneof(body, acceptable), async (candidate) => {
        const response = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: candidate });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) return false;
        if (response.status !== 400) return [200, 201, 422].includes(response.status) && response.body.success === response.status < 300;
        const { responseObject, success, statusCode, errorCode } = response.body;
        if (success || statusCode !== 400) return false;
        if (errorCode !== undefined) return typeof response.body.message === 'string' && responseObject === null;
        return response.body.message === 'Invalid request' && typeof responseObject.fieldErrors === 'object' && Array.isArray(responseObject.formErrors);
      }),
      { numRuns: 300 },
    );
    t.true(statuses.has(400), 'the bodies reach validation failures');
    t.true(statuses.has(201), 'the bodies reach created orders');
  } finally {
    await gateway.stop();
  }
});
