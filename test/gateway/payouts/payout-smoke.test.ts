/**
 * A payout end to end on fake providers: created with document 2's worked numbers, funded
 * in part then in full, with each webhook's payload in the payout shape.
 */
import test from 'ava';
import { startTestGateway } from '../../support/gateway.js';
import { FakeFunding, FakeWallets, SERVICE_WALLET, WORKED_PAYOUT_SETTINGS, payoutBody } from '../../support/payout-fakes.js';

test('a 100 USDC payout: the worked numbers, partial funding, then FUNDED', async (t) => {
  const funding = new FakeFunding();
  const gateway = await startTestGateway(
    { PAYOUT_FUNDING_POLL_MS: 60_000 },
    {
      payoutProviders: {
        funding,
        wallets: new FakeWallets(),
        deliveries: funding,
        settlement: {
          chain: { chainId: 8453, escrow: '0x0000000000000000000000000000000000000001', orchestrator: '0x0000000000000000000000000000000000000002' },
          usdc: '0x0000000000000000000000000000000000000003',
        },
        serviceWalletAddress: SERVICE_WALLET,
      },
    },
  );
  t.teardown(() => gateway.stop());
  const merchant = await gateway.createMerchant();
  const settings = await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, {
    payouts: { ...WORKED_PAYOUT_SETTINGS, methods: ['venmo', 'zelle'] },
  });
  t.is(settings.status, 200, JSON.stringify(settings.body));
  const created = await gateway.request('POST', '/api/v1/payouts', {
    key: merchant.liveKey,
    body: payoutBody(),
    headers: { 'idempotency-key': 'payout-key-0001' },
  });
  t.is(created.status, 201, JSON.stringify(created.body));
  const payout = created.body.responseObject;
  t.like(payout, {
    status: 'AWAITING_FUNDING',
    fundingStatus: 'AWAITING_FUNDING',
    merchantFee: { bps: 100, amount: '1.041237' },
    funding: { amount: '104.123712', expectedAmount: '101.00', receivedAmount: '0.00', sentAmount: '0', missingAmount: '104.123712' },
    idempotentReplay: false,
  });
  t.truthy(payout.funding.depositAddress);
  t.regex(payout.checkoutUrl, /\/cashout\/po_/);
  const replay = await gateway.request('POST', '/api/v1/payouts', {
    key: merchant.liveKey,
    body: payoutBody(),
    headers: { 'idempotency-key': 'payout-key-0001' },
  });
  t.is(replay.status, 200);
  t.is(replay.body.responseObject.idempotentReplay, true);

  const first = funding.send(50_000_000n, new Date(gateway.clock.now()).toISOString());
  funding.deliver(first, 48_000_000n);
  await gateway.request('POST', '/api/v1/providers/conversion/funding-activity', { body: { requestId: funding.entry().quote.requestId } });
  const read = async () => (await gateway.request('GET', `/api/v1/payouts/${payout.payoutId}`, { key: merchant.liveKey })).body.responseObject;
  for (let i = 0; i < 100 && (await read()).fundingStatus !== 'PARTIALLY_FUNDED'; i++) await new Promise((r) => setTimeout(r, 20));
  t.like(await read(), { status: 'AWAITING_FUNDING', fundingStatus: 'PARTIALLY_FUNDED', funding: { receivedAmount: '48.00', sentAmount: '50' } });
  const second = funding.send(60_000_000n, new Date(gateway.clock.now()).toISOString());
  funding.deliver(second, 57_000_000n);
  await gateway.request('POST', '/api/v1/providers/conversion/funding-activity', { body: { requestId: funding.entry().quote.requestId } });
  for (let i = 0; i < 100 && (await read()).status !== 'FUNDED'; i++) await new Promise((r) => setTimeout(r, 20));
  t.like(await read(), { status: 'FUNDED', fundingStatus: 'FUNDED', depositAmount: '100.00', funding: { depositAddress: null, receivedAmount: '105.00' } });
});
