import test from 'ava';
import { ADMIN_TOKEN, startTestGateway } from '../support/gateway.js';

test('the admin API creates a live merchant and its sandbox twin with keys shown once', async (t) => {
  const gateway = await startTestGateway();
  try {
    const created = await gateway.admin('POST', '/internal/v1/merchants', { name: 'Acme', tier: 'PRO' });
    t.is(created.status, 201);
    const { merchant, sandboxMerchant, liveApiKey, sandboxApiKey } = created.body.responseObject;
    t.like(merchant, { name: 'Acme', environment: 'LIVE', tier: 'PRO', sandboxMerchantId: sandboxMerchant.id, evmWalletAddress: null });
    t.like(sandboxMerchant, { name: 'Acme', environment: 'SANDBOX', sandboxMerchantId: null });
    t.regex(liveApiKey, /^pk_live_/);
    t.regex(sandboxApiKey, /^pk_test_/);
    t.not(merchant.apiKey, liveApiKey, 'the profile never shows the key itself');
    t.true(liveApiKey.endsWith(merchant.apiKey.slice(-4)));

    const me = await gateway.request('GET', '/api/v1/merchants/me', { key: liveApiKey });
    t.is(me.status, 200);
    t.deepEqual(me.body.responseObject, merchant);
    const sandboxMe = await gateway.request('GET', '/api/v1/merchants/me', { key: sandboxApiKey });
    t.is(sandboxMe.body.responseObject.id, sandboxMerchant.id);
    t.false(JSON.stringify(me.body).includes(liveApiKey));
  } finally {
    await gateway.stop();
  }
});

test('PATCH changes every documented setting and validates each', async (t) => {
  const gateway = await startTestGateway();
  try {
    const { liveId, liveKey } = await gateway.createMerchant();
    const patched = await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, {
      tier: 'CONCIERGE',
      evmWalletAddress: '0x2222222222222222222222222222222222222222',
      defaultPaymentCurrency: 'EUR',
      enabledRails: ['venmo', 'zelle'],
      dynamicOrdersEnabled: false,
      completionDustThresholdUsdc: '0.25',
      feePayer: 'PAYEE',
      apiKeyIpAllowlist: ['127.0.0.1/8', '::1'],
      inPersonCheckoutEnabled: true,
    });
    t.is(patched.status, 200);
    t.like(patched.body.responseObject, {
      tier: 'CONCIERGE',
      evmWalletAddress: '0x2222222222222222222222222222222222222222',
      apiKeyIpAllowlist: ['127.0.0.0/8', '::1/128'],
      inPersonCheckoutEnabled: true,
      merchantConfig: {
        defaultPaymentCurrency: 'EUR',
        enabledRails: ['venmo', 'zelle'],
        dynamicOrdersEnabled: false,
        completionDustThresholdUsdc: '0.25',
        feePayer: 'PAYEE',
      },
    });
    const me = await gateway.request('GET', '/api/v1/merchants/me', { key: liveKey });
    t.deepEqual(me.body.responseObject, patched.body.responseObject);

    for (const [body, field] of [
      [{ tier: 'GOLD' }, 'tier'],
      [{ evmWalletAddress: '0x12' }, 'evmWalletAddress'],
      [{ defaultPaymentCurrency: 'eur' }, 'defaultPaymentCurrency'],
      [{ enabledRails: ['carrier-pigeon'] }, 'enabledRails'],
      [{ completionDustThresholdUsdc: '0.1234567' }, 'completionDustThresholdUsdc'],
      [{ apiKeyIpAllowlist: ['10.0.0.0/33'] }, 'apiKeyIpAllowlist'],
      [{ colour: 'blue' }, null],
    ] as const) {
      const refused = await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, body);
      t.is(refused.status, 400, JSON.stringify(body));
      t.is(refused.body.message, 'Invalid request');
      t.false('errorCode' in refused.body);
      if (field) t.truthy(refused.body.responseObject.fieldErrors[field], JSON.stringify(body));
      else t.true(refused.body.responseObject.formErrors.length > 0);
    }
    const empty = await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, {});
    t.is(empty.status, 400);
    const unknown = await gateway.admin('PATCH', '/internal/v1/merchants/mer_0123456789ABCDEFabcdef01', { tier: 'BASE' });
    t.is(unknown.status, 404);
  } finally {
    await gateway.stop();
  }
});

