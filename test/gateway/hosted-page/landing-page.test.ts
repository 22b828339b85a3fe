/**
 * `/` on a development node (gateway/hosted-page/landing-page.ts): a bare `/` is the
 * landing page, under its own Content-Security-Policy and loading only this origin, while
 * the checkout link (`/` with an order query) stays the checkout page. On a production
 * node a bare `/` is the 404 it always was, and the landing page's script is not served.
 */
import test from 'ava';
import { withGateway } from '../../support/gateway.js';
import { placeOrder } from '../../support/checkout.js';

const LANDING_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const notFound = { success: false, message: 'Not found', responseObject: null, statusCode: 404, errorCode: 'NOT_FOUND' };

test('in development a bare `/` is the landing page, linking the reference and the engineers’ page, from this origin alone', (t) =>
  withGateway(async (gateway) => {
    for (const path of ['/', '/?token=abcdefghijklmnopqrstuvwxyz']) {
      const page = await gateway.request('GET', path);
      t.is(page.status, 200, path);
      t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
      t.is(page.headers.get('content-security-policy'), LANDING_CSP);
      t.is(page.headers.get('cache-control'), 'no-store');
      const html = String(page.body);
      t.true(html.includes('<title>Peer platform · development node</title>'), path);
      for (const href of ['/docs', '/dashboard', '/internal/engineers']) t.true(html.includes(`href="${href}"`), `links ${href}`);
      t.true(html.includes('>Try a checkout</button>'));
      // Every address the page loads is a path on this origin.
      for (const [, url] of html.matchAll(/(?:src|href)="([^"]*)"/g)) t.true(url!.startsWith('/') || url === 'data:,', url);
    }
    const script = await gateway.request('GET', '/landing/app.js');
    t.is(script.status, 200);
    t.true(String(script.body).includes('/dev/demo-order'));
    t.is((await gateway.request('GET', '/landing/app.css')).status, 200);
  }));

test('without an admin token the landing page says how to get the engineers’ page instead of linking it', (t) =>
  withGateway(
    async (gateway) => {
      const html = String((await gateway.request('GET', '/')).body);
      t.false(html.includes('href="/internal/engineers"'));
      t.true(html.includes('Set <code>PEER_ADMIN_TOKEN</code>'));
    },
    { PEER_ADMIN_TOKEN: undefined },
  ));

test('in development the checkout link is still the checkout page', (t) =>
  withGateway(async (gateway) => {
    const { sandboxKey } = await gateway.createMerchant();
    const order = await placeOrder(gateway, sandboxKey);
    const page = await gateway.request('GET', `/?order=${order.id}&token=${order.token}`);
    t.is(page.status, 200);
    t.true(String(page.body).includes('<title>Checkout</title>'));
    t.true(String(page.body).includes('id="checkout-config"'));
  }));

test('in production a bare `/` is a 404 in the envelope, and neither the landing page’s assets nor demo orders are served', (t) =>
  withGateway(
    async (gateway) => {
      for (const [method, path] of [
        ['GET', '/'],
        ['GET', '/?token=abcdefghijklmnopqrstuvwxyz'],
        ['GET', '/landing/app.js'],
        ['GET', '/landing/app.css'],
        ['POST', '/dev/demo-order'],
      ] as const) {
        const answer = await gateway.request(method, path);
        t.is(answer.status, 404, path);
        t.deepEqual(answer.body, notFound, path);
      }
      const { sandboxKey } = await gateway.createMerchant();
      const order = await placeOrder(gateway, sandboxKey);
      t.is((await gateway.request('GET', `/?order=${order.id}&token=${order.token}`)).status, 200, 'the checkout page is served in production');
      const document = (await gateway.request('GET', '/api/v1/openapi.json')).body as unknown as { paths: Record<string, unknown> };
      t.false('/dev/demo-order' in document.paths);
    },
    { NODE_ENV: 'production' },
  ));
