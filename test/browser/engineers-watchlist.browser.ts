/**
 * The engineers' page as a debugging engineer starts on it, without an id: the actors
 * worth a look are listed (a paid payment among the recent turns, an unpaid one stuck
 * after 20 minutes on the test clock, with its timer due); from the paid payment the
 * engineer follows its tell to its order and the order's sender back to the payment,
 * opens a turn's payload and what it changed in the context, fits the chart, sees the
 * node's health, and cancels the stuck payment from the page, which the history then
 * shows as a turn sent by the admin API, and which leaves the stuck list.
 * The order shows its actors over time, a column each.
 * Screenshots: test/browser/output/engineers-watchlist.png, -links.png, -sequence.png, -changes.png and -sent.png.
 */
import test from 'ava';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { advance, answerOf, placeOrder, startPayment } from '../support/checkout.js';
import { ADMIN_TOKEN, startTestGateway } from '../support/gateway.js';
import { launchChromium, signInToEngineers, watchedPage } from './chromium.js';

const OUTPUT = new URL('./output/', import.meta.url);
const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`engineers-${name}.png`, OUTPUT).pathname, fullPage: true });

const history = (page: Page) => page.locator('#actor .part', { has: page.locator('h3', { hasText: /^History/ }) }).locator(':scope > table.grid > tbody > tr');

