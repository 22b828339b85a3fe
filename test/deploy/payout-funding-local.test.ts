/**
 * A payout on the local chain, end to end as `npm start` runs it: the demo numbers of
 * document 2 quoted by the local conversion provider, the funding sent from the local test
 * wallet to the one-off deposit address, converted and delivered to the customer's wallet on
 * the chain, and the payout FUNDED from the USDC the receipts show, with its webhooks.
 */
import test from 'ava';
import { answerOf, recordEvents } from '../support/checkout.js';
import { startTestGateway } from '../support/gateway.js';
import { USDC_ON_BASE, WORKED_PAYOUT_SETTINGS, payoutBody } from '../support/payout-fakes.js';

test('a 100 USDC payout funded in USDC on the local chain: 104.123712 sent, 101 delivered, FUNDED once with its webhooks', async (t) => {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, PAYOUT_FUNDING_POLL_MS: 1_000 });
  t.teardown(() => gateway.stop());
  const events = await recordEvents(gateway);
  const merchant = await gateway.createMerchant();
  answerOf(await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { payouts: WORKED_PAYOUT_SETTINGS }), 200, 'payout settings');
  const created = answerOf(
    await gateway.request('POST', '/api/v1/payouts', { key: merchant.liveKey, body: payoutBody(), headers: { 'idempotency-key': 'local-chain-payout-1' } }),
    201,
    'the create',
  );
  t.like(created, { funding: { amount: '104.123712', expectedAmount: '101.00' }, merchantFee: { amount: '1.041237' } });
  const simulator = gateway.node.conversions.simulator!;
  await simulator.sendFromWallet({ depositAddress: created.funding.depositAddress, chainId: 8453, tokenAddress: USDC_ON_BASE, amount: '104.123712' });
  const read = async () => answerOf(await gateway.request('GET', `/api/v1/payouts/${created.payoutId}`, { key: merchant.liveKey }), 200, 'the read');
  let payout = await read();
  for (let i = 0; i < 400 && payout.status !== 'FUNDED'; i++) {
    await gateway.clock.advance(1_000);
    await new Promise((resolve) => setTimeout(resolve, 25));
    payout = await read();
  }
  t.like(payout, {
    status: 'FUNDED',
    fundingStatus: 'FUNDED',
    depositAmount: '100.00',
    funding: { sentAmount: '104.123712', missingAmount: '0', depositAddress: null },
  });
  t.is(payout.funding.receivedAmount, '101.000001');
  const types = await events.typesOf(created.payoutId);
  t.deepEqual(
    types.filter((type) => type.startsWith('PAYOUT_ORDER_')),
    ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_FUNDED'],
  );
});
