/**
 * Document 2's funding table on the test clock, through HTTP and the events the payout
 * publishes: partial funding and its webhooks, the deadline and how an on-time arrival
 * moves it, what the deadline decides (FUNDED by the deposit-size rule, EXPIRED, or waiting
 * for an on-time transfer still converting), late transfers and refunds, and when the
 * deposit address is shown.
 */
import test from 'ava';
import { recordEvents } from '../../support/checkout.js';
import { BTC_TOKEN_ADDRESS } from '../../../machines/payout/index.js';
import { USDC_ON_BASE, payoutBody } from '../../support/payout-fakes.js';
import { HOUR, USDC, newKey, payoutWorld } from './payout-world.js';

const DAY = 24 * HOUR;
const payoutOf = (amount: string) => payoutBody({ payout: { amount, chainId: 8453, tokenAddress: USDC_ON_BASE } });
const viewOf = (event: { data: unknown }) => (event.data as { payout: any }).payout;

test('partial funding: PARTIALLY_FUNDED with a webhook each time received grows, then FUNDED once it covers the payout', async (t) => {
  const world = await payoutWorld(t);
  const recorder = await recordEvents(world.gateway);
  const made = await world.created();
  t.like(made, { status: 'AWAITING_FUNDING', fundingStatus: 'AWAITING_FUNDING', expiresAt: world.iso(DAY), funding: { quoteExpiresAt: world.iso(DAY) } });

  await world.advance(HOUR);
  world.funding.deliver(world.funding.send(50n * USDC, world.iso()), 48n * USDC);
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), {
    status: 'AWAITING_FUNDING',
    fundingStatus: 'PARTIALLY_FUNDED',
    depositAmount: null,
    funding: { sentAmount: '50', missingAmount: '54.123712', receivedAmount: '48.00', depositAddress: made.funding.depositAddress },
  });
  await world.activity(made.payoutId);
  await world.advance(HOUR);

  world.funding.deliver(world.funding.send(20n * USDC, world.iso()), 19n * USDC);
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), { fundingStatus: 'PARTIALLY_FUNDED', funding: { receivedAmount: '67.00' } });

  await world.advance(HOUR);
  world.funding.deliver(world.funding.send(40n * USDC, world.iso()), 38n * USDC);
  await world.activity(made.payoutId);
  const funded = await world.view(made.payoutId);
  t.like(funded, {
    status: 'FUNDED',
    fundingStatus: 'FUNDED',
    depositAmount: '100.00',
    fundedAt: world.iso(),
    funding: { depositAddress: null, receivedAmount: '105.00', sentAmount: '110', missingAmount: '0' },
  });

  const events = await recorder.of(made.payoutId);
  t.deepEqual(
    events.map((event) => event.type),
    ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_PARTIALLY_FUNDED', 'PAYOUT_ORDER_PARTIALLY_FUNDED', 'PAYOUT_ORDER_FUNDED'],
    'one partial webhook per growth, none for a check that found nothing new',
  );
  t.deepEqual(
    events.map((event) => viewOf(event).funding.receivedAmount),
    ['0.00', '48.00', '67.00', '105.00'],
  );
  t.like(viewOf(events[1]!), { status: 'AWAITING_FUNDING', fundingStatus: 'PARTIALLY_FUNDED', funding: { depositAddress: made.funding.depositAddress } });
  t.deepEqual(viewOf(events[3]!), funded, 'the FUNDED webhook carries the view the read shows');
});

test('the full funding amount sent and landed funds the payout even below it: the deposit by the rounding rule', async (t) => {
  const world = await payoutWorld(t);
  const made = await world.created();
  world.funding.deliver(world.funding.send(104_123_712n, world.iso()), 99n * USDC);
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), {
    status: 'FUNDED',
    fundingStatus: 'FUNDED',
    depositAmount: '99.00',
    funding: { receivedAmount: '99.00', missingAmount: '0', depositAddress: null },
  });
});

