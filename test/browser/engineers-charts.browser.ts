/**
 * The engineers' page in a real browser: the engineer enters the admin token, picks the
 * payment machine, and its chart is laid out and drawn in the page from the JSON the node
 * serves, with nothing from another origin and nothing refused by the page's
 * Content-Security-Policy. The bundle's renderer then highlights an actor's state, as an
 * inspector panel will, and draws the chart byte for byte as docs/charts/ has it. Screenshots: test/browser/output/engineers-charts.png and
 * engineers-charts-active.png.
 */
import test from 'ava';
import { mkdir, readFile } from 'node:fs/promises';
import { ADMIN_TOKEN, startTestGateway } from '../support/gateway.js';
import { launchChromium, signInToEngineers, watchedPage } from './chromium.js';

const OUTPUT = new URL('./output/', import.meta.url);
const ACTIVE = ['payment', 'payment.CREATED', 'payment.CREATED.AWAITING_PAYMENT'];

test('the engineers’ page asks for the token, lists the machines and draws the payment chart in the browser', async (t) => {
  const gateway = await startTestGateway();
  const browser = await launchChromium();
  try {
    const { page, requested, errors } = await watchedPage(browser);
    const bearers: Array<string | undefined> = [];
    browser.context.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/internal/v1/')) bearers.push(request.headers().authorization);
    });

    await signInToEngineers(page, gateway.url, ADMIN_TOKEN);
    await page.getByRole('button', { name: /^payment\b/ }).click();

    const chart = page.locator('#chart svg.state-chart');
    await chart.waitFor();
    await t.notThrowsAsync(
      chart.locator('[data-state-id="payment.CREATED.AWAITING_PAYMENT"] text', { hasText: 'AWAITING_PAYMENT' }).first().waitFor(),
      'a known state, drawn',
    );
    t.true((await chart.locator('text', { hasText: 'after window' }).count()) > 0, 'the window’s delay, on its edge');
    t.is(new URL(page.url()).hash, '#payment', 'the chart can be linked to');
    t.is(await page.evaluate("sessionStorage.getItem('peer.engineers.adminToken')"), ADMIN_TOKEN, 'kept for this tab');
    t.true(bearers.length >= 2 && bearers.every((bearer) => bearer === `Bearer ${ADMIN_TOKEN}`), 'every admin call carries the token');

    // A window as large as the chart, so that the screenshot shows all of it at its own size.
    const size = await chart.boundingBox();
    await page.setViewportSize({ width: Math.ceil((size?.width ?? 0) + 400), height: Math.ceil((size?.height ?? 0) + 200) });
    await mkdir(OUTPUT, { recursive: true });
    await page.locator('#chart').screenshot({ path: new URL('engineers-charts.png', OUTPUT).pathname });

    // The bundle's own exports, as the inspector's panel will call them: the same chart with an actor's state highlighted,
    // and drawn without one, which must be the very bytes `npm run charts` wrote. Written as the page's JavaScript,
    // which runs there: the tests' TypeScript has no DOM.
    const drawn = (await page.evaluate(`(async () => {
      const { showChart, renderChart } = await import('/internal/engineers/app.js');
      const token = sessionStorage.getItem('peer.engineers.adminToken');
      const answer = await fetch('/internal/v1/machines/payment', { headers: { authorization: 'Bearer ' + token } });
      const definition = (await answer.json()).responseObject;
      await showChart(document.getElementById('chart'), definition, ${JSON.stringify(ACTIVE)});
      const active = [...document.querySelectorAll('#chart .state.active')].map((state) => state.getAttribute('data-state-id'));
      return { active, svg: await renderChart(definition) };
    })()`)) as { active: string[]; svg: string };
    t.deepEqual(drawn.active, ACTIVE);
    t.is(drawn.svg, await readFile(new URL('../../docs/charts/payment.svg', import.meta.url), 'utf8'), 'the browser lays out and draws as Node does');
    await page.locator('#chart').screenshot({ path: new URL('engineers-charts-active.png', OUTPUT).pathname });

    const origin = new URL(gateway.url).origin;
    t.deepEqual(
      requested.filter((url) => new URL(url).origin !== origin),
      [],
      'every request stays on the node',
    );
    t.deepEqual(errors, []);
  } finally {
    await browser.close();
    await gateway.stop();
  }
});
