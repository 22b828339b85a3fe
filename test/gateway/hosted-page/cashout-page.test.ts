/**
 * The payout checkout page's answers (gateway/hosted-page/cashout-page.ts): the shell at a
 * payout's checkoutUrl under its own Content-Security-Policy (this origin only), never cached
 * nor sent on as a Referer since its address carries the link token; its script and style; a
 * path that is not a payout id not found. Only a development node that catches its mail tells
 * the page to link to it; production serves the page all the same. A node with the attestation
 * service tells the page where to sign in to an account and seal it, and allows those origins.
 */
import test from 'ava';
import { withGateway, type TestGateway } from '../../support/gateway.js';

const PAGE = '/cashout/po_4Fz1hQk9TbW2mX7pLr0sVc3N?token=1.abc';
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** A node without the attestation service or the simulator: the page cannot connect accounts. */
const NO_CONNECT = { simulatorUrl: null, attestationServiceUrl: null, enclave: null, chainId: null };
const notFound = { success: false, message: 'Not found', responseObject: null, statusCode: 404, errorCode: 'NOT_FOUND' };

async function configOf(gateway: TestGateway): Promise<unknown> {
  const html = String((await gateway.request('GET', PAGE)).body);
  return JSON.parse(/<script type="application\/json" id="cashout-config">(.*)<\/script>/.exec(html)![1]!);
}

test('a payout’s checkoutUrl is the page: no-store, no-referrer, its own CSP, everything from this origin', (t) =>
  withGateway(async (gateway) => {
    const page = await gateway.request('GET', PAGE);
    t.is(page.status, 200);
    t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
    t.is(page.headers.get('content-security-policy'), CSP);
    t.is(page.headers.get('referrer-policy'), 'no-referrer');
    t.is(page.headers.get('cache-control'), 'no-store');
    const html = String(page.body);
    t.true(html.includes('<title>Your payout</title>'));
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]*)"/g)) t.true(url!.startsWith('/') || url === 'data:,', url);
    const script = await gateway.request('GET', '/cashout-page/app.js');
    t.is(script.status, 200);
    t.is(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    t.true(String(script.body).includes('/api/v1/cashout-checkout/'));
    const style = await gateway.request('GET', '/cashout-page/app.css');
    t.is(style.headers.get('content-type'), 'text/css; charset=utf-8');
    t.true(String(style.body).includes('.summary-amount'), 'the page’s own rules');
    t.true(String(style.body).includes('.checkout {'), 'after the checkout page’s');
  }));

test('a path that is not a payout id is not found, as an unknown path is', (t) =>
  withGateway(async (gateway) => {
    for (const path of ['/cashout/not-a-payout', '/cashout/po_short', '/cashout/ord_4Fz1hQk9TbW2mX7pLr0sVc3N', '/cashout/app.js']) {
      const answer = await gateway.request('GET', path);
      t.is(answer.status, 404, path);
      t.deepEqual(answer.body, notFound, path);
    }
  }));

test('a development node that catches its mail has the page link to it; one that sends through SMTP_URL does not', async (t) => {
  await withGateway(async (gateway) => {
    t.deepEqual(await configOf(gateway), { ...NO_CONNECT, caughtMailUrl: '/dev/mail' });
  });
  await withGateway(
    async (gateway) => {
      t.deepEqual(await configOf(gateway), { ...NO_CONNECT, caughtMailUrl: null });
    },
    { SMTP_URL: 'smtp://127.0.0.1:2525' },
  );
});

test('production serves the page, without the caught mail', (t) =>
  withGateway(
    async (gateway) => {
      t.deepEqual(await configOf(gateway), { ...NO_CONNECT, caughtMailUrl: null });
      t.is((await gateway.request('GET', '/cashout-page/app.js')).status, 200);
      const document = (await gateway.request('GET', '/api/v1/openapi.json')).body as unknown as { paths: Record<string, unknown> };
      t.true('/cashout/{payoutId}' in document.paths);
    },
    { NODE_ENV: 'production' },
  ));

test('a node with the attestation service and the simulator tells the page where to connect an account, and its CSP allows those origins alone', (t) =>
  withGateway(
    async (gateway) => {
      const enclave = gateway.node.enclave!;
      const config = (await configOf(gateway)) as Record<string, unknown>;
      t.like(config, {
        simulatorUrl: enclave.simulator!.url,
        attestationServiceUrl: enclave.server.httpUrl,
        enclave: { measurement: enclave.service.attestationDocument().measurement, signers: [enclave.service.signer] },
      });
      const origins = [enclave.simulator!.url, enclave.server.httpUrl].map((url) => new URL(url).origin);
      const csp = (await gateway.request('GET', PAGE)).headers.get('content-security-policy');
      t.is(csp, CSP.replace("connect-src 'self'", `connect-src 'self' ${origins.join(' ')}`));
    },
    { ENCLAVE_ENABLED: true },
  ));
