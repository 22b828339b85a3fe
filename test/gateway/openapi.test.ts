import test from 'ava';
import { openApiDocument } from '../../gateway/openapi/document.js';
import { startTestGateway, withMerchant } from '../support/gateway.js';
import { ResponseValidator } from '../support/openapi-validator.js';
import { lintOpenApi } from '../support/redocly-lint.js';

test('the served document passes Redocly’s recommended rules with no errors and no warnings, with every area mounted and with none', async (t) => {
  const everything = openApiDocument('test', { orderMaxUsdc: '100000', admin: true, deadLetters: true, metrics: true });
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const served = await (await fetch(`${gateway.url}/api/v1/openapi.json`)).json();
  const bare = openApiDocument('test', { orderMaxUsdc: '100000' });
  for (const [name, document] of Object.entries({ everything, served, bare })) {
    const { totals, problems } = await lintOpenApi(document);
    t.deepEqual({ errors: totals.errors, warnings: totals.warnings }, { errors: 0, warnings: 0 }, `${name}: ${JSON.stringify(problems).slice(0, 2000)}`);
  }
});

test('every operation names its security, and every failure status lists its errorCode values or says it has none', (t) => {
  const document = openApiDocument('test', { orderMaxUsdc: '100000', admin: true, deadLetters: true, metrics: true }) as any;
  for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(operations)) {
      const where = `${method.toUpperCase()} ${path}`;
      t.true(Array.isArray(operation.security), `${where} declares its security`);
      t.truthy(operation.operationId, `${where} has an operationId`);
      // The probes are mounted ahead of the rate limit (gateway/service/probe-operations.ts).
      const probe = path.startsWith('/v1/health-check/');
      for (const status of probe ? ['500'] : ['429', '500']) t.truthy(operation.responses[status], `${where} documents ${status}`);
      if (probe) t.falsy(operation.responses['429'], `${where} is not rate limited`);
      for (const [status, answer] of Object.entries<any>(operation.responses)) {
        if (Number(status) < 400) continue;
        const text = String(answer.description);
        t.true(/`[A-Z_]+`|no errorCode/.test(text), `${where} ${status} names its codes: ${text}`);
      }
    }
  }
  const create = document.paths['/api/v1/orders'].post.responses;
  for (const status of ['200', '201', '400', '401', '403', '413', '415', '422', '429', '500', '503'])
    t.truthy(create[status], `create-order documents ${status}`);
});

test('the validator refuses what the document does not say: an undocumented status, errorCode, field or content type', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const validator = await ResponseValidator.fetch(gateway.url);
  const order = (await gateway.request('GET', '/api/v1/orders/ord_000000000000000000000000')).body;
  t.is(order.errorCode, 'NOT_FOUND');
  const check = (status: number, body: unknown, target = '/api/v1/orders/ord_000000000000000000000000', contentType = 'application/json; charset=utf-8') =>
    validator.problems({ method: 'GET', target, status, contentType, body });

  t.deepEqual(check(404, order), []);
  t.regex(check(409, { ...order, statusCode: 409 }).join(), /status is not documented/);
  t.regex(check(404, { ...order, errorCode: 'ORDER_GONE' }).join(), /allowed values/);
  t.regex(check(404, { ...order, extra: true }).join(), /additional properties/);
  t.regex(check(404, order, undefined, 'text/plain').join(), /content type text\/plain is not documented/);
  t.regex(check(404, { ...order, statusCode: 400 }).join(), /const/);
  t.deepEqual(check(404, order, '/nowhere'), []);
  t.regex(check(404, { ...order, errorCode: 'ORDER_GONE' }, '/nowhere').join(), /not the documented NOT_FOUND/);
  t.regex(check(418, order, '/nowhere').join(), /not an answer the document lists/);
});

test('real list rows and hosted orders of both amount modes match their documented variants (finding 1)', (t) =>
  withMerchant(async (gateway, merchant) => {
    await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { dynamicOrdersEnabled: true });
    const fixed = await gateway.request('POST', '/api/v1/orders', {
      key: merchant.liveKey,
      body: { requestedFiatAmount: '19.99', requestedFiatCurrency: 'EUR', notes: { sku: 'A1' } },
    });
    const open = await gateway.request('POST', '/api/v1/orders', {
      key: merchant.liveKey,
      body: { openAmount: { currency: 'EUR', minAmount: '5', maxAmount: '50' } },
    });
    t.is(fixed.status, 201);
    t.is(open.status, 201);
    // Each request above and below is validated against the served document by the test gateway; these read what matters.
    const list = await gateway.request('GET', '/api/v1/merchants/me/orders', { key: merchant.liveKey });
    const rows = list.body.responseObject.orders.map((row: { amountMode: string; hasActivePayment: boolean }) => [row.amountMode, row.hasActivePayment]);
    t.deepEqual(rows.sort(), [
      ['FIXED', false],
      ['OPEN', false],
    ]);
    const hostedOpen = (await gateway.request('GET', `/api/v1/orders/${open.body.responseObject.order.id}`)).body.responseObject;
    t.deepEqual(Object.keys(hostedOpen.order.openAmount).sort(), [
      'currency',
      'effectiveMax',
      'effectiveMin',
      'maxAmount',
      'minAmount',
      'presets',
      'savedInput',
    ]);
    t.is(hostedOpen.order.amountLock, null);
    const hostedFixed = (await gateway.request('GET', `/api/v1/orders/${fixed.body.responseObject.order.id}`)).body.responseObject;
    t.deepEqual(hostedFixed.order.requestedFiat, { amount: '19.99', currency: 'EUR' });
    t.false('amountLock' in hostedFixed.order, 'amountLock belongs to OPEN orders only');
    t.like(hostedFixed.merchant, { id: merchant.liveId, verified: true });
  }));
