import test from 'ava';
import { EmbeddedStore, type DomainEvent } from '../../actors/index.js';
import { startTestGateway, withMerchant } from '../support/gateway.js';
import { ratesProvider, unavailable } from '../support/rates-provider.js';
import { CHECKOUT_ORDER_FIELDS } from '../support/checkout-order-fields.js';

const WALLET = '0x1111111111111111111111111111111111111111';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const SOLANA = 792703809;
const SOLANA_WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const SOLANA_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

test('a USDC order is created with 201, every CheckoutOrder field, its token and ORDER_CREATED', (t) =>
  withMerchant(async (gateway, { liveId, liveKey }) => {
    const events: DomainEvent[] = [];
    await gateway.node.bus.consume({ durable: 'test', types: ['ORDER_CREATED'] }, async (event) => void events.push(event));
    const created = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '25', notes: { sku: 'A1' } } });
    t.is(created.status, 201);
    t.true(created.body.success);
    const { order, orderToken } = created.body.responseObject;
    t.regex(order.id, /^ord_[0-9A-Za-z]{24}$/);
    t.regex(orderToken, /^[A-Za-z0-9_-]{43}$/);
    t.deepEqual(Object.keys(order).sort(), [...CHECKOUT_ORDER_FIELDS].sort());
    t.like(order, {
      merchantId: liveId,
      amountMode: 'FIXED',
      status: 'CREATED',
      requestedUsdcAmount: '25',
      remainingUsdcAmount: '25',
      destinationAddress: WALLET,
      destinationToken: BASE_USDC,
      destinationChainId: '8453',
      feePayer: 'MERCHANT',
      chargebackStatus: 'NONE',
      refundStatus: 'NONE',
      notes: { sku: 'A1' },
      createdAt: '2026-11-23T12:00:00.000Z',
    });
    await gateway.node.system.effectsIdle();
    for (let i = 0; i < 100 && events.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    t.is(events.length, 1);
    t.is((events[0]!.data.order as { id: string }).id, order.id);
  }));

test('exactly one amount mode, the others absent', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    for (const body of [
      {},
      { requestedUsdcAmount: '5', requestedFiatAmount: '5', requestedFiatCurrency: 'USD' },
      { requestedUsdcAmount: '5', openAmount: { currency: 'USD' } },
    ]) {
      const refused = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body });
      t.is(refused.status, 400, JSON.stringify(body));
      t.deepEqual(Object.keys(refused.body.responseObject).sort(), ['fieldErrors', 'formErrors']);
      t.regex(refused.body.responseObject.formErrors.join(' '), /exactly one amount mode/);
    }
    const half = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedFiatAmount: '5' } });
    t.truthy(half.body.responseObject.fieldErrors.requestedFiatCurrency);
    for (const amount of ['0', '-1', '1.1234567', 'ten', '1e3']) {
      const bad = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: amount } });
      t.is(bad.status, 400, amount);
      t.truthy(bad.body.responseObject.fieldErrors.requestedUsdcAmount, amount);
    }
    const unknownField = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '5', amountUsdc: '5' } });
    t.is(unknownField.status, 400);
  }));

test('a fiat price is converted through the rate source; USD is 1.00', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const usd = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedFiatAmount: '19.99', requestedFiatCurrency: 'usd' } });
    t.is(usd.status, 201);
    t.is(usd.body.responseObject.order.requestedUsdcAmount, '19.99');
    const eur = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedFiatAmount: '100', requestedFiatCurrency: 'EUR' } });
    t.is(eur.status, 201);
    // 100.00 EUR at 0.92 EUR per USD, rounded up to the next USDC base unit.
    t.is(eur.body.responseObject.order.requestedUsdcAmount, '108.695653');
    const hosted = await gateway.request('GET', `/api/v1/orders/${eur.body.responseObject.order.id}`);
    t.deepEqual(hosted.body.responseObject.order.requestedFiat, { amount: '100.00', currency: 'EUR' });
    const unknown = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedFiatAmount: '5', requestedFiatCurrency: 'XXX' } });
    t.is(unknown.status, 400);
    t.is(unknown.body.errorCode, 'CURRENCY_NOT_SUPPORTED');
  }));

