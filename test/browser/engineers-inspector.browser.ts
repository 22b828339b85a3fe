/**
 * The inspector on the engineers' page in a real browser: a sandbox payment is paid
 * through the simulator, the engineer enters the admin token, searches the payment's id
 * and sees it on its chart where the API says it stands, with its context and its turns
 * (newest first);
 * then steps back through time to its first turn, where the highlight and the context
 * are the turn's, and comes back to now. A second tab opens the payment from a link.
 * Screenshots: test/browser/output/engineers-inspector-now.png, -past.png and -link.png.
 */
import test from 'ava';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { advance, answerOf, placeOrder, startPayment } from '../support/checkout.js';
import { ADMIN_TOKEN, startTestGateway, type TestGateway } from '../support/gateway.js';
import { launchChromium, signInToEngineers, watchedPage } from './chromium.js';

const OUTPUT = new URL('./output/', import.meta.url);

/** The chart ids of a state value that is not parallel: the machine, then each nested state. */
function expectedActive(value: unknown, prefix = 'payment'): string[] {
  if (typeof value === 'string') return [prefix, `${prefix}.${value}`];
  const [[key, inner]] = Object.entries(value as Record<string, unknown>) as [[string, unknown]];
  return [prefix, ...expectedActive(inner, `${prefix}.${key}`)];
}

async function active(page: Page): Promise<string[]> {
  return page.locator('#chart svg.state-chart .state.active').evaluateAll((states) => states.map((state) => state.getAttribute('data-state-id') ?? ''));
}

async function shownContext(page: Page): Promise<unknown> {
  return JSON.parse(
    await page
      .locator('#actor .part', { has: page.locator('h3', { hasText: /^Context/ }) })
      .locator('pre.json')
      .innerText(),
  );
}

async function paidPayment(gateway: TestGateway): Promise<string> {
  const { sandboxKey } = await gateway.createMerchant();
  const order = await placeOrder(gateway, sandboxKey);
  const payment = await startPayment(order);
  await advance(gateway, 5 * 60_000);
  answerOf(await order.customer('POST', `/payments/${payment.id}/simulate`), 200, 'simulate');
  await gateway.node.system.effectsIdle();
  return payment.id;
}

test('the engineers’ page finds a payment, shows it where it stands with its turns, and steps back through time', async (t) => {
  const gateway = await startTestGateway();
  const browser = await launchChromium();
  try {
    const paymentId = await paidPayment(gateway);
    const now = answerOf(await gateway.admin('GET', `/internal/v1/actors/payment/${paymentId}`), 200, 'actor');
    const turns = answerOf(await gateway.admin('GET', `/internal/v1/actors/payment/${paymentId}/history?limit=100`), 200, 'history').turns as any[];
    const first = answerOf(await gateway.admin('GET', `/internal/v1/actors/payment/${paymentId}/history/${turns[0].version}`), 200, 'first turn');
    t.true(turns.length >= 2, 'created, then paid');
    t.notDeepEqual(expectedActive(first.state), expectedActive(now.state), 'its first turn left it elsewhere than it stands');

    const { page, requested, errors } = await watchedPage(browser);

    await signInToEngineers(page, gateway.url, ADMIN_TOKEN);
    await page.getByLabel('Find an actor').fill(paymentId);
    await page.getByRole('button', { name: 'Search' }).click();

    // One actor found: it opens, and the address links to it.
    await page.locator('#actor-bar h2', { hasText: `payment ${paymentId}` }).waitFor();
    await page.locator('#chart svg.state-chart').waitFor();
    t.is(new URL(page.url()).hash, `#payment/${paymentId}`);
    t.deepEqual(await active(page), expectedActive(now.state), 'the chart highlights where the API says it stands');
    t.is(await page.locator('#actor-bar .where').innerText(), 'viewing now');
    t.deepEqual(await shownContext(page), now.context);
    const rows = page.locator('#actor .part', { has: page.locator('h3', { hasText: 'History' }) }).locator(':scope > table.grid > tbody > tr');
    const newestFirst = [...turns].reverse();
    t.is(await rows.count(), turns.length, 'every turn listed');
    t.deepEqual(
      await rows.locator('.event').allInnerTexts(),
      newestFirst.map((turn) => turn.event.type + (turn.timer ? 'timer' : '')),
      'newest first',
    );
    t.deepEqual(
      await rows.locator('.id').allInnerTexts(),
      newestFirst.map((turn) => turn.messageId),
    );
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: new URL('engineers-inspector-now.png', OUTPUT).pathname, fullPage: true });

    // Back one turn at a time, from now to the first.
    for (let step = turns.length; step >= 1; step--) {
      await page.getByRole('button', { name: '◀ Previous turn' }).click();
      await page.locator('#actor-bar .where', { hasText: `viewing turn ${step} of ${turns.length}` }).waitFor();
    }
    t.true(await page.getByRole('button', { name: '◀ Previous turn' }).isDisabled(), 'nothing before the first turn');
    t.deepEqual(await active(page), expectedActive(first.state), 'highlighted where the first turn left it');
    t.deepEqual(await shownContext(page), first.context, 'the context as the first turn left it');
    t.is(await rows.nth(turns.length - 1).getAttribute('aria-current'), 'true', 'the first turn is the last row');
    await page.screenshot({ path: new URL('engineers-inspector-past.png', OUTPUT).pathname, fullPage: true });

    // A turn picked from the list, then back to now.
    const last = turns.length - 1;
    await rows.nth(0).getByRole('button', { name: /^Turn/ }).click();
    await page.locator('#actor-bar .where', { hasText: `viewing turn ${turns.length} of ${turns.length}` }).waitFor();
    t.deepEqual(await active(page), expectedActive(turns[last].stateAfter));
    await page.getByRole('button', { name: 'back to now' }).click();
    await page.locator('#actor-bar .where', { hasText: 'viewing now' }).waitFor();
    t.deepEqual(await active(page), expectedActive(now.state));

    // A link opens the payment in a new tab, which has no token yet and asks for it.
    const linked = await browser.context.newPage();
    await signInToEngineers(linked, gateway.url, ADMIN_TOKEN, `#payment/${paymentId}`);
    await linked.locator('#actor-bar h2', { hasText: `payment ${paymentId}` }).waitFor();
    await linked.locator('#chart svg.state-chart').waitFor();
    t.deepEqual(await active(linked), expectedActive(now.state));
    await linked.screenshot({ path: new URL('engineers-inspector-link.png', OUTPUT).pathname });

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