test('the deadline is 24 h after creation and moves to 24 h after each on-time arrival; when it passes, what arrived is the deposit', async (t) => {
  const world = await payoutWorld(t);
  const recorder = await recordEvents(world.gateway);
  const made = await world.created();
  const created = world.gateway.clock.now();
  const at = (ms: number) => new Date(created + ms).toISOString();

  await world.advance(10 * HOUR);
  const refunded = world.funding.send(5n * USDC, world.iso());
  world.funding.refund(refunded);
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), { expiresAt: at(DAY), fundingStatus: 'AWAITING_FUNDING' }, 'a refund moves nothing');

  world.funding.deliver(world.funding.send(31n * USDC, world.iso()), 30n * USDC);
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), { expiresAt: at(34 * HOUR), funding: { quoteExpiresAt: at(34 * HOUR) } });

  await world.advance(2 * HOUR);
  world.funding.deliver(world.funding.send(11n * USDC, world.iso()), 10n * USDC);
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), { expiresAt: at(36 * HOUR), funding: { receivedAmount: '40.00' } });

  await world.advance(DAY - 12 * HOUR + 1_000);
  t.like(
    await world.view(made.payoutId),
    { status: 'AWAITING_FUNDING', fundingStatus: 'PARTIALLY_FUNDED', funding: { depositAddress: made.funding.depositAddress } },
    'past the first deadline, funding is still open',
  );
  await world.advance(12 * HOUR);
  const funded = await world.view(made.payoutId);
  t.like(funded, { status: 'FUNDED', fundingStatus: 'FUNDED', depositAmount: '40.00', funding: { receivedAmount: '40.00', depositAddress: null } });
  t.not(funded.funding.missingAmount, '0', 'funded short: something is still missing');
  t.deepEqual(await recorder.typesOf(made.payoutId), [
    'PAYOUT_ORDER_CREATED',
    'PAYOUT_ORDER_PARTIALLY_FUNDED',
    'PAYOUT_ORDER_PARTIALLY_FUNDED',
    'PAYOUT_ORDER_FUNDED',
  ]);
  const issues = (await world.context(made.payoutId)).issues;
  t.deepEqual(
    issues.map((issue) => [issue.kind, issue.transferId, issue.amount]),
    [['ROUTE_REFUND', refunded, 5n * USDC]],
    'the refund is recorded as a route refund',
  );
});

test('the deadline passes with some USDC below the payout: FUNDED with the deposit rounded to a whole step when at most 1 USDC above it', async (t) => {
  const world = await payoutWorld(t);
  const rounded = await world.created(payoutOf('200'), newKey());
  world.funding.deliver(world.funding.send(102n * USDC, world.iso(), `req_${rounded.payoutId}`), 100_700_000n, `req_${rounded.payoutId}`);
  await world.activity(rounded.payoutId);
  const kept = await world.created(payoutBody({ ...payoutOf('200'), customerEmail: 'kept@example.com' }), newKey());
  world.funding.deliver(world.funding.send(152n * USDC, world.iso(), `req_${kept.payoutId}`), 150n * USDC, `req_${kept.payoutId}`);
  await world.activity(kept.payoutId);
  await world.advance(DAY + 1_000);
  t.like(await world.view(rounded.payoutId), { status: 'FUNDED', depositAmount: '100.00', funding: { receivedAmount: '100.70' } });
  t.like(await world.view(kept.payoutId), { status: 'FUNDED', depositAmount: '150.00', funding: { receivedAmount: '150.00' } });
});