test('destination defaults to the merchant wallet in USDC on Base; a merchant without one must send it', (t) =>
  withMerchant(async (gateway, { sandboxKey }) => {
    const explicit = await gateway.request('POST', '/api/v1/orders', {
      key: sandboxKey,
      body: { requestedUsdcAmount: '1', destinationAddress: '0x3333333333333333333333333333333333333333', destinationChainId: 1, destinationToken: 'usdc' },
    });
    t.like(explicit.body.responseObject.order, {
      destinationAddress: '0x3333333333333333333333333333333333333333',
      destinationChainId: '1',
      destinationToken: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    });
    const unknownToken = await gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body: { requestedUsdcAmount: '1', destinationToken: 'DOGE' } });
    t.truthy(unknownToken.body.responseObject.fieldErrors.destinationToken);

    const walletless = await gateway.createMerchant({ name: 'No wallet', tier: 'BASE' });
    const refused = await gateway.request('POST', '/api/v1/orders', { key: walletless.sandboxKey, body: { requestedUsdcAmount: '1' } });
    t.is(refused.status, 400);
    t.is(refused.body.errorCode, 'DESTINATION_REQUIRED');
  }));

test('a chain outside the catalog (999) is a 400 naming destinationChainId, and no order is made', (t) =>
  withMerchant(async (gateway, { sandboxKey }) => {
    const refused = await gateway.request('POST', '/api/v1/orders', {
      key: sandboxKey,
      body: { requestedUsdcAmount: '1', destinationChainId: 999, destinationToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
    });
    t.is(refused.status, 400);
    t.is(refused.body.message, 'Invalid request');
    t.false('errorCode' in refused.body);
    t.regex(refused.body.responseObject.fieldErrors.destinationChainId[0], /chain 999 is not supported.*792703809 \(Solana\)/);
    t.is((await gateway.request('GET', '/api/v1/merchants/me/orders', { key: sandboxKey })).body.responseObject.total, 0);
  }));

test('a token address outside the catalog on a supported chain is a 400 naming destinationToken', (t) =>
  withMerchant(async (gateway, { sandboxKey }) => {
    for (const [destinationChainId, destinationToken] of [
      [8453, '0x4200000000000000000000000000000000000006'], // an ERC-20 on Base, but not one an order is delivered in
      [8453, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'], // USDC, but Ethereum's
      [SOLANA, 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'], // a real mint, not in the catalog
    ] as const) {
      const refused = await gateway.request('POST', '/api/v1/orders', {
        key: sandboxKey,
        body: {
          requestedUsdcAmount: '1',
          destinationChainId,
          destinationToken,
          ...(destinationChainId === SOLANA ? { destinationAddress: SOLANA_WALLET } : {}),
        },
      });
      t.is(refused.status, 400, destinationToken);
      t.false('errorCode' in refused.body);
      t.regex(refused.body.responseObject.fieldErrors.destinationToken[0], /is not a supported token on chain/, destinationToken);
    }
    const byAddress = await gateway.request('POST', '/api/v1/orders', {
      key: sandboxKey,
      body: { requestedUsdcAmount: '1', destinationToken: BASE_USDC.toLowerCase() },
    });
    t.is(byAddress.status, 201);
    t.is(byAddress.body.responseObject.order.destinationToken, BASE_USDC, 'the catalog’s spelling is stored');
  }));

test('a Solana destination: the address sent as written, or the merchant’s solanaWalletAddress, in USDC on Solana', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { sandboxKey } = await gateway.createMerchant({ name: 'Sol', tier: 'BASE', evmWalletAddress: WALLET, solanaWalletAddress: SOLANA_WALLET });
  const explicitAddress = 'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx';
  const explicit = await gateway.request('POST', '/api/v1/orders', {
    key: sandboxKey,
    body: { requestedUsdcAmount: '2', destinationChainId: SOLANA, destinationAddress: explicitAddress, destinationToken: SOLANA_USDC },
  });
  t.is(explicit.status, 201);
  t.like(explicit.body.responseObject.order, { destinationAddress: explicitAddress, destinationToken: SOLANA_USDC, destinationChainId: '792703809' });

  const defaulted = await gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body: { requestedUsdcAmount: '3', destinationChainId: SOLANA } });
  t.is(defaulted.status, 201);
  t.like(defaulted.body.responseObject.order, { destinationAddress: SOLANA_WALLET, destinationToken: SOLANA_USDC, destinationChainId: '792703809' });
  const hosted = await gateway.request('GET', `/api/v1/orders/${defaulted.body.responseObject.order.id}`);
  t.like(hosted.body.responseObject.order, { destinationAddress: SOLANA_WALLET, destinationChainId: '792703809' });
  const listed = await gateway.request('GET', '/api/v1/merchants/me/orders', { key: sandboxKey });
  t.deepEqual(
    listed.body.responseObject.orders.map((order: { destinationAddress: string }) => order.destinationAddress).sort(),
    [SOLANA_WALLET, explicitAddress].sort(),
  );

  const evmDefault = await gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body: { requestedUsdcAmount: '1' } });
  t.is(evmDefault.body.responseObject.order.destinationAddress, WALLET, 'an EVM chain still defaults to the EVM wallet');
  const noSolanaWallet = await gateway.createMerchant({ name: 'EVM only', tier: 'BASE', evmWalletAddress: WALLET });
  const required = await gateway.request('POST', '/api/v1/orders', {
    key: noSolanaWallet.sandboxKey,
    body: { requestedUsdcAmount: '1', destinationChainId: SOLANA },
  });
  t.is(required.status, 400);
  t.is(required.body.errorCode, 'DESTINATION_REQUIRED');
});

