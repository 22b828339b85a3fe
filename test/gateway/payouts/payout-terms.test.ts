/**
 * Document 2, Limits: rails, fee wallets, fees, the payout step and the payout apps are copied
 * onto a payout at creation, so later settings changes apply to new payouts only; operators can
 * remove a network from an open payout; the service's fee is set per merchant. Settings cleared
 * by an operator leave the account's payout setup unfinished.
 */
import test from 'ava';
import { answerOf } from '../../support/checkout.js';
import { SERVICE_WALLET, payoutBody } from '../../support/payout-fakes.js';
import { MERCHANT_WALLET, SETTINGS, USDC, newKey, payoutWorld } from './payout-world.js';

test('a settings change after a create touches new payouts only: the open payout keeps its fee, step, rails and fee wallets', async (t) => {
  const world = await payoutWorld(t);
  const firstKey = newKey();
  const first = await world.created(payoutBody(), firstKey);
  const before = await world.context(first.payoutId);

  await world.setSettings({
    ...SETTINGS,
    methods: ['venmo'],
    merchantFeeBps: 300,
    merchantWalletAddress: '0x5555555555555555555555555555555555555555',
    serviceFeeBps: 400,
    payoutStepUsdc: 50n * USDC,
  });
  t.like(await world.view(first.payoutId), { merchantFee: { bps: 100, amount: '1.041237' }, funding: { amount: '104.123712' } });
  t.deepEqual((await world.context(first.payoutId)).terms, before.terms);
  t.like(before.terms, { rails: ['venmo', 'zelle', 'routea_8453'], merchantFeeBps: 100, merchantWalletAddress: MERCHANT_WALLET, serviceFeeBps: 200 });

  const second = await world.created();
  t.like(second, { merchantFee: { bps: 300 } });
  t.like((await world.context(second.payoutId)).terms, { rails: ['venmo'], merchantFeeBps: 300, serviceFeeBps: 400, payoutStepUsdc: 50n * USDC });
  // A replay answers the payout as it was created, whatever the settings are now.
  t.like(answerOf(await world.create(payoutBody(), firstKey), 200, 'the replay'), {
    payoutId: first.payoutId,
    merchantFee: { bps: 100 },
    idempotentReplay: true,
  });
});

test('the service fee set for a merchant grosses up the deposit and goes to the service in the provider’s app fees; it is never shown', async (t) => {
  const world = await payoutWorld(t, { settings: { ...SETTINGS, serviceFeeBps: 237 } });
  const payout = await world.created();
  // (100 + 1) / (1 − 337/10000) = 104.5224050…, rounded up to the last unit; the merchant's 1 % of it rounded down.
  t.like(payout, { funding: { amount: '104.522406', expectedAmount: '101.00' }, merchantFee: { bps: 100, amount: '1.045224' } });
  t.deepEqual(world.funding.entry().request.appFees, [
    { recipient: MERCHANT_WALLET, feeBps: 100 },
    { recipient: SERVICE_WALLET, feeBps: 237 },
  ]);
  t.is(world.funding.entry().request.amount, 104_522_406n);
  // As a number anywhere in the answer, or a field named for the service (the deposit address and link token are random hex).
  t.notRegex(JSON.stringify(payout), /:237[,}]|service/i);
});

test('operators remove a network from an open payout; a rail it does not offer is a 422, and an ended payout’s rails no longer change', async (t) => {
  const world = await payoutWorld(t);
  const payout = await world.created();
  const remove = (id: string, rail: string) => world.gateway.admin('DELETE', `/internal/v1/payouts/${id}/rails/${rail}`);

  t.is((await remove(payout.payoutId, 'routea_8453')).status, 200);
  t.deepEqual((await world.context(payout.payoutId)).terms.rails, ['venmo', 'zelle']);
  t.like((await remove(payout.payoutId, 'routea_8453')).body, { errorCode: 'PAYOUT_RAIL_NOT_OFFERED' });
  t.is((await remove('po_unknown0000', 'venmo')).status, 404);

  const cancelled = await world.created(payoutBody(), newKey());
  t.is((await world.cancel(cancelled.payoutId)).status, 200);
  t.like((await remove(cancelled.payoutId, 'venmo')).body, { errorCode: 'PAYOUT_RAILS_FINAL' });
  t.deepEqual((await world.context(cancelled.payoutId)).terms.rails, ['venmo', 'zelle', 'routea_8453']);
});

test('payout settings an operator clears (null) leave the account unfinished: 409 MERCHANT_CONFIG_MISSING', async (t) => {
  const world = await payoutWorld(t);
  await world.created();
  answerOf(await world.gateway.admin('PATCH', `/internal/v1/merchants/${world.merchant.liveId}`, { payouts: null }), 200, 'clearing the settings');
  t.like((await world.create()).body, { errorCode: 'MERCHANT_CONFIG_MISSING' });
});
