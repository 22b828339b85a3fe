/**
 * Document 2's availability rules and every merchant error code of the payout routes, each
 * through HTTP: the sandbox, unfinished or disabled accounts, the payout's token, step and
 * maximum, the funding token, the rails, the provider's refusals and faults, another
 * merchant's payouts.
 */
import test from 'ava';
import { PAYOUT_RAILS } from '../../../machines/payout/index.js';
import { USDC_ON_BASE, payoutBody } from '../../support/payout-fakes.js';
import { SETTINGS, newKey, payoutWorld, type PayoutWorld } from './payout-world.js';

async function refusedWith(t: import('ava').ExecutionContext, world: PayoutWorld, body: unknown, status: number, code: string, what = code) {
  const answer = await world.create(body, newKey());
  t.is(answer.status, status, `${what}: ${JSON.stringify(answer.body)}`);
  t.is(answer.body.errorCode, code, what);
  t.false(answer.body.success, what);
  return answer;
}

const amount = (value: string) => ({ payout: { amount: value, chainId: 8453, tokenAddress: USDC_ON_BASE } });

test('a sandbox key is 403 PAYOUT_SANDBOX_UNSUPPORTED on create, read, list and cancel', async (t) => {
  const world = await payoutWorld(t);
  const made = await world.created();
  const sandbox = world.merchant.sandboxKey;
  for (const answer of [
    await world.create(payoutBody(), newKey(), sandbox),
    await world.read(made.payoutId, sandbox),
    await world.list('', sandbox),
    await world.cancel(made.payoutId, sandbox),
  ]) {
    t.is(answer.status, 403);
    t.is(answer.body.errorCode, 'PAYOUT_SANDBOX_UNSUPPORTED');
  }
  t.is((await world.view(made.payoutId)).status, 'AWAITING_FUNDING', 'the sandbox cancel changed nothing');
});

test('account setup: no payout settings 409 MERCHANT_CONFIG_MISSING, no methods 403 PAYOUTS_DISABLED, a fee without a wallet 403 PAYOUT_MERCHANT_WALLET_MISSING', async (t) => {
  const world = await payoutWorld(t, { settings: null });
  await refusedWith(t, world, payoutBody(), 409, 'MERCHANT_CONFIG_MISSING');
  await world.setSettings({ ...SETTINGS, methods: [] });
  await refusedWith(t, world, payoutBody(), 403, 'PAYOUTS_DISABLED');
  await world.setSettings({ ...SETTINGS, merchantWalletAddress: null });
  await refusedWith(t, world, payoutBody(), 403, 'PAYOUT_MERCHANT_WALLET_MISSING');
  await world.setSettings({ ...SETTINGS, merchantFeeBps: 0, merchantWalletAddress: null });
  t.is((await world.create(payoutBody(), newKey())).status, 201, 'no fee needs no wallet');
});

test('the payout itself: not USDC on Base 400 PAYOUT_TOKEN_UNSUPPORTED, off the step 400 PAYOUT_NOT_STEP_MULTIPLE, above 1,000 400 PAYOUT_ABOVE_MAX', async (t) => {
  const world = await payoutWorld(t);
  await refusedWith(t, world, payoutBody({ payout: { amount: '100', chainId: 1, tokenAddress: USDC_ON_BASE } }), 400, 'PAYOUT_TOKEN_UNSUPPORTED', 'chain 1');
  await refusedWith(
    t,
    world,
    payoutBody({ payout: { amount: '100', chainId: 8453, tokenAddress: '0x0000000000000000000000000000000000000000' } }),
    400,
    'PAYOUT_TOKEN_UNSUPPORTED',
    'ETH on Base',
  );
  for (const value of ['150', '50', '0', '100.5', '99.999999'])
    await refusedWith(t, world, payoutBody(amount(value)), 400, 'PAYOUT_NOT_STEP_MULTIPLE', `amount ${value}`);
  await refusedWith(t, world, payoutBody(amount('1100')), 400, 'PAYOUT_ABOVE_MAX');
  t.is((await world.create(payoutBody(amount('1000')), newKey())).status, 201, '1000 is the maximum, taken');
  t.is((await world.create(payoutBody({ ...amount('100.000000'), customerEmail: 'b@example.com' }), newKey())).status, 201);
  await world.setSettings({ ...SETTINGS, payoutStepUsdc: 50_000_000n });
  t.is((await world.create(payoutBody(amount('150')), newKey())).status, 201, '150 on a 50 USDC step');
});