test('an address of the other kind of chain is a 400 naming destinationAddress', (t) =>
  withMerchant(async (gateway, { sandboxKey }) => {
    for (const body of [
      { destinationChainId: SOLANA, destinationAddress: WALLET },
      { destinationChainId: 8453, destinationAddress: SOLANA_WALLET },
      { destinationAddress: SOLANA_WALLET },
    ]) {
      const refused = await gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body: { requestedUsdcAmount: '1', ...body } });
      t.is(refused.status, 400, JSON.stringify(body));
      t.false('errorCode' in refused.body);
      t.truthy(refused.body.responseObject.fieldErrors.destinationAddress, JSON.stringify(body));
    }
    const neither = await gateway.request('POST', '/api/v1/orders', {
      key: sandboxKey,
      body: { requestedUsdcAmount: '1', destinationAddress: 'not-an-address' },
    });
    t.regex(neither.body.responseObject.fieldErrors.destinationAddress[0], /EVM address .* or a Solana address/);
  }));

test('open amounts are stored normalised, and bad ones refused OPEN_AMOUNT_INVALID', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const created = await gateway.request('POST', '/api/v1/orders', {
      key: liveKey,
      body: { openAmount: { currency: 'eur', minAmount: '5', maxAmount: '100.5', presets: ['50', '10', '20.5'] } },
    });
    t.is(created.status, 201);
    t.like(created.body.responseObject.order, {
      amountMode: 'OPEN',
      requestedUsdcAmount: null,
      remainingUsdcAmount: null,
      amountVersion: 0,
      openAmount: { currency: 'EUR', minAmount: '5.00', maxAmount: '100.50', presets: ['10.00', '20.50', '50.00'] },
    });
    for (const openAmount of [
      { currency: 'EUR', presets: ['1', '2', '3', '4', '5', '6', '7'] },
      { currency: 'EUR', presets: [] },
      { currency: 'EUR', minAmount: '10', maxAmount: '5' },
      { currency: 'EUR', minAmount: '1.005' },
      { currency: 'EUR', minAmount: '10', presets: ['5'] },
      { currency: 'EURO' },
    ]) {
      const refused = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { openAmount } });
      t.is(refused.status, 400, JSON.stringify(openAmount));
      t.is(refused.body.errorCode, 'OPEN_AMOUNT_INVALID', JSON.stringify(openAmount));
    }
  }));

test('dynamicOrdersEnabled: true while the merchant has them off is DYNAMIC_ORDERS_DISABLED; open amounts need them', (t) =>
  withMerchant(async (gateway, { liveId, liveKey }) => {
    await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { dynamicOrdersEnabled: false });
    const refused = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1', dynamicOrdersEnabled: true } });
    t.is(refused.status, 400);
    t.is(refused.body.errorCode, 'DYNAMIC_ORDERS_DISABLED');
    const open = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { openAmount: { currency: 'USD' } } });
    t.is(open.body.errorCode, 'OPEN_AMOUNT_DISABLED');
    t.is((await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1', dynamicOrdersEnabled: false } })).status, 201);
    t.is((await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1' } })).status, 201);
  }));

test('live order creation needs a tier; sandbox does not', async (t) => {
  const gateway = await startTestGateway();
  try {
    const { liveKey, sandboxKey } = await gateway.createMerchant({ name: 'Unplanned', evmWalletAddress: WALLET });
    const live = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1' } });
    t.is(live.status, 403);
    t.is(live.body.errorCode, 'TIER_REQUIRED');
    t.is((await gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body: { requestedUsdcAmount: '1' } })).status, 201);
  } finally {
    await gateway.stop();
  }
});

