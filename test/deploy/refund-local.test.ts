/**
 * A refund on the local chain, as `npm start` runs it (docs/refunds.md): a fulfilled order of
 * the merchant refunded 37.50, the refund's payout quoted by the local conversion provider,
 * funded from the local test wallet at its one-off deposit address, converted and delivered to
 * the customer's wallet on the chain; the order COMPLETED with the delivering transaction, which
 * the chain shows moving the refund's USDC to the customer's wallet.
 */
import test from 'ava';
import { decodeEventLog, erc20Abi } from 'viem';
import { payoutKind } from '../../actors/kinds/payout-kind.js';
import { answerOf, placeOrder, recordEvents } from '../support/checkout.js';
import { startTestGateway } from '../support/gateway.js';
import { USDC_ON_BASE, WORKED_PAYOUT_SETTINGS } from '../support/payout-fakes.js';
import { untilOnClock } from '../support/real-time-poll.js';

test('a 37.50 refund of a 100 USDC order funded in USDC on the local chain: REFUND_PENDING, then COMPLETED with the chain’s delivery', async (t) => {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, PAYOUT_FUNDING_POLL_MS: 1_000 });
  t.teardown(() => gateway.stop());
  const events = await recordEvents(gateway);
  const merchant = await gateway.createMerchant();
  answerOf(await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { payouts: WORKED_PAYOUT_SETTINGS }), 200, 'payout settings');
  const order = await placeOrder(gateway, merchant.liveKey, { requestedUsdcAmount: '100' });
  // The settlement a payment tells its order: paying it on the chain is what the payment tests do.
  await gateway.node.system.askAt(
    { kind: 'order', id: order.id },
    { type: 'APPLY_SETTLEMENT', paymentId: 'pay_local_refund', usdcAmount: 100_000_000n, at: new Date(gateway.clock.now()).toISOString() },
  );

  const made = answerOf(
    await gateway.request('POST', `/api/v1/merchants/me/orders/${order.id}/refunds`, {
      key: merchant.liveKey,
      body: { amount: '37.5', customerEmail: 'ana@example.com', funding: { chainId: 8453, tokenAddress: USDC_ON_BASE }, metadata: { reason: 'returned' } },
      headers: { 'idempotency-key': 'local-chain-refund-1' },
    }),
    201,
    'the refund',
  );
  // No merchant fee on a refund, whatever the settings say; the buffer and the service's 200 bps only.
  t.like(made.payout, { merchantFee: { bps: 0 }, funding: { amount: '38.64796', expectedAmount: '37.875' } });
  await gateway.node.conversions.simulator!.sendFromWallet({
    depositAddress: made.payout.funding.depositAddress,
    chainId: 8453,
    tokenAddress: USDC_ON_BASE,
    amount: made.payout.funding.amount,
  });
  const read = async () => {
    const list = answerOf(await gateway.request('GET', `/api/v1/merchants/me/orders?orderId=${order.id}`, { key: merchant.liveKey }), 200, 'the order');
    return list.orders[0];
  };
  const completed = await untilOnClock(gateway.clock, read, (row) => row.refundStatus === 'COMPLETED', 'the refund completed');
  t.like(completed, { status: 'FULFILLED', refundAmountUsdc: '37.5', refundDepositId: made.payout.payoutId, refundMetadata: { reason: 'returned' } });

  const local = gateway.node.chain!.localChain!;
  const receipt = await local.publicClient.getTransactionReceipt({ hash: completed.refundTransactionHash });
  const wallet = (await gateway.node.system.views(payoutKind).findOne({ _id: made.payout.payoutId }))!.view.walletAddress!;
  const toWallet = receipt.logs
    .filter((log) => log.address.toLowerCase() === local.usdc.toLowerCase())
    .map((log) => decodeEventLog({ abi: erc20Abi, data: log.data, topics: log.topics }))
    .filter((decoded) => decoded.eventName === 'Transfer' && decoded.args.to.toLowerCase() === wallet.toLowerCase());
  t.is(toWallet.length, 1, 'refundTransactionHash is the transaction that paid the customer’s wallet');
  t.true((toWallet[0]!.args as { value: bigint }).value >= 37_500_000n);

  const types = await events.typesOf(order.id, made.payout.payoutId);
  t.deepEqual(
    types.filter((type) => type.startsWith('REFUND_') || type.startsWith('PAYOUT_ORDER_')),
    ['PAYOUT_ORDER_CREATED', 'REFUND_PENDING', 'PAYOUT_ORDER_FUNDED', 'REFUND_COMPLETED'],
  );
});
