/**
 * POST /api/v1/payouts/{id}/cancel (document 2): only while status and fundingStatus are
 * both AWAITING_FUNDING and the conversion provider has no record at the deposit address;
 * the provider is asked first, and a provider that cannot answer leaves the payout as it was.
 */
import test from 'ava';
import { recordEvents } from '../../support/checkout.js';
import { payoutBody } from '../../support/payout-fakes.js';
import { HOUR, USDC, newKey, payoutWorld } from './payout-world.js';

test('an untouched payout cancels: 200 CANCELLED by the MERCHANT, PAYOUT_ORDER_CANCELLED fires, and it cannot be cancelled twice', async (t) => {
  const world = await payoutWorld(t);
  const recorder = await recordEvents(world.gateway);
  const made = await world.created();
  await world.advance(HOUR);
  const cancelled = await world.cancel(made.payoutId);
  t.is(cancelled.status, 200, JSON.stringify(cancelled.body));
  t.like(cancelled.body.responseObject, {
    payoutId: made.payoutId,
    status: 'CANCELLED',
    fundingStatus: 'AWAITING_FUNDING',
    cancelSource: 'MERCHANT',
    cancelledAt: world.iso(),
    funding: { depositAddress: null },
  });
  t.deepEqual(await world.view(made.payoutId), cancelled.body.responseObject, 'the read shows what the cancel answered');
  const events = await recorder.of(made.payoutId);
  t.deepEqual(
    events.map((event) => event.type),
    ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_CANCELLED'],
  );
  t.deepEqual((events[1]!.data as { payout: unknown }).payout, cancelled.body.responseObject);

  const again = await world.cancel(made.payoutId);
  t.is(again.status, 409);
  t.is(again.body.errorCode, 'PAYOUT_NOT_CANCELLABLE');
  t.deepEqual(again.body.responseObject, { status: 'CANCELLED', fundingStatus: 'AWAITING_FUNDING' });
  await world.advance(25 * HOUR);
  t.is((await world.view(made.payoutId)).status, 'CANCELLED', 'the deadline does not touch a cancelled payout');
  t.deepEqual(await recorder.typesOf(made.payoutId), ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_CANCELLED']);
});

test('a transfer the provider recorded at the deposit address blocks the cancel with 409 PAYOUT_FUNDING_DETECTED, even refunded, even before the payout saw it', async (t) => {
  const world = await payoutWorld(t);
  const made = await world.created();
  const transfer = world.funding.send(10n * USDC, world.iso());
  world.funding.refund(transfer);
  const detected = await world.cancel(made.payoutId);
  t.is(detected.status, 409);
  t.is(detected.body.errorCode, 'PAYOUT_FUNDING_DETECTED');
  t.like(await world.view(made.payoutId), { status: 'AWAITING_FUNDING', fundingStatus: 'AWAITING_FUNDING', cancelSource: null });

  await world.activity(made.payoutId);
  const stillDetected = await world.cancel(made.payoutId);
  t.is(stillDetected.body.errorCode, 'PAYOUT_FUNDING_DETECTED', 'once the payout has seen it too');
  await world.advance(24 * HOUR + 1_000);
  t.like(await world.view(made.payoutId), { status: 'EXPIRED', fundingStatus: 'FUNDING_EXPIRED' }, 'it expires at its deadline instead');
});

test('a partly funded or funded payout is 409 PAYOUT_NOT_CANCELLABLE with its status and fundingStatus', async (t) => {
  const world = await payoutWorld(t);
  const partial = await world.created();
  world.funding.deliver(world.funding.send(20n * USDC, world.iso()), 19n * USDC);
  await world.activity(partial.payoutId);
  const partly = await world.cancel(partial.payoutId);
  t.is(partly.status, 409);
  t.is(partly.body.errorCode, 'PAYOUT_NOT_CANCELLABLE');
  t.deepEqual(partly.body.responseObject, { status: 'AWAITING_FUNDING', fundingStatus: 'PARTIALLY_FUNDED' });

  const funded = await world.created(payoutBody({ customerEmail: 'funded@example.com' }), newKey());
  world.funding.deliver(world.funding.send(104_123_712n, world.iso()), 101n * USDC);
  await world.activity(funded.payoutId);
  const answer = await world.cancel(funded.payoutId);
  t.is(answer.status, 409);
  t.is(answer.body.errorCode, 'PAYOUT_NOT_CANCELLABLE');
  t.deepEqual(answer.body.responseObject, { status: 'FUNDED', fundingStatus: 'FUNDED' });
});

test('a provider that cannot be asked is 502 PAYOUT_BRIDGE_STATUS_FAILED and leaves the payout unchanged; the retried cancel goes through', async (t) => {
  const world = await payoutWorld(t);
  const made = await world.created();
  const before = await world.view(made.payoutId);
  world.funding.activityFault = new Error('the provider is down');
  const failed = await world.cancel(made.payoutId);
  t.is(failed.status, 502);
  t.is(failed.body.errorCode, 'PAYOUT_BRIDGE_STATUS_FAILED');
  t.deepEqual(await world.view(made.payoutId), before);
  world.funding.activityFault = null;
  t.is((await world.cancel(made.payoutId)).status, 200);
});