test('enabled rails must be rails the merchant has enabled', (t) =>
  withMerchant(async (gateway, { liveId, liveKey }) => {
    await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { enabledRails: ['venmo', 'zelle'] });
    const ok = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1', enabledRails: ['zelle'] } });
    t.deepEqual(ok.body.responseObject.order.enabledRails, ['zelle']);
    const defaulted = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1' } });
    t.deepEqual(defaulted.body.responseObject.order.enabledRails, ['venmo', 'zelle']);
    const refused = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1', enabledRails: ['paypal'] } });
    t.truthy(refused.body.responseObject.fieldErrors.enabledRails);
  }));

test('idempotency: a replay answers the same order without its token; another body is refused; environments are separate', (t) =>
  withMerchant(async (gateway, { liveKey, sandboxKey }) => {
    const body = { requestedUsdcAmount: '10', idempotencyKey: 'order-0001' };
    const first = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body });
    t.is(first.status, 201);
    const replay = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body });
    t.is(replay.status, 200);
    t.deepEqual(replay.body.responseObject, { order: first.body.responseObject.order, orderToken: null, idempotentReplay: true });
    const reused = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { ...body, requestedUsdcAmount: '11' } });
    t.is(reused.status, 422);
    t.is(reused.body.errorCode, 'IDEMPOTENCY_KEY_MISMATCH');
    const sandbox = await gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body });
    t.is(sandbox.status, 201);
    t.not(sandbox.body.responseObject.order.id, first.body.responseObject.order.id);
    const badKey = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1', idempotencyKey: 'short' } });
    t.truthy(badKey.body.responseObject.fieldErrors.idempotencyKey);
  }));

test('a replay is answered with the first order even after the account changed', (t) =>
  withMerchant(async (gateway, { liveId, liveKey }) => {
    const body = { requestedFiatAmount: '20', requestedFiatCurrency: 'EUR', idempotencyKey: 'settings-change-1' };
    const first = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body });
    t.is(first.status, 201);
    // Without a plan a live merchant creates no new order; its earlier order is still answered.
    t.is((await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { tier: null })).status, 200);
    t.is((await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1' } })).body.errorCode, 'TIER_REQUIRED');
    const replay = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body });
    t.is(replay.status, 200);
    t.deepEqual(replay.body.responseObject, { order: first.body.responseObject.order, orderToken: null, idempotentReplay: true });
  }));

test('a replay after a restart with another ID_SECRET finds the first order', async (t) => {
  const store = new EmbeddedStore();
  const before = await startTestGateway({ ID_SECRET: 'a'.repeat(32) }, { store });
  const { liveKey } = await before.createMerchant();
  const body = { requestedUsdcAmount: '5', idempotencyKey: 'restart-key-1' };
  const first = await before.request('POST', '/api/v1/orders', { key: liveKey, body });
  t.is(first.status, 201);
  await before.stop();
  const after = await startTestGateway({ ID_SECRET: 'b'.repeat(32) }, { store });
  try {
    const replay = await after.request('POST', '/api/v1/orders', { key: liveKey, body });
    t.is(replay.status, 200);
    t.deepEqual(replay.body.responseObject, { order: first.body.responseObject.order, orderToken: null, idempotentReplay: true });
    const reused = await after.request('POST', '/api/v1/orders', { key: liveKey, body: { ...body, requestedUsdcAmount: '6' } });
    t.is(reused.body.errorCode, 'IDEMPOTENCY_KEY_MISMATCH');
  } finally {
    await after.stop();
  }
});

test('fifty concurrent creates with one idempotency key make one order', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const body = { requestedUsdcAmount: '3', idempotencyKey: 'burst-key-42' };
    const answers = await Promise.all(Array.from({ length: 50 }, () => gateway.request('POST', '/api/v1/orders', { key: liveKey, body })));
    t.is(answers.filter((answer) => answer.status === 201).length, 1);
    t.is(answers.filter((answer) => answer.status === 200 && answer.body.responseObject.idempotentReplay === true).length, 49);
    t.is(new Set(answers.map((answer) => answer.body.responseObject.order.id)).size, 1);
    const list = await gateway.request('GET', '/api/v1/merchants/me/orders', { key: liveKey });
    t.is(list.body.responseObject.total, 1);
  }));