test('the deadline passes with nothing: EXPIRED, FUNDING_EXPIRED, PAYOUT_ORDER_EXPIRED, no deposit address; later funds never reopen it', async (t) => {
  const world = await payoutWorld(t);
  const recorder = await recordEvents(world.gateway);
  const made = await world.created();
  await world.advance(DAY - 1_000);
  t.is((await world.view(made.payoutId)).status, 'AWAITING_FUNDING');
  await world.advance(2_000);
  const expired = await world.view(made.payoutId);
  t.like(expired, { status: 'EXPIRED', fundingStatus: 'FUNDING_EXPIRED', depositAmount: null, funding: { depositAddress: null, receivedAmount: '0.00' } });
  const events = await recorder.of(made.payoutId);
  t.deepEqual(
    events.map((event) => event.type),
    ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_EXPIRED'],
  );
  t.deepEqual(viewOf(events[1]!), expired);

  const late = world.funding.send(105n * USDC, world.iso());
  world.funding.deliver(late, 101n * USDC);
  await world.activity(made.payoutId);
  t.deepEqual(await world.view(made.payoutId), expired, 'late funds change nothing the merchant sees');
  t.deepEqual(
    (await world.context(made.payoutId)).issues.map((issue) => [issue.kind, issue.transferId, issue.amount]),
    [['LATE_FUNDS', late, 101n * USDC]],
  );
  t.deepEqual(await recorder.typesOf(made.payoutId), ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_EXPIRED']);
});

test('the deadline passes while an on-time transfer converts: still AWAITING_FUNDING with no deposit address until it lands; a transfer started after the deadline does not count', async (t) => {
  const world = await payoutWorld(t);
  const recorder = await recordEvents(world.gateway);
  const made = await world.created();
  await world.advance(23 * HOUR);
  const onTime = world.funding.send(62n * USDC, world.iso());
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), { funding: { sentAmount: '62', receivedAmount: '0.00', quoteExpiresAt: made.funding.quoteExpiresAt } });

  await world.advance(HOUR + 1_000);
  const waiting = await world.view(made.payoutId);
  t.like(waiting, {
    status: 'AWAITING_FUNDING',
    fundingStatus: 'AWAITING_FUNDING',
    funding: { depositAddress: null, quoteExpiresAt: made.funding.quoteExpiresAt },
  });

  const late = world.funding.send(105n * USDC, world.iso());
  world.funding.deliver(late, 101n * USDC);
  await world.activity(made.payoutId);
  t.like(
    await world.view(made.payoutId),
    { status: 'AWAITING_FUNDING', funding: { receivedAmount: '0.00', sentAmount: '62' } },
    'a late transfer does not count',
  );
  await world.advance(2 * HOUR);
  t.is((await world.view(made.payoutId)).status, 'AWAITING_FUNDING', 'still waiting for the on-time transfer');

  world.funding.deliver(onTime, 60n * USDC);
  await world.activity(made.payoutId);
  const funded = await world.view(made.payoutId);
  t.like(funded, { status: 'FUNDED', fundingStatus: 'FUNDED', depositAmount: '60.00', funding: { receivedAmount: '60.00', depositAddress: null } });
  t.deepEqual(await recorder.typesOf(made.payoutId), ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_FUNDED']);
  t.deepEqual(
    (await world.context(made.payoutId)).issues.map((issue) => [issue.kind, issue.transferId]),
    [['LATE_FUNDS', late]],
  );
});

test('a transfer refunded to the refund address leaves status and deadline as they were; with nothing else the payout expires', async (t) => {
  const world = await payoutWorld(t);
  const made = await world.created();
  await world.advance(HOUR);
  const refunded = world.funding.send(104_123_712n, world.iso());
  await world.activity(made.payoutId);
  world.funding.refund(refunded);
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), {
    status: 'AWAITING_FUNDING',
    fundingStatus: 'AWAITING_FUNDING',
    expiresAt: made.expiresAt,
    funding: { sentAmount: '0', missingAmount: '104.123712', depositAddress: made.funding.depositAddress },
  });
  const context = await world.context(made.payoutId);
  t.deepEqual(
    context.issues.map((issue) => [issue.kind, issue.transferId]),
    [['ROUTE_REFUND', refunded]],
  );
  t.true(context.timeline.some((entry) => entry.type === 'FUNDING_ISSUE' && entry.txHash !== null));
  await world.advance(DAY);
  t.like(await world.view(made.payoutId), { status: 'EXPIRED', fundingStatus: 'FUNDING_EXPIRED' });
});

test('an overpayment is recorded; money arriving after the payout was funded is late funds: its deposit and received amount stay as funded', async (t) => {
  const world = await payoutWorld(t);
  const made = await world.created();
  world.funding.deliver(world.funding.send(110n * USDC, world.iso()), 105n * USDC);
  await world.activity(made.payoutId);
  const funded = await world.view(made.payoutId);
  t.is(funded.status, 'FUNDED');
  const after = world.funding.send(30n * USDC, world.iso());
  world.funding.deliver(after, 29n * USDC);
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), { status: 'FUNDED', depositAmount: '100.00', fundedAt: funded.fundedAt, funding: { receivedAmount: '105.00' } });
  t.deepEqual(
    (await world.context(made.payoutId)).issues.map((issue) => [issue.kind, issue.transferId, issue.amount]),
    [
      ['OVERPAYMENT', null, 4n * USDC],
      ['LATE_FUNDS', after, 29n * USDC],
    ],
    'more than the funding amount sent and more than quoted arrived: an overpayment; then late funds',
  );
});