test('funding tokens: outside the catalog, outside the merchant’s tokens, or switched off are 400 PAYOUT_FUNDING_TOKEN_UNSUPPORTED', async (t) => {
  const world = await payoutWorld(t, { env: { PAYOUT_FUNDING_TOKENS_OFF: '42161:0xaf88d065e77c8cC2239327C5EDb3A432268e5831' } });
  const notInCatalog = { funding: { chainId: 8453, tokenAddress: '0x1234567890123456789012345678901234567890' } };
  await refusedWith(t, world, payoutBody(notInCatalog), 400, 'PAYOUT_FUNDING_TOKEN_UNSUPPORTED', 'not in the catalog');
  const arbitrumUsdc = { funding: { chainId: 42161, tokenAddress: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831' } };
  await refusedWith(t, world, payoutBody(arbitrumUsdc), 400, 'PAYOUT_FUNDING_TOKEN_UNSUPPORTED', 'switched off');
  const arbitrumUsdcLower = { funding: { chainId: 42161, tokenAddress: '0xaf88d065e77c8cc2239327c5edb3a432268e5831' } };
  await refusedWith(t, world, payoutBody(arbitrumUsdcLower), 400, 'PAYOUT_FUNDING_TOKEN_UNSUPPORTED', 'switched off, written lower-case');

  await world.setSettings({ ...SETTINGS, fundingTokens: [`8453:${USDC_ON_BASE.toLowerCase()}`] });
  const ethOnBase = { funding: { chainId: 8453, tokenAddress: '0x0000000000000000000000000000000000000000' } };
  await refusedWith(t, world, payoutBody(ethOnBase), 400, 'PAYOUT_FUNDING_TOKEN_UNSUPPORTED', 'not among the merchant’s tokens');
  t.is((await world.create(payoutBody(), newKey())).status, 201, 'the allowed token is taken');
});

test('rails: every method switched off 422 PAYOUT_NO_RAILS_AVAILABLE; none of the requested rails effective 422 PAYOUT_REQUESTED_RAILS_UNAVAILABLE', async (t) => {
  const allOff = await payoutWorld(t, { env: { PAYOUT_RAILS_OFF: 'venmo,zelle,routea_8453' } });
  await refusedWith(t, allOff, payoutBody(), 422, 'PAYOUT_NO_RAILS_AVAILABLE');

  const world = await payoutWorld(t, { env: { PAYOUT_RAILS_OFF: 'venmo' } });
  await refusedWith(t, world, payoutBody({ rails: ['paypal'] }), 422, 'PAYOUT_REQUESTED_RAILS_UNAVAILABLE', 'not turned on');
  await refusedWith(t, world, payoutBody({ rails: ['venmo'] }), 422, 'PAYOUT_REQUESTED_RAILS_UNAVAILABLE', 'switched off');
  await refusedWith(t, world, payoutBody({ rails: ['venmo', 'paypal', 'routea_1'] }), 422, 'PAYOUT_REQUESTED_RAILS_UNAVAILABLE', 'several, none effective');
  t.is((await world.create(payoutBody({ rails: ['venmo', 'zelle'] }), newKey())).status, 201, 'an effective rail among them is enough');
  t.deepEqual((await world.context(world.funding.entry().request.reference)).terms.rails, ['zelle'], 'the unavailable requested rail is dropped');
  t.is((await world.create(payoutBody({ rails: [...PAYOUT_RAILS] }), newKey())).status, 201);
});

test('the provider’s refusals and faults: 422 PAYOUT_ROUTE_UNQUOTABLE, 422 PAYOUT_FUNDING_AMOUNT_TOO_LOW, 502 PAYOUT_BRIDGE_QUOTE_FAILED, 502 PAYOUT_EMBEDDED_WALLET_FAILED', async (t) => {
  const world = await payoutWorld(t);
  for (const [fault, status, code] of [
    ['ROUTE_UNAVAILABLE', 422, 'PAYOUT_ROUTE_UNQUOTABLE'],
    ['FUNDING_AMOUNT_TOO_LOW', 422, 'PAYOUT_FUNDING_AMOUNT_TOO_LOW'],
    ['SOMETHING_ELSE', 502, 'PAYOUT_BRIDGE_QUOTE_FAILED'],
    ['OUTAGE', 502, 'PAYOUT_BRIDGE_QUOTE_FAILED'],
  ] as const) {
    world.funding.refuseQuotes(fault);
    await refusedWith(t, world, payoutBody(), status, code, fault);
  }
  world.funding.refuseQuotes(null);
  world.wallets.failing = true;
  await refusedWith(t, world, payoutBody(), 502, 'PAYOUT_EMBEDDED_WALLET_FAILED');
  t.is(world.funding.requests.size, 0, 'no deposit address is opened without the customer’s wallet');
  t.is((await world.list()).body.responseObject.total, 0, 'none of them exists for the merchant');
});

test('another merchant’s payout is 404 PAYOUT_NOT_FOUND on read and cancel, and an unknown id too', async (t) => {
  const world = await payoutWorld(t);
  const made = await world.created();
  const other = await world.otherMerchant();
  for (const answer of [
    await world.read(made.payoutId, other.liveKey),
    await world.cancel(made.payoutId, other.liveKey),
    await world.read('po_unknown0000000000000000'),
    await world.cancel('po_unknown0000000000000000'),
  ]) {
    t.is(answer.status, 404);
    t.is(answer.body.errorCode, 'PAYOUT_NOT_FOUND');
  }
  t.is((await world.view(made.payoutId)).status, 'AWAITING_FUNDING', 'the other merchant’s cancel changed nothing');
  // The same Idempotency-Key under another merchant is another payout.
  const key = newKey();
  const mine = await world.created(payoutBody(), key);
  const theirs = await world.create(payoutBody({ customerEmail: 'someone@example.com' }), key, other.liveKey);
  t.is(theirs.status, 201);
  t.not(theirs.body.responseObject.payoutId, mine.payoutId);
});
