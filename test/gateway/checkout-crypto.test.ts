/**
 * Crypto rails on a node without a chain: a sandbox order is quoted one to one at no
 * provider fee, to a stand-in deposit address, and settles with simulate-payment like any
 * sandbox attempt; a live order's crypto rail is refused, since this node has no
 * conversion provider, and left out of the order's quotes.
 */
import test from 'ava';
import { FIAT_RAILS } from '../../machines/rails.js';
import { hostedRead, placeOrder } from '../support/checkout.js';
import { withMerchant } from '../support/gateway.js';

const RAIL = 'relay_42161';

test('a sandbox crypto attempt: quoted one to one in USDC to a stand-in address, settled by simulate, the order fulfilled', async (t) => {
  await withMerchant(async (gateway, merchant) => {
    t.is((await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.sandboxId}`, { enabledRails: [...FIAT_RAILS, RAIL] })).status, 200);
    const order = await placeOrder(gateway, merchant.sandboxKey, { requestedUsdcAmount: '25' });
    const quotes = (await order.customer('GET', '/quotes')).body.responseObject.platforms as Array<{
      platform: string;
      currency: string;
      displayAmount: string;
      payTo: string;
    }>;
    const crypto = quotes.find((quote) => quote.platform === RAIL);
    t.like(crypto, { currency: 'USDC', displayAmount: '25' });
    t.regex(crypto!.payTo, /^sbx_[0-9a-f]{16}$/);

    const created = await order.customer('POST', '/payments', { rail: RAIL });
    t.is(created.status, 201);
    const payment = created.body.responseObject;
    t.like(payment, { rail: RAIL, currency: 'USDC', paymentAmount: '25', proofMode: 'SIMULATED', payTo: crypto!.payTo, totalUsdcFeeAmount: '0.125' });
    t.is(Date.parse(payment.quoteExpiresAt) - Date.parse(payment.createdAt), 6 * 60 * 60 * 1000);

    const simulated = await order.customer('POST', `/payments/${payment.id}/simulate`);
    t.is(simulated.status, 200);
    t.like(simulated.body.responseObject, { status: 'SETTLED', netSettledUsdcAmount: '24.875', fulfillTransaction: `sim_${payment.id}` });
    t.is((await hostedRead(gateway, order.id)).order.status, 'FULFILLED');
  });
});

test('a live crypto rail on a node with no conversion provider: refused with RAIL_NOT_SUPPORTED, and left out of the quotes', async (t) => {
  await withMerchant(async (gateway, merchant) => {
    t.is((await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { enabledRails: ['venmo', RAIL] })).status, 200);
    const order = await placeOrder(gateway, merchant.liveKey, { requestedUsdcAmount: '25' });
    const refused = await order.customer('POST', '/payments', { rail: RAIL });
    t.is(refused.status, 422);
    t.is(refused.body.errorCode, 'RAIL_NOT_SUPPORTED');
    const quotes = await order.customer('GET', `/quotes?rail=${RAIL}`);
    t.is(quotes.status, 422);
    t.is(quotes.body.errorCode, 'RAIL_NOT_SUPPORTED');
    t.is(await gateway.node.system.documents('payment').count({}), 0);
  });
});

test('a merchant cannot enable a rail that is neither fiat nor a supported crypto chain', async (t) => {
  await withMerchant(async (gateway, merchant) => {
    const refused = await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { enabledRails: ['venmo', 'relay_31337'] });
    t.is(refused.status, 400);
  });
});
