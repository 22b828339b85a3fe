import test from 'ava';
import { FREE_FORM_MAX_BYTES, FREE_FORM_MAX_DEPTH } from '../../gateway/schemas/free-form.js';
import { ADMIN_TOKEN, startTestGateway, withMerchant, type TestGateway } from '../support/gateway.js';
import { rawRequest } from '../support/raw-http.js';

/** `levels` nested objects, the outermost counted as 1: `{"n":{"n":{}}}` is 3. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { n: value };
  return value;
}

async function orderCount(gateway: TestGateway, key: string): Promise<number> {
  const list = await gateway.request('GET', '/api/v1/merchants/me/orders', { key });
  return list.body.responseObject.total;
}

const fieldErrors = (response: { body: { responseObject: any } }) => Object.keys(response.body.responseObject?.fieldErrors ?? {});

test('notes nested thousands deep are refused with a 400 and stored nowhere, so reads keep working', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    let deep: unknown = {};
    for (let i = 0; i < 3_000; i++) deep = [deep];
    const refused = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '10', notes: { a: deep } } });
    t.is(refused.status, 400);
    t.is(refused.body.message, 'Invalid request');
    t.is(await orderCount(gateway, liveKey), 0);
    const created = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '10' } });
    t.is((await gateway.request('GET', `/api/v1/orders/${created.body.responseObject.order.id}`)).status, 200);
  }));

test(`notes may nest ${FREE_FORM_MAX_DEPTH} levels and no more`, (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const deepest = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '10', notes: nested(FREE_FORM_MAX_DEPTH) } });
    t.is(deepest.status, 201);
    t.deepEqual(deepest.body.responseObject.order.notes, nested(FREE_FORM_MAX_DEPTH));
    const hosted = await gateway.request('GET', `/api/v1/orders/${deepest.body.responseObject.order.id}`);
    t.deepEqual(hosted.body.responseObject.order.notes, nested(FREE_FORM_MAX_DEPTH));

    const tooDeep = await gateway.request('POST', '/api/v1/orders', {
      key: liveKey,
      body: { requestedUsdcAmount: '10', notes: nested(FREE_FORM_MAX_DEPTH + 1) },
    });
    t.is(tooDeep.status, 400);
    t.deepEqual(tooDeep.body.responseObject.fieldErrors, { notes: [`must nest at most ${FREE_FORM_MAX_DEPTH} levels`] });
    t.is(await orderCount(gateway, liveKey), 1);
  }));

test(`notes may take ${FREE_FORM_MAX_BYTES} bytes of JSON and no more, counted in UTF-8`, (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    // {"t":"…"} is 8 bytes around the text; "é" is 2 bytes in UTF-8.
    const fits = { t: 'é'.repeat((FREE_FORM_MAX_BYTES - 8) / 2) };
    t.is(Buffer.byteLength(JSON.stringify(fits)), FREE_FORM_MAX_BYTES);
    const accepted = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '10', notes: fits } });
    t.is(accepted.status, 201);

    const over = { t: `${fits.t}x` };
    const refused = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '10', notes: over } });
    t.is(refused.status, 400);
    t.deepEqual(refused.body.responseObject.fieldErrors, { notes: [`must be at most ${FREE_FORM_MAX_BYTES} bytes as JSON`] });
    t.is(await orderCount(gateway, liveKey), 1);
  }));

test('an amount above the platform maximum is refused, naming the field and the maximum; the maximum itself is accepted', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{ requestedUsdcAmount: '1234567890123456789012345678901234567890' }, 'requestedUsdcAmount', 'must be at most 32 characters'],
      [{ requestedUsdcAmount: '100000.000001' }, 'requestedUsdcAmount', 'must be at most 100000 USDC'],
      [{ requestedUsdcAmount: '99999999999999999999' }, 'requestedUsdcAmount', 'must be at most 100000 USDC'],
      [
        { requestedFiatAmount: '100000.01', requestedFiatCurrency: 'USD' },
        'requestedFiatAmount',
        'is 100000.01 USDC at today’s rate; an order may be at most 100000 USDC',
      ],
      [
        { requestedFiatAmount: '92000.01', requestedFiatCurrency: 'EUR' },
        'requestedFiatAmount',
        'is 100000.01087 USDC at today’s rate; an order may be at most 100000 USDC',
      ],
    ];
    for (const [body, field, message] of refusals) {
      const refused = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body });
      t.is(refused.status, 400, JSON.stringify(body));
      t.deepEqual(refused.body.responseObject?.fieldErrors, { [field]: [message] }, JSON.stringify(body));
    }
    t.is(await orderCount(gateway, liveKey), 0);
    for (const body of [{ requestedUsdcAmount: '100000' }, { requestedFiatAmount: '92000', requestedFiatCurrency: 'EUR' }]) {
      const accepted = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body });
      t.is(accepted.status, 201, JSON.stringify(body));
      t.is(accepted.body.responseObject.order.requestedUsdcAmount, '100000');
    }
  }));

test('an open amount whose maximum or presets are worth more than the platform maximum is OPEN_AMOUNT_INVALID', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    for (const openAmount of [
      { currency: 'USD', maxAmount: '100000.01' },
      { currency: 'EUR', maxAmount: '92000.01' },
      { currency: 'USD', presets: ['10', '100000.01'] },
    ]) {
      const refused = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { openAmount } });
      t.is(refused.status, 400, JSON.stringify(openAmount));
      t.is(refused.body.errorCode, 'OPEN_AMOUNT_INVALID', JSON.stringify(openAmount));
      t.regex(refused.body.message, /at most 100000 USDC/);
    }
    const accepted = await gateway.request('POST', '/api/v1/orders', {
      key: liveKey,
      body: { openAmount: { currency: 'EUR', maxAmount: '92000', presets: ['5'] } },
    });
    t.is(accepted.status, 201);
  }));

test('the maximum is configurable with ORDER_MAX_USDC', (t) =>
  withMerchant(
    async (gateway, { liveKey }) => {
      const refused = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '250.5' } });
      t.deepEqual(refused.body.responseObject.fieldErrors, { requestedUsdcAmount: ['must be at most 250 USDC'] });
      t.is((await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '250' } })).status, 201);
    },
    { ORDER_MAX_USDC: 250_000_000n },
  ));

test('a path parameter that is not an id of its kind is a 400 naming it, before it reaches an actor', async (t) => {
  const gateway = await startTestGateway();
  try {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const odd = ['..', '.', '%2e%2e', 'a%2Fb', '%00', '%C3%A9', 'x'.repeat(200)];
    for (const id of [...odd, 'mer_short', 'ord_0123456789ABCDEFabcdef01', 'mer_0123456789ABCDEFabcdef0%21']) {
      const patched = await rawRequest(gateway.url, { method: 'PATCH', path: `/internal/v1/merchants/${id}`, headers: admin, body: '{"tier":"PRO"}' });
      t.is(patched.status, 400, `PATCH ${id}`);
      t.deepEqual(fieldErrors({ body: patched.json }), ['merchantId'], `PATCH ${id}`);
      const rotated = await rawRequest(gateway.url, { method: 'POST', path: `/internal/v1/merchants/${id}/api-keys/rotate`, headers: admin });
      t.is(rotated.status, 400, `rotate ${id}`);
      t.deepEqual(fieldErrors({ body: rotated.json }), ['merchantId'], `rotate ${id}`);
    }
    for (const id of [...odd, 'ord_short', 'mer_0123456789ABCDEFabcdef01', 'ord_0123456789ABCDEFabcdef0%21']) {
      const hosted = await rawRequest(gateway.url, { method: 'GET', path: `/api/v1/orders/${id}` });
      t.is(hosted.status, 400, `hosted ${id}`);
      t.deepEqual(fieldErrors({ body: hosted.json }), ['orderId'], `hosted ${id}`);
    }
    const unknownMerchant = await gateway.admin('PATCH', '/internal/v1/merchants/mer_0123456789ABCDEFabcdef01', { tier: 'PRO' });
    t.is(unknownMerchant.status, 404);
    const unknownOrder = await gateway.request('GET', '/api/v1/orders/ord_0123456789ABCDEFabcdef01');
    t.is(unknownOrder.status, 404);
  } finally {
    await gateway.stop();
  }
});