test('rotation issues a new key and the old one stops working', async (t) => {
  const gateway = await startTestGateway();
  try {
    const { liveId, liveKey } = await gateway.createMerchant();
    const rotated = await gateway.admin('POST', `/internal/v1/merchants/${liveId}/api-keys/rotate`);
    t.is(rotated.status, 200);
    const { apiKey } = rotated.body.responseObject;
    t.regex(apiKey, /^pk_live_/);
    t.not(apiKey, liveKey);
    t.is((await gateway.request('GET', '/api/v1/merchants/me', { key: liveKey })).status, 401);
    t.is((await gateway.request('GET', '/api/v1/merchants/me', { key: apiKey })).status, 200);
    t.is((await gateway.admin('POST', '/internal/v1/merchants/mer_0123456789ABCDEFabcdef01/api-keys/rotate')).status, 404);
  } finally {
    await gateway.stop();
  }
});

test('the admin API needs its bearer token, and is off without one configured', async (t) => {
  const gateway = await startTestGateway();
  const off = await startTestGateway({ PEER_ADMIN_TOKEN: undefined });
  try {
    const missing = await gateway.request('POST', '/internal/v1/merchants', { body: { name: 'x' } });
    t.is(missing.status, 401);
    const wrong = await gateway.request('POST', '/internal/v1/merchants', { body: { name: 'x' }, headers: { authorization: 'Bearer nope' } });
    t.is(wrong.status, 401);
    const disabled = await off.request('POST', '/internal/v1/merchants', { body: { name: 'x' }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    t.is(disabled.status, 404);
  } finally {
    await Promise.all([gateway.stop(), off.stop()]);
  }
});

test('API keys: missing, unknown and IP allowlists', async (t) => {
  const gateway = await startTestGateway();
  try {
    const { liveId, liveKey } = await gateway.createMerchant();
    t.like((await gateway.request('GET', '/api/v1/merchants/me')).body, { success: false, statusCode: 401, message: 'Missing API key', responseObject: null });
    t.like((await gateway.request('GET', '/api/v1/merchants/me', { key: 'pk_live_nope' })).body, { statusCode: 401, message: 'Invalid API key' });

    await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { apiKeyIpAllowlist: ['10.0.0.0/8'] });
    const refused = await gateway.request('GET', '/api/v1/merchants/me', { key: liveKey });
    t.is(refused.status, 403);
    t.is(refused.body.errorCode, 'IP_NOT_ALLOWED');
    await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { apiKeyIpAllowlist: ['127.0.0.1'] });
    t.is((await gateway.request('GET', '/api/v1/merchants/me', { key: liveKey })).status, 200);
    await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { apiKeyIpAllowlist: [] });
    t.is((await gateway.request('GET', '/api/v1/merchants/me', { key: liveKey })).status, 200);
  } finally {
    await gateway.stop();
  }
});

test('a Solana wallet is set at creation or by PATCH, shown in the profile as written, and refused unless base58 of 32 bytes', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const wallet = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
  const created = await gateway.admin('POST', '/internal/v1/merchants', { name: 'Sol', solanaWalletAddress: wallet });
  t.is(created.status, 201);
  t.like(created.body.responseObject.merchant, { solanaWalletAddress: wallet, evmWalletAddress: null });
  const { id } = created.body.responseObject.merchant;
  const other = 'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx';
  t.is((await gateway.admin('PATCH', `/internal/v1/merchants/${id}`, { solanaWalletAddress: other })).body.responseObject.solanaWalletAddress, other);
  t.is((await gateway.admin('PATCH', `/internal/v1/merchants/${id}`, { solanaWalletAddress: null })).body.responseObject.solanaWalletAddress, null);
  for (const solanaWalletAddress of ['0x1111111111111111111111111111111111111111', wallet.slice(0, 31), '44aLB2AXRPXCkyeVpyU8kHr4p56Vhwfy8cdz1unGjHR']) {
    const refused = await gateway.admin('PATCH', `/internal/v1/merchants/${id}`, { solanaWalletAddress });
    t.is(refused.status, 400, solanaWalletAddress);
    t.truthy(refused.body.responseObject.fieldErrors.solanaWalletAddress, solanaWalletAddress);
  }
});
