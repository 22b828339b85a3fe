/**
 * The hosted checkout page's answers (gateway/hosted-page/checkout-page.ts, gateway/page-routes.ts):
 * the link carries the order token in its address, so the page is never cached or sent on as a
 * Referer, and runs under its own Content-Security-Policy. Without an order, `/` is the landing
 * page or a 404: landing-page.test.ts.
 */
import test from 'ava';
import { withGateway } from '../../support/gateway.js';
import { placeOrder } from '../../support/checkout.js';

test('the page answers no-referrer, no-store and its own CSP; the test node names no other origin', (t) =>
  withGateway(async (gateway) => {
    const { sandboxKey } = await gateway.createMerchant();
    const order = await placeOrder(gateway, sandboxKey);
    const page = await gateway.request('GET', `/?order=${order.id}&token=${order.token}`);
    t.is(page.status, 200);
    t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
    t.is(page.headers.get('referrer-policy'), 'no-referrer');
    t.is(page.headers.get('cache-control'), 'no-store');
    t.is(
      page.headers.get('content-security-policy'),
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    // The shell says it too, for a browser that reads the meta element and not the header.
    t.true(String(page.body).includes('<meta name="referrer" content="no-referrer">'));
  }));
