/**
 * Document 1's idempotency on a sandbox order's test clock: testClockId is part of the
 * request, so an idempotencyKey reused with another clock, or with one added or dropped,
 * is another request (422 IDEMPOTENCY_KEY_MISMATCH); only the same clock replays.
 */
import test from 'ava';
import { startTestGateway } from '../support/gateway.js';
import { answerOf, DESTINATION } from '../support/checkout.js';

const MISMATCH = {
  success: false,
  message: 'This idempotencyKey was used for a different request',
  responseObject: null,
  statusCode: 422,
  errorCode: 'IDEMPOTENCY_KEY_MISMATCH',
};

async function node(t: { teardown(fn: () => Promise<void>): void }) {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { sandboxKey } = await gateway.createMerchant();
  const clock = async () => answerOf(await gateway.request('POST', '/api/v1/test-clocks', { key: sandboxKey, body: {} }), 201, 'clock').id as string;
  const order = (body: Record<string, unknown>) =>
    gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body: { requestedUsdcAmount: '5', destinationAddress: DESTINATION, ...body } });
  return { clock, order };
}

test('a key first used on one clock and reused on another is 422 IDEMPOTENCY_KEY_MISMATCH; the same clock replays', async (t) => {
  const { clock, order } = await node(t);
  const [first, second] = [await clock(), await clock()];
  const created = await order({ idempotencyKey: 'clock-key-0001', testClockId: first });
  t.is(created.status, 201);
  const other = await order({ idempotencyKey: 'clock-key-0001', testClockId: second });
  t.is(other.status, 422);
  t.deepEqual(other.body, MISMATCH);
  const dropped = await order({ idempotencyKey: 'clock-key-0001' });
  t.is(dropped.status, 422);
  t.deepEqual(dropped.body, MISMATCH);
  const replay = await order({ idempotencyKey: 'clock-key-0001', testClockId: first });
  t.is(replay.status, 200);
  t.deepEqual(replay.body.responseObject, { order: created.body.responseObject.order, orderToken: null, idempotentReplay: true });
});

test('a key first used off any clock and reused with a testClockId added is 422 IDEMPOTENCY_KEY_MISMATCH', async (t) => {
  const { clock, order } = await node(t);
  const created = await order({ idempotencyKey: 'clock-key-0002' });
  t.is(created.status, 201);
  const added = await order({ idempotencyKey: 'clock-key-0002', testClockId: await clock() });
  t.is(added.status, 422);
  t.deepEqual(added.body, MISMATCH);
});