test('the deadline passes with some USDC received and a transfer still converting: PARTIALLY_FUNDED, no deposit address, FUNDED with both once it lands', async (t) => {
  const world = await payoutWorld(t);
  const recorder = await recordEvents(world.gateway);
  const made = await world.created();
  world.funding.deliver(world.funding.send(31n * USDC, world.iso()), 30n * USDC);
  await world.activity(made.payoutId);
  const deadline = (await world.view(made.payoutId)).expiresAt;
  await world.advance(DAY - HOUR);
  const converting = world.funding.send(21n * USDC, world.iso());
  await world.activity(made.payoutId);
  await world.advance(HOUR + 1_000);
  t.like(await world.view(made.payoutId), {
    status: 'AWAITING_FUNDING',
    fundingStatus: 'PARTIALLY_FUNDED',
    expiresAt: deadline,
    funding: { depositAddress: null, receivedAmount: '30.00', sentAmount: '52' },
  });
  world.funding.deliver(converting, 20n * USDC);
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), { status: 'FUNDED', depositAmount: '50.00', funding: { receivedAmount: '50.00' } });
  t.deepEqual(await recorder.typesOf(made.payoutId), ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_PARTIALLY_FUNDED', 'PAYOUT_ORDER_FUNDED']);
});

test('funds are found on the schedule too, without the provider’s report', async (t) => {
  const world = await payoutWorld(t);
  const made = await world.created();
  world.funding.deliver(world.funding.send(110n * USDC, world.iso()), 105n * USDC);
  await world.advance(HOUR - 1_000);
  t.is((await world.view(made.payoutId)).status, 'AWAITING_FUNDING', 'not before the next check');
  await world.advance(1_000);
  t.like(await world.view(made.payoutId), { status: 'FUNDED', depositAmount: '100.00' });
});

test('a payout created by a retry with the same key hours after a failed first request: the deadline the view shows is the one that closes funding', async (t) => {
  const world = await payoutWorld(t);
  const key = newKey();
  world.wallets.failing = true;
  t.is((await world.create(payoutBody(), key)).status, 502);
  await world.advance(5 * HOUR);
  world.wallets.failing = false;
  const made = await world.created(payoutBody(), key);
  t.like(
    made,
    { createdAt: world.iso(), expiresAt: world.iso(DAY), funding: { quoteExpiresAt: world.iso(DAY) } },
    '24 hours from the creation the 201 answers',
  );
  await world.advance(DAY - 1_000);
  t.like(await world.view(made.payoutId), { status: 'AWAITING_FUNDING', funding: { depositAddress: made.funding.depositAddress } });
  await world.advance(2_000);
  t.like(await world.view(made.payoutId), { status: 'EXPIRED', funding: { depositAddress: null } }, 'closed when quoteExpiresAt passed, not later');
});

test('Bitcoin: a transfer counts as sent once the provider records its sweep; until then sentAmount is 0 and missingAmount the whole amount', async (t) => {
  const world = await payoutWorld(t);
  const made = await world.created(
    payoutBody({ funding: { chainId: 8253038, tokenAddress: BTC_TOKEN_ADDRESS, refundAddress: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' } }),
    newKey(),
  );
  const id = world.funding.send((await world.context(made.payoutId)).fundingAmount, world.iso());
  const transfer = world.funding.entry().transfers.find((candidate) => candidate.id === id)!;
  transfer.status = 'seen';
  transfer.swept = false;
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), { status: 'AWAITING_FUNDING', funding: { sentAmount: '0', missingAmount: made.funding.amount } });
  transfer.status = 'converting';
  transfer.swept = true;
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), { funding: { sentAmount: made.funding.amount, missingAmount: '0' } });
  await world.advance(DAY + 1_000);
  t.is((await world.view(made.payoutId)).status, 'AWAITING_FUNDING', 'an on-time transfer still converting is waited for');
  world.funding.deliver(id, 102n * USDC);
  await world.activity(made.payoutId);
  t.like(await world.view(made.payoutId), { status: 'FUNDED', depositAmount: '100.00' });
});
