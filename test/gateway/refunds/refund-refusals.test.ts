/**
 * What the refund create refuses (docs/refunds.md), each in the documented envelope, and that
 * a refused request holds nothing of the order: an order that is not the key's (404), not
 * FULFILLED (409 ORDER_NOT_REFUNDABLE with its status), a sandbox key, the payout rules a
 * refund keeps, and bodies that fail validation.
 */
import test from 'ava';
import { answerOf, placeOrder } from '../../support/checkout.js';
import { refundBody, refundWorld, USDC } from './refund-world.js';

test('an order that is not the key’s is 404 NOT_FOUND, on the create and the read: unknown, another merchant’s, the sandbox twin’s', async (t) => {
  const world = await refundWorld(t);
  const other = await world.otherMerchant();
  const theirs = await placeOrder(world.gateway, other.liveKey, { requestedUsdcAmount: '10' });
  const sandbox = await placeOrder(world.gateway, world.merchant.sandboxKey, { requestedUsdcAmount: '10' });
  for (const [what, orderId] of [
    ['unknown', 'ord_000000000000000000000000'],
    ['another merchant’s', theirs.id],
    ['the sandbox account’s', sandbox.id],
  ] as const) {
    const created = await world.refund(orderId);
    t.is(created.status, 404, what);
    t.like(created.body, { success: false, statusCode: 404, errorCode: 'NOT_FOUND', responseObject: null }, what);
    t.like((await world.refunds(orderId)).body, { statusCode: 404, errorCode: 'NOT_FOUND' }, what);
  }
  const malformed = await world.refund('not-an-order');
  t.is(malformed.status, 400);
  t.truthy(malformed.body.responseObject.fieldErrors.orderId);
});

test('only a FULFILLED order is refunded: CREATED, PARTIALLY_FULFILLED and CANCELLED are 409 ORDER_NOT_REFUNDABLE with the status, and nothing is made', async (t) => {
  const world = await refundWorld(t);
  const unpaid = await world.order('100', []);
  const partial = await world.order('100', [40n * USDC]);
  const cancelled = await world.order('100', []);
  await world.gateway.node.system.askAt({ kind: 'order', id: cancelled }, { type: 'CANCEL', at: world.iso() });
  for (const [orderId, status] of [
    [unpaid, 'CREATED'],
    [partial, 'PARTIALLY_FULFILLED'],
    [cancelled, 'CANCELLED'],
  ] as const) {
    const answer = await world.refund(orderId, refundBody({ amount: '1' }));
    t.is(answer.status, 409, status);
    t.like(answer.body, { success: false, statusCode: 409, errorCode: 'ORDER_NOT_REFUNDABLE', responseObject: { status } }, status);
    t.like(answerOf(await world.refunds(orderId), 200, 'refunds read'), { refunds: [] });
  }
  t.is(world.funding.requests.size, 0, 'no payout was made');
});

test('a sandbox key is 403 PAYOUT_SANDBOX_UNSUPPORTED (a refund is a payout, live only); no key is a 401 with no code', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order();
  const sandbox = await world.refund(orderId, refundBody(), undefined, world.merchant.sandboxKey);
  t.is(sandbox.status, 403);
  t.is(sandbox.body.errorCode, 'PAYOUT_SANDBOX_UNSUPPORTED');
  const anonymous = await world.gateway.request('POST', `/api/v1/merchants/me/orders/${orderId}/refunds`, {
    body: refundBody(),
    headers: { 'idempotency-key': 'refund-no-key-1' },
  });
  t.is(anonymous.status, 401);
  t.is(anonymous.body.errorCode, undefined);
});

test('the payout rules a refund keeps: payouts set up and on, an allowed funding token, available rails; each refusal holds nothing', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order();
  const refused = async (status: number, code: string, body = refundBody()) => {
    const answer = await world.refund(orderId, body);
    t.is(answer.status, status, code);
    t.is(answer.body.errorCode, code);
  };
  await refused(
    400,
    'PAYOUT_FUNDING_TOKEN_UNSUPPORTED',
    refundBody({ funding: { chainId: 8453, tokenAddress: '0x1111111111111111111111111111111111111111' } }),
  );
  await refused(422, 'PAYOUT_REQUESTED_RAILS_UNAVAILABLE', refundBody({ rails: ['paypal'] }));
  await world.setSettings({
    methods: [],
    merchantFeeBps: 0,
    merchantWalletAddress: null,
    serviceFeeBps: 200,
    fundingTokens: null,
    payoutStepUsdc: 100n * USDC,
  });
  await refused(403, 'PAYOUTS_DISABLED');
  await world.setSettings(null);
  await refused(409, 'MERCHANT_CONFIG_MISSING');
  t.like(answerOf(await world.refunds(orderId), 200, 'refunds read'), { refunds: [], refundableAmountUsdc: '100' });
  t.is(world.funding.requests.size, 0);
});

test('the payout step and the merchant fee do not apply: 0.01 USDC is a refund; a merchant fee set with no wallet refuses no refund', async (t) => {
  const world = await refundWorld(t);
  await world.setSettings({
    methods: ['zelle'],
    merchantFeeBps: 100,
    merchantWalletAddress: null,
    serviceFeeBps: 200,
    fundingTokens: null,
    payoutStepUsdc: 100n * USDC,
  });
  const orderId = await world.order();
  const made = await world.refunded(orderId, refundBody({ amount: '0.01' }));
  t.like(made.payout, { payout: { amount: '0.01' }, merchantFee: { bps: 0, amount: '0.00' } });
});

test('bodies that fail validation are 400 with the field named, before anything else is looked at', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order();
  for (const [field, body] of [
    ['amount', refundBody({ amount: '0' })],
    ['amount', refundBody({ amount: '1.0000001' })],
    ['amount', refundBody({ amount: -1 })],
    ['customerEmail', refundBody({ customerEmail: 'not an e-mail' })],
    ['metadata', refundBody({ metadata: 'a string' })],
    ['funding', refundBody({ funding: { chainId: 1, tokenAddress: 'bc1notevm' } })],
    ['returnUrl', refundBody({ returnUrl: 'http://shop.example/back' })],
  ] as const) {
    const answer = await world.refund(orderId, body, null);
    t.is(answer.status, 400, `${field}: ${JSON.stringify(body)}`);
    t.like(answer.body, { success: false, message: 'Invalid request' });
    t.truthy(answer.body.responseObject.fieldErrors[field], field);
  }
  const unknown = await world.refund(orderId, { ...refundBody(), payout: { amount: '1' } }, null);
  t.is(unknown.status, 400, 'unknown fields are refused, the payout’s own included');
  const missing = await world.refund(orderId, { customerEmail: 'ana@example.com' }, null);
  t.truthy(missing.body.responseObject.fieldErrors.amount);
  t.truthy(missing.body.responseObject.fieldErrors.funding);
});
