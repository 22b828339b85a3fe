import test from 'ava';
import { startTestGateway, missingToken, notFound, type TestGateway } from '../../support/gateway.js';
import { rawRequest } from '../../support/raw-http.js';

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(() => gateway.stop());

test('the page is served without the token, holds no data, and loads only its own script and stylesheet', async (t) => {
  const page = await gateway.request('GET', '/internal/engineers');
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  const csp = page.headers.get('content-security-policy') ?? '';
  for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"])
    t.true(csp.includes(directive), directive);
  t.is(page.headers.get('cache-control'), 'no-store');
  const html = String(page.body);
  t.true(html.includes('<script type="module" src="/internal/engineers/app.js"></script>'));
  t.true(html.includes('<link rel="stylesheet" href="/internal/engineers/app.css">'));
  t.true(html.includes('id="token"'), 'it asks for the token');
  t.false(/payment|order|merchant/i.test(html), 'no machine named: the list comes from the admin API');
});

test('the script bundles the chart layout and drawing, and is served without the token like the stylesheet', async (t) => {
  const script = await gateway.request('GET', '/internal/engineers/app.js');
  t.is(script.status, 200);
  t.regex(script.headers.get('content-type') ?? '', /^text\/javascript/);
  const code = String(script.body);
  for (const part of ['elk.layered', '/internal/v1/machines', '/internal/v1/actors', 'sessionStorage', 'state-chart']) t.true(code.includes(part), part);
  t.false(/\bfrom\s*["']|import\(["']https?:/.test(code), 'one file: nothing imported from elsewhere');
  const style = await gateway.request('GET', '/internal/engineers/app.css');
  t.is(style.status, 200);
  t.regex(style.headers.get('content-type') ?? '', /^text\/css/);
});

test('any other spelling of the page’s path is the admin area’s: a 401 without the token', async (t) => {
  for (const path of ['/internal/engineers/', '/INTERNAL/engineers', '/internal/Engineers', '//internal/engineers', '/internal/%65ngineers']) {
    const answer = await rawRequest(gateway.url, { method: 'GET', path });
    t.is(answer.status, 401, path);
    t.deepEqual(answer.json, missingToken, path);
  }
});

test('without an admin token configured there is no page', async (t) => {
  const off = await startTestGateway({ PEER_ADMIN_TOKEN: undefined });
  try {
    for (const path of ['/internal/engineers', '/internal/engineers/app.js', '/internal/engineers/app.css'])
      t.deepEqual((await off.request('GET', path)).body, notFound, path);
  } finally {
    await off.stop();
  }
});