test('without an id: the watchlist, links between actors, a turn’s changes, zoom, health, and an event sent from the page', async (t) => {
  const gateway = await startTestGateway();
  const browser = await launchChromium();
  try {
    const { sandboxKey } = await gateway.createMerchant();
    const paidOrder = await placeOrder(gateway, sandboxKey);
    const paid = await startPayment(paidOrder);
    await advance(gateway, 5 * 60_000);
    answerOf(await paidOrder.customer('POST', `/payments/${paid.id}/simulate`), 200, 'simulate');
    const waitingOrder = await placeOrder(gateway, sandboxKey);
    const waiting = await startPayment(waitingOrder);
    await advance(gateway, 20 * 60_000);
    await mkdir(OUTPUT, { recursive: true });

    const { page, requested, errors } = await watchedPage(browser);
    await signInToEngineers(page, gateway.url, ADMIN_TOKEN);

    // The lists, before any search.
    const list = (key: string) => page.locator(`#watch-lists [data-list="${key}"]`);
    await list('recent').locator('a.found').first().waitFor();
    t.true(await list('recent').locator(`a[data-actor="payment:${paid.id}"]`).isVisible(), 'the paid payment among the recent turns');
    const stuck = list('stuck').locator('a.found');
    t.deepEqual(
      await stuck.evaluateAll((links) => links.map((link) => link.getAttribute('data-actor'))),
      [`payment:${waiting.id}`],
      'only the unpaid payment is stuck',
    );
    t.regex(await stuck.first().innerText(), /no turn for 20 min in CREATED\.AWAITING_PAYMENT/);
    t.regex(await list('dueTimers').locator(`a[data-actor="payment:${waiting.id}"]`).innerText(), /xstate\.after\.window\.payment\.CREATED .* in 40 min/);
    t.regex(await page.locator('#health').innerText(), /^node healthy · /);
    await shot(page, 'watchlist');

    // From the list to the paid payment; its tell links to its order, whose turn links back.
    await list('recent').locator(`a[data-actor="payment:${paid.id}"]`).click();
    await page.locator('#actor-bar h2', { hasText: `payment ${paid.id}` }).waitFor();
    t.is(new URL(page.url()).hash, `#payment/${paid.id}`);
    const paidRow = history(page).filter({ has: page.locator('.event', { hasText: 'SIMULATE_PAYMENT' }) });
    const tell = paidRow.locator(`.effects a[data-actor="order:${paidOrder.id}"]`).first();
    t.is(await tell.getAttribute('href'), `#order/${paidOrder.id}`);
    await tell.click();
    await page.locator('#actor-bar h2', { hasText: `order ${paidOrder.id}` }).waitFor();
    const fromPayment = history(page).locator(`.sender a[data-actor="payment:${paid.id}"]`);
    t.true((await fromPayment.count()) >= 1, 'the order’s turns name the payment that told them');
    await shot(page, 'links');

    // The order's actors over time: a column each, a row per turn, oldest first.
    const sequence = page.locator('#actor .part', { has: page.locator('h3', { hasText: 'The order’s actors over time' }) });
    t.deepEqual(await sequence.locator('thead a[data-actor]').evaluateAll((links) => links.map((link) => link.getAttribute('data-actor'))), [
      `order:${paidOrder.id}`,
      `payment:${paid.id}`,
    ]);
    const orderTurns = answerOf(await gateway.admin('GET', `/internal/v1/actors/order/${paidOrder.id}/history?limit=100`), 200, 'order turns').turns as any[];
    const paymentTurns = answerOf(await gateway.admin('GET', `/internal/v1/actors/payment/${paid.id}/history?limit=100`), 200, 'payment turns').turns as any[];
    const sequenceRows = sequence.locator('tbody tr');
    t.is(await sequenceRows.count(), orderTurns.length + paymentTurns.length, 'every turn of both');
    t.is(await sequence.locator('td.acting').count(), orderTurns.length + paymentTurns.length, 'each in its actor’s column');
    t.true((await sequence.locator('td.sender').count()) >= 1, 'a tell marked in its sender’s column');
    await sequence.scrollIntoViewIfNeeded();
    await shot(page, 'sequence');

    // The order's newest turn: its event and what it changed in the context.
    const newest = history(page).first();
    await newest.locator('summary', { hasText: 'payload and changes' }).click();
    const changes = newest.locator('.payload table.grid tbody tr');
    await changes.first().waitFor();
    const paths = await changes.locator('td:first-child').allInnerTexts();
    t.true(paths.length > 0, 'the turn changed the context');
    const turns = orderTurns;
    const [before, after] = await Promise.all(
      turns
        .slice(-2)
        .map(async (turn) => answerOf(await gateway.admin('GET', `/internal/v1/actors/order/${paidOrder.id}/history/${turn.version}`), 200, 'as of').context),
    );
    const changed = Object.keys(after).filter((key) => JSON.stringify(after[key]) !== JSON.stringify(before[key]));
    t.true(
      changed.every((key) => paths.some((path) => path === key || path.startsWith(`${key}.`) || path.startsWith(`${key}[`))),
      'every top-level field the API shows changed is listed',
    );
    t.deepEqual(JSON.parse(await newest.locator('.payload pre.json').innerText()), turns.at(-1).event, 'the event as the API gives it');
    await shot(page, 'changes');

    // Back along the link, then fit the chart.
    await fromPayment.first().click();
    await page.locator('#actor-bar h2', { hasText: `payment ${paid.id}` }).waitFor();
    const svg = page.locator('#chart svg.state-chart');
    const natural = Number(await svg.getAttribute('width'));
    await page.getByRole('button', { name: 'Fit' }).click();
    const fitted = Number(await svg.getAttribute('width'));
    t.true(fitted < natural, 'fit shrinks a chart wider than its frame');
    t.not(await page.locator('.zoom-level').innerText(), '100%');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    t.true(Number(await svg.getAttribute('width')) > fitted);

    // An event from the page: the stuck payment cancelled, recorded as a turn of the admin API.
    await stuck.first().click();
    await page.locator('#actor-bar h2', { hasText: `payment ${waiting.id}` }).waitFor();
    await page.getByLabel('Event type').selectOption('CANCEL');
    await page.getByRole('button', { name: 'Send event' }).click();
    await page.locator('.send-event .outcome', { hasText: /^Sent: turn at version \d+, CREATED\.AWAITING_PAYMENT → CANCELLED\.$/ }).waitFor();
    t.regex(await history(page).first().locator('.event').innerText(), /^CANCEL/);
    t.is(await history(page).first().locator('.sender').innerText(), 'from the admin API');
    t.regex(await page.locator('#actor-bar .summary').innerText(), /^CANCELLED/);
    await list('stuck').locator('.hint', { hasText: 'Nothing stuck.' }).waitFor();
    await shot(page, 'sent');

    // An event the payment no longer takes: refused beside the form, nothing recorded.
    const count = await history(page).count();
    await page.getByLabel('Event type').selectOption('SIMULATE_PAYMENT');
    await page.getByRole('button', { name: 'Send event' }).click();
    await page.locator('.send-event .outcome', { hasText: /^Refused/ }).waitFor();
    t.regex(await page.locator('.send-event .outcome').innerText(), /^Refused: 409 payment \S+ refused SIMULATE_PAYMENT: /);
    t.is(await history(page).count(), count);

    const origin = new URL(gateway.url).origin;
    t.deepEqual(
      requested.filter((url) => new URL(url).origin !== origin),
      [],
      'every request stays on the node',
    );
    t.deepEqual(errors, ['Failed to load resource: the server responded with a status of 409 (Conflict)'], 'no error but the refused send’s answer');
  } finally {
    await browser.close();
    await gateway.stop();
  }
});
