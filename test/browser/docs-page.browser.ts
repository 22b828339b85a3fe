/**
 * The API reference at /docs, opened in a real browser: Redoc renders the node's own
 * OpenAPI document with nothing from another origin and nothing refused by the page's
 * Content-Security-Policy (Chromium reports a refusal as a console error). The page
 * opens with the quickstart, the sidebar shows the merchant API's group first and the
 * other APIs' groups after it, and the create-order operation shows its body's fields,
 * its error codes and its code samples. Leaves screenshots of the page's top
 * (test/browser/output/docs-quickstart.png) and of the operation (docs.png).
 */
import test from 'ava';
import { mkdir } from 'node:fs/promises';
import { startTestGateway } from '../support/gateway.js';
import { launchChromium } from './chromium.js';

const OUTPUT = new URL('./output/', import.meta.url);
/** The test node runs in development, so the group of what only a development node serves comes last. */
const TAG_GROUPS = ['Merchant API', 'Payout customers', 'Makers & market', 'Wallet provider', 'Admin & engineers', 'Service', 'Development'];
const CREATE_ORDER_FIELDS = ['requestedUsdcAmount', 'requestedFiatAmount', 'requestedFiatCurrency', 'openAmount', 'destinationAddress', 'idempotencyKey'];

interface Responses {
  paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
}

/** The upper-case names in the create-order responses (their error codes, and any setting they name), read from the served document so the test follows it. */
function createOrderErrorCodes(document: Responses): string[] {
  const responses = Object.values(document.paths['/api/v1/orders']?.post?.responses ?? {});
  return [...new Set(responses.flatMap((response) => response.description.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []))];
}

test('the reference page shows the create-order body and its error codes, from the node alone', async (t) => {
  const gateway = await startTestGateway();
  const browser = await launchChromium();
  try {
    const codes = createOrderErrorCodes((await gateway.request('GET', '/api/v1/openapi.json')).body as unknown as Responses);
    t.true(codes.includes('IDEMPOTENCY_KEY_MISMATCH'), codes.join());
    const requested: string[] = [];
    const errors: string[] = [];
    browser.context.on('request', (request) => requested.push(request.url()));
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(10_000);
    // Logged as they come too, so a step that times out shows the refusal behind it.
    const error = (text: string) => {
      errors.push(text);
      t.log(text);
    };
    page.on('console', (message) => {
      if (message.type() === 'error') error(message.text());
    });
    page.on('pageerror', (thrown) => error(thrown.message));

    await page.goto(`${gateway.url}/docs`);
    const menu = page.locator('.menu-content');
    await menu.getByText('Quickstart', { exact: true }).first().waitFor();
    t.is(await menu.locator('li').first().getAttribute('data-item-id'), 'section/Quickstart', 'the quickstart is the first entry of the sidebar');
    const groups = await menu.locator('li[data-item-id^="group/"]').evaluateAll((items) => items.map((item) => item.firstElementChild?.textContent?.trim()));
    t.deepEqual(groups, TAG_GROUPS, 'the sidebar shows the groups, the merchant API first');
    const quickstart = page.locator('[data-section-id^="section/Quickstart"]');
    await quickstart.getByText('curl -s http://127.0.0.1:3000/api/v1/orders', { exact: false }).first().waitFor();
    await quickstart.getByText('@zkp2p/pay-sdk', { exact: false }).first().waitFor();
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: new URL('docs-quickstart.png', OUTPUT).pathname });
    // Through Redoc's search, which runs in its blob: worker, so the CSP's allowance for it is exercised too.
    const search = page.getByRole('search').getByRole('textbox');
    await search.fill('Create an order');
    await page.locator('[data-role="search:results"]').getByRole('menuitem', { name: 'Create an order', exact: true }).click();
    await search.press('Escape'); // clears the search and its highlights, for the screenshot
    const operation = page.locator('[data-section-id]', { has: page.locator('h2', { hasText: /^\s*Create an order\s*$/ }) });
    for (const field of CREATE_ORDER_FIELDS) {
      await t.notThrowsAsync(operation.locator('.property-name').getByText(field, { exact: true }).waitFor(), `body field ${field}`);
    }
    for (const code of codes) await t.notThrowsAsync(operation.getByText(code).first().waitFor(), `error code ${code}`);
    for (const sample of ['curl', 'JavaScript', 'Peer SDK'])
      await t.notThrowsAsync(operation.getByRole('tab', { name: sample, exact: true }).waitFor(), `code sample ${sample}`);
    await operation.getByRole('tab', { name: 'curl', exact: true }).click();
    await operation.getByText('-H "x-api-key: $PEER_API_KEY"', { exact: false }).first().waitFor();

    // The operation looked at, not the whole page: the reference has grown past what a full-page capture does in time on two busy cores.
    await operation.first().screenshot({ path: new URL('docs.png', OUTPUT).pathname });
    const origin = new URL(gateway.url).origin;
    t.deepEqual(
      requested.filter((url) => new URL(url).origin !== origin),
      [],
      'every request stays on the gateway (a blob: URL has its creator’s origin)',
    );
    t.deepEqual(errors, []);
  } finally {
    await browser.close();
    await gateway.stop();
  }
});
