/**
 * GET /api/v1/payouts/{id}/timeline: a payout's timeline and funding issues for its merchant
 * (the dashboard's payout screen), with the overpayment and late funds of payout-funding.test.ts.
 */
import test from 'ava';
import { USDC, payoutWorld } from './payout-world.js';

test('a payout’s timeline and its funding issues, oldest first; another merchant’s payout is 404 and a sandbox key is refused', async (t) => {
  const world = await payoutWorld(t);
  const made = await world.created();
  world.funding.deliver(world.funding.send(110n * USDC, world.iso()), 105n * USDC);
  await world.activity(made.payoutId);
  const late = world.funding.send(30n * USDC, world.iso());
  world.funding.deliver(late, 29n * USDC);
  await world.activity(made.payoutId);

  const read = await world.gateway.request('GET', `/api/v1/payouts/${made.payoutId}/timeline`, { key: world.key });
  t.is(read.status, 200);
  const { timeline, fundingIssues } = read.body.responseObject;
  t.deepEqual(
    timeline.map((entry: { type: string }) => entry.type),
    ['CREATED', 'FUNDED', 'FUNDING_ISSUE', 'FUNDING_ISSUE'],
  );
  t.true(timeline.some((entry: { text: string }) => entry.text === 'Late funds: 29.00 USDC'));
  t.deepEqual(
    fundingIssues.map((issue: { kind: string; transferId: string | null; amount: string; unit: string }) => [
      issue.kind,
      issue.transferId,
      issue.amount,
      issue.unit,
    ]),
    [
      ['OVERPAYMENT', null, '4.00', 'USDC'],
      ['LATE_FUNDS', late, '29.00', 'USDC'],
    ],
  );

  const other = await world.otherMerchant();
  t.is((await world.gateway.request('GET', `/api/v1/payouts/${made.payoutId}/timeline`, { key: other.liveKey })).status, 404);
  t.is(
    (await world.gateway.request('GET', `/api/v1/payouts/${made.payoutId}/timeline`, { key: world.merchant.sandboxKey })).body.errorCode,
    'PAYOUT_SANDBOX_UNSUPPORTED',
  );
});
