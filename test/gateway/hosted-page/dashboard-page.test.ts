/**
 * The merchant dashboard page's answers (gateway/hosted-page/dashboard-page.ts): the shell at
 * /dashboard under a Content-Security-Policy of this origin alone, never cached nor sent on as a
 * Referer; its script and style; the caught mail linked on a development node that catches it,
 * and not where mail is sent for real or in production.
 */
import test from 'ava';
import { withGateway, type TestGateway } from '../../support/gateway.js';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

async function configOf(gateway: TestGateway): Promise<unknown> {
  const html = String((await gateway.request('GET', '/dashboard')).body);
  return JSON.parse(/<script type="application\/json" id="dashboard-config">(.*)<\/script>/.exec(html)![1]!);
}

test('the dashboard is one shell, its script and its style, all from this origin', (t) =>
  withGateway(async (gateway) => {
    const page = await gateway.request('GET', '/dashboard');
    t.is(page.status, 200);
    t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
    t.is(page.headers.get('content-security-policy'), CSP);
    t.is(page.headers.get('referrer-policy'), 'no-referrer');
    t.is(page.headers.get('cache-control'), 'no-store');
    const html = String(page.body);
    t.true(html.includes('<title>Merchant dashboard</title>'));
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]*)"/g)) t.true(url!.startsWith('/') || url === 'data:,', url);
    const script = await gateway.request('GET', '/dashboard-page/app.js');
    t.is(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    t.true(String(script.body).includes('/api/v1/dashboard/sign-in'));
    const style = await gateway.request('GET', '/dashboard-page/app.css');
    t.is(style.headers.get('content-type'), 'text/css; charset=utf-8');
    t.true(String(style.body).includes('table.list'), 'the page’s own rules');
    t.true(String(style.body).includes('--accent'), 'after the hosted pages’ palette');
  }));

test('the caught mail is linked on a development node that catches it, not where mail is sent or in production', async (t) => {
  const configs: unknown[] = [];
  for (const overrides of [{}, { SMTP_URL: 'smtp://127.0.0.1:2525' }, { NODE_ENV: 'production' as const }]) {
    await withGateway(async (gateway) => void configs.push(await configOf(gateway)), overrides);
  }
  t.deepEqual(configs, [{ caughtMailUrl: '/dev/mail' }, { caughtMailUrl: null }, { caughtMailUrl: null }]);
});