test('malformed JSON and an oversized body are refused in the envelope', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const malformed = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: '{"requestedUsdcAmount":' });
    t.is(malformed.status, 400);
    t.is(malformed.body.message, 'Invalid request');
    const huge = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1', notes: { blob: 'x'.repeat(200_000) } } });
    t.is(huge.status, 413);
    t.false(huge.body.success);
  }));

test('idempotency by meaning: the same amount spelled differently, or a default sent instead of omitted, replays; another amount conflicts', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const create = (body: Record<string, unknown>) =>
      gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { idempotencyKey: 'meaning-0001', ...body } });
    const first = await create({ requestedUsdcAmount: '10' });
    t.is(first.status, 201);
    for (const same of [
      { requestedUsdcAmount: '10.0' },
      { requestedUsdcAmount: '10.000000' },
      { requestedUsdcAmount: '10', destinationToken: 'USDC', destinationChainId: 8453, buyerFeeShareBps: 0 },
      { requestedUsdcAmount: '10', successUrl: null, cancelUrl: null, notes: null },
    ]) {
      const replay = await create(same);
      t.is(replay.status, 200, JSON.stringify(same));
      t.is(replay.body.responseObject.idempotentReplay, true);
      t.is(replay.body.responseObject.order.id, first.body.responseObject.order.id);
    }
    for (const other of [{ requestedUsdcAmount: '10.000001' }, { requestedUsdcAmount: '10', buyerFeeShareBps: 1 }]) {
      const conflict = await create(other);
      t.is(conflict.status, 422, JSON.stringify(other));
      t.is(conflict.body.errorCode, 'IDEMPOTENCY_KEY_MISMATCH');
    }

    const fiat = (body: Record<string, unknown>) =>
      gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { idempotencyKey: 'meaning-fiat-1', ...body } });
    t.is((await fiat({ requestedFiatAmount: '19.9', requestedFiatCurrency: 'eur' })).status, 201);
    t.is((await fiat({ requestedFiatAmount: '19.90', requestedFiatCurrency: 'EUR' })).status, 200);
  }));

test('a fiat price without a currency is priced in the merchant’s defaultPaymentCurrency, and refused naming the field when there is none', (t) =>
  withMerchant(async (gateway, { liveId, liveKey }) => {
    const bare = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedFiatAmount: '20' } });
    t.is(bare.status, 400);
    t.regex(bare.body.responseObject.fieldErrors.requestedFiatCurrency[0], /defaultPaymentCurrency/);

    t.is((await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { defaultPaymentCurrency: 'EUR' })).status, 200);
    const defaulted = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedFiatAmount: '20' } });
    t.is(defaulted.status, 201);
    const hosted = await gateway.request('GET', `/api/v1/orders/${defaulted.body.responseObject.order.id}`);
    t.deepEqual(hosted.body.responseObject.order.requestedFiat, { amount: '20.00', currency: 'EUR' });
    const explicit = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedFiatAmount: '20', requestedFiatCurrency: 'GBP' } });
    const explicitHosted = await gateway.request('GET', `/api/v1/orders/${explicit.body.responseObject.order.id}`);
    t.is(explicitHosted.body.responseObject.order.requestedFiat.currency, 'GBP');
    const currencyOnly = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedFiatCurrency: 'EUR' } });
    t.is(currencyOnly.status, 400);
  }));

test('an order priced in fiat keeps the rate and the time it was priced at; without a trustworthy rate the create is a 503 RATE_UNAVAILABLE', async (t) => {
  const provider = await ratesProvider(t, { EUR: '0.9' });
  const gateway = await startTestGateway({ RATES_URL: provider.url, RATES_MAX_AGE_MS: 60_000 });
  t.teardown(() => gateway.stop());
  const { liveKey } = await gateway.createMerchant();

  const created = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedFiatAmount: '90', requestedFiatCurrency: 'EUR' } });
  t.is(created.status, 201);
  t.is(created.body.responseObject.order.requestedUsdcAmount, '100');
  const doc = await gateway.node.system.documents('order').findOne({ _id: created.body.responseObject.order.id });
  t.deepEqual(doc!.view.pricing, { currencyPerUsdRate: '0.900000', currency: 'EUR', pricedAt: new Date(gateway.clock.now()).toISOString() });

  provider.answer(unavailable);
  await gateway.clock.advance(61_000);
  const refused = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedFiatAmount: '90', requestedFiatCurrency: 'EUR' } });
  t.is(refused.status, 503);
  t.like(refused.body, { success: false, errorCode: 'RATE_UNAVAILABLE' });
  t.is((await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '5' } })).status, 201, 'USDC prices need no rate');
});

