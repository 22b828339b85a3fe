/**
 * Referral fees through HTTP (issue 41): the admin sets a merchant's referral splits, orders
 * created from then on keep them (referralSplitConfig for fiat rails, cryptoReferralSplitConfig
 * for crypto), every read and list of the order shows them, and a settled payment's
 * referralFees breaks the platform's fee down by the split, each partner's part rounded down.
 * A split that cannot be kept is refused at the edge, naming the field.
 */
import test from 'ava';
import { formatUsdc, parseUsdc } from '../../machines/money.js';
import { feesOf, priceIntent } from '../../machines/payment/index.js';
import { answerOf, placeOrder, startPayment } from '../support/checkout.js';
import { startTestGateway } from '../support/gateway.js';

const PARTNER = '0x2222222222222222222222222222222222222222';
const OTHER = '0x3333333333333333333333333333333333333333';
const FIAT_SPLIT = {
  recipients: [
    { recipient: PARTNER, bps: 3333 },
    { recipient: OTHER, bps: 1000 },
  ],
};
const CRYPTO_SPLIT = { recipients: [{ recipient: OTHER, bps: 5000 }] };

test('orders keep the merchant’s referral splits, and a settled payment breaks the platform’s fee down by them', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { sandboxId, sandboxKey } = await gateway.createMerchant();

  const before = await placeOrder(gateway, sandboxKey);
  const updated = await gateway.admin('PATCH', `/internal/v1/merchants/${sandboxId}`, {
    referralSplitConfig: FIAT_SPLIT,
    cryptoReferralSplitConfig: CRYPTO_SPLIT,
  });
  t.is(updated.status, 200, JSON.stringify(updated.body));
  t.like(updated.body.responseObject.merchantConfig, { referralSplitConfig: FIAT_SPLIT, cryptoReferralSplitConfig: CRYPTO_SPLIT });

  const order = await placeOrder(gateway, sandboxKey, { requestedUsdcAmount: '100' });
  const hosted = answerOf(await gateway.request('GET', `/api/v1/orders/${order.id}`), 200, 'the hosted read');
  t.like(hosted.order, { referralSplitConfig: FIAT_SPLIT, cryptoReferralSplitConfig: CRYPTO_SPLIT });
  const listed = answerOf(await gateway.request('GET', '/api/v1/merchants/me/orders', { key: sandboxKey }), 200, 'the order list');
  const rows = new Map(listed.orders.map((row: { id: string }) => [row.id, row]));
  t.like(rows.get(order.id), { referralSplitConfig: FIAT_SPLIT, cryptoReferralSplitConfig: CRYPTO_SPLIT });
  // An order created before the merchant set a split keeps none.
  t.like(rows.get(before.id), { referralSplitConfig: null, cryptoReferralSplitConfig: null });

  const payment = await startPayment(order);
  t.is(payment.referralFees, null, 'nothing is settled yet');
  answerOf(await order.customer('POST', `/payments/${payment.id}/simulate`), 200, 'the simulation');
  await gateway.node.system.effectsIdle();
  const settled = answerOf(await gateway.request('GET', `/api/v1/merchants/me/orders/${order.id}/payments`, { key: sandboxKey }), 200, 'the payments');
  const row = settled.payments.find((entry: { id: string }) => entry.id === payment.id);
  const { platformFeeUsdc } = feesOf(priceIntent(parseUsdc('100'), gateway.node.payments.fees, 0).releasedUsdc, gateway.node.payments.fees);
  t.true(platformFeeUsdc > 0n);
  // The sandbox has no referrer on chain: only the partners' parts are shown, each its share rounded down.
  t.deepEqual(row.referralFees, [
    { recipient: PARTNER, feeUsdc: formatUsdc((platformFeeUsdc * 3333n) / 10_000n), bps: 3333 },
    { recipient: OTHER, feeUsdc: formatUsdc((platformFeeUsdc * 1000n) / 10_000n), bps: 1000 },
  ]);
});

test('a referral split that cannot be kept is refused with 400 naming the field', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { sandboxId } = await gateway.createMerchant();
  const refusals = [
    {
      referralSplitConfig: {
        recipients: [
          { recipient: PARTNER, bps: 6000 },
          { recipient: OTHER, bps: 5000 },
        ],
      },
    },
    {
      referralSplitConfig: {
        recipients: [
          { recipient: PARTNER, bps: 10 },
          { recipient: PARTNER.toUpperCase().replace('0X', '0x'), bps: 10 },
        ],
      },
    },
    { cryptoReferralSplitConfig: { recipients: [] } },
    { cryptoReferralSplitConfig: { recipients: [{ recipient: 'not-an-address', bps: 10 }] } },
  ];
  for (const body of refusals) {
    const answer = await gateway.admin('PATCH', `/internal/v1/merchants/${sandboxId}`, body);
    t.is(answer.status, 400, JSON.stringify(body));
    t.true(
      Object.keys(answer.body.responseObject.fieldErrors).some((field) => field.startsWith(Object.keys(body)[0]!)),
      JSON.stringify(answer.body),
    );
  }
  // null clears a split.
  const cleared = await gateway.admin('PATCH', `/internal/v1/merchants/${sandboxId}`, { referralSplitConfig: null });
  t.is(cleared.status, 200);
  t.is(cleared.body.responseObject.merchantConfig.referralSplitConfig, null);
});
