/**
 * POST /dev/demo-order (gateway/dev/demo-orders.ts), the landing page's "Try a checkout":
 * on a development node it makes a live order for the demo merchant, delivering to the
 * demo merchant's local wallet, and answers its checkout link, which opens the checkout
 * page; each call makes a new order; without a demo merchant it says so. Production: 404
 * (landing-page.test.ts).
 */
import test from 'ava';
import { withGateway, type TestGateway } from '../../support/gateway.js';
import { DEMO_OWNER_EMAIL, openDemoMerchant } from '../../../deploy/demo-merchant.js';
import { MerchantAccounts } from '../../../gateway/merchants/merchant-accounts.js';
import { MerchantAdmin } from '../../../gateway/merchants/merchant-admin.js';
import { localDemoMerchantAccount } from '../../../indexer/chain/dev-accounts.js';
import { PAYOUT_RAILS } from '../../../machines/payout/payout-rails.js';

const openDemo = (gateway: TestGateway) => openDemoMerchant(new MerchantAdmin(gateway.node.system, () => new Date(gateway.clock.now()).toISOString()));

test('a demo order is a live 25.00 USD order of the demo merchant, to its local wallet, whose checkout link opens the checkout page', (t) =>
  withGateway(async (gateway) => {
    const demo = await openDemo(gateway);
    // Another merchant, opened later, is never the one demo orders are made for.
    await gateway.createMerchant();
    const made = await gateway.request('POST', '/dev/demo-order');
    t.is(made.status, 201, JSON.stringify(made.body));
    const { order, orderToken, checkoutPath } = made.body.responseObject;
    t.is(checkoutPath, `/?order=${order.id}&token=${orderToken}`);
    t.like(order, { merchantId: demo.liveId, status: 'CREATED', amountMode: 'FIXED', destinationAddress: localDemoMerchantAccount().address });

    const page = await gateway.request('GET', checkoutPath);
    t.is(page.status, 200);
    t.true(String(page.body).includes('<title>Checkout</title>'));
    const read = await gateway.request('GET', `/api/v1/orders/${order.id}`);
    t.is(read.status, 200);
    t.like(read.body.responseObject, {
      order: { id: order.id, requestedFiat: { amount: '25.00', currency: 'USD' } },
      merchant: { name: 'Demo merchant', environment: 'LIVE' },
    });

    const again = await gateway.request('POST', '/dev/demo-order');
    t.is(again.status, 201);
    t.not(again.body.responseObject.order.id, order.id, 'each press makes an order of its own');
  }));

test('the demo merchant’s live account has payouts on with every payout method, a 1% fee to its local wallet and the default service fee and step; its sandbox has none', (t) =>
  withGateway(async (gateway) => {
    const demo = await openDemo(gateway);
    const live = await gateway.request('GET', '/api/v1/merchants/me', { key: demo.liveApiKey });
    t.deepEqual(live.body.responseObject.payouts, {
      methods: [...PAYOUT_RAILS],
      merchantFeeBps: 100,
      merchantWalletAddress: localDemoMerchantAccount().address,
      fundingTokens: null,
      payoutStep: '100',
    });
    t.like((await new MerchantAccounts(gateway.node.system).byId(demo.liveId))!.payouts, { serviceFeeBps: 200, payoutStepUsdc: 100_000_000n });
    const sandbox = await gateway.request('GET', '/api/v1/merchants/me', { key: demo.sandboxApiKey });
    t.is(sandbox.body.responseObject.payouts, null);
  }));

test('the demo merchant’s team has one Owner, the demo address, who can sign in to the dashboard', (t) =>
  withGateway(async (gateway) => {
    const demo = await openDemo(gateway);
    const live = await gateway.request('GET', '/api/v1/merchants/me', { key: demo.liveApiKey });
    t.like(live.body.responseObject.merchantUsers, [{ email: DEMO_OWNER_EMAIL, role: 'OWNER', status: 'INVITED' }]);
    const sandbox = await gateway.request('GET', '/api/v1/merchants/me', { key: demo.sandboxApiKey });
    t.deepEqual(sandbox.body.responseObject.merchantUsers, live.body.responseObject.merchantUsers, 'one team for both accounts');
  }));

test('without a demo merchant, a demo order is refused with a code that says so, and nothing is made', (t) =>
  withGateway(async (gateway) => {
    await gateway.createMerchant();
    const refused = await gateway.request('POST', '/dev/demo-order');
    t.is(refused.status, 404);
    t.deepEqual(refused.body, {
      success: false,
      message: 'No demo merchant on this node',
      responseObject: null,
      statusCode: 404,
      errorCode: 'DEMO_MERCHANT_NOT_FOUND',
    });
    t.is(await gateway.node.system.documents('order').count({}), 0);
  }));