test('the v0 create fields answer a 400 naming the v1 field, or saying the field was removed', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['amountUsdc', '10', /renamed in v1: send requestedUsdcAmount/],
      ['recipientAddress', '0x5555555555555555555555555555555555555555', /send destinationAddress/],
      ['enabledPaymentPlatforms', ['venmo'], /send enabledRails/],
      ['metadata', { sku: 'A1' }, /send notes/],
      ['fiatAmount', '10', /send requestedFiatAmount/],
      ['fiatCurrency', 'EUR', /send requestedFiatCurrency/],
      ['merchantId', 'mer_x', /removed in v1: the merchant is the one the API key belongs to/],
      ['checkoutMode', 'HOSTED', /removed in v1/],
      ['maxFeePercentage', 2, /removed in v1: fee limits are dashboard settings/],
    ];
    for (const [field, value, message] of cases) {
      const response = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '10', [field]: value } });
      t.is(response.status, 400, field);
      t.is(response.body.message, 'Invalid request');
      t.regex(response.body.responseObject.fieldErrors[field]?.[0] ?? '', message, field);
    }
    const both = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { amountUsdc: '10', buyerFeeShareBps: -1 } });
    t.truthy(both.body.responseObject.fieldErrors.amountUsdc, 'the retired field is named');
    t.truthy(both.body.responseObject.fieldErrors.buyerFeeShareBps, 'and the rest of the body is still checked');
    const listed = await gateway.request('GET', '/api/v1/merchants/me/orders', { key: liveKey });
    t.is(listed.body.responseObject.total, 0, 'none of them created an order');
  }));

test('idempotency by meaning: rails in another order and an address in other letter case replay', (t) =>
  withMerchant(async (gateway, { liveId, liveKey }) => {
    await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { enabledRails: ['venmo', 'zelle'] });
    const address = '0x5555555555555555555555555555555555555aBc';
    const create = (body: Record<string, unknown>) =>
      gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { idempotencyKey: 'meaning-sets-1', requestedUsdcAmount: '3', ...body } });
    const first = await create({ enabledRails: ['venmo', 'zelle'], destinationAddress: address });
    t.is(first.status, 201);
    const replay = await create({ enabledRails: ['zelle', 'venmo', 'zelle'], destinationAddress: address.toLowerCase() });
    t.is(replay.status, 200);
    t.is(replay.body.responseObject.order.id, first.body.responseObject.order.id);
  }));

test('a fiat price priced in the default currency replays after the default changes; naming the currency is another request', (t) =>
  withMerchant(async (gateway, { liveId, liveKey }) => {
    await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { defaultPaymentCurrency: 'EUR' });
    const body = { requestedFiatAmount: '20', idempotencyKey: 'default-currency-1' };
    const first = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body });
    t.is(first.status, 201);
    await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { defaultPaymentCurrency: 'GBP' });
    const replay = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body });
    t.is(replay.status, 200);
    t.is(replay.body.responseObject.order.id, first.body.responseObject.order.id);
    const named = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { ...body, requestedFiatCurrency: 'EUR' } });
    t.is(named.status, 422, 'a default that comes from the settings is compared as sent');
    t.is(named.body.errorCode, 'IDEMPOTENCY_KEY_MISMATCH');
  }));

test('the hosted read of an open-amount order over a stale rate provider still loads, with effectiveMin and effectiveMax null (document 1)', async (t) => {
  const provider = await ratesProvider(t, { EUR: '0.9' });
  const gateway = await startTestGateway({ RATES_URL: provider.url });
  t.teardown(() => gateway.stop());
  const { liveId, liveKey } = await gateway.createMerchant();
  await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { dynamicOrdersEnabled: true });
  const created = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { openAmount: { currency: 'EUR', minAmount: '5', maxAmount: '50' } } });
  t.is(created.status, 201);

  provider.answer(unavailable);
  await gateway.clock.advance(61_000);
  const hosted = await gateway.request('GET', `/api/v1/orders/${created.body.responseObject.order.id}`);
  t.is(hosted.status, 200);
  t.like(hosted.body.responseObject.order.openAmount, { minAmount: '5.00', maxAmount: '50.00', effectiveMin: null, effectiveMax: null });
});
