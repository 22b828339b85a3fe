/**
 * Every screen of the hosted checkout as a shopper meets it, on the node `npm start` runs:
 * the choice of payment method, the node answering 503 while payments are unavailable (on
 * creating a payment, and on the prices), a fiat payment step, its paid receipt, a crypto
 * payment step, an open amount typed wrong, a price that never gets reserved, and links
 * that can never work. Each screen is checked with axe-core (no serious or
 * critical violation) and saved as a screenshot at a phone's 390 pixels and a desktop's
 * 1280, under test/browser/output/a11y-*.png. On the way: the way back to the shop on
 * every step, the copy buttons (what lands on the clipboard), the QR codes, the countdown
 * in hours and minutes, and errors in words.
 */
import test, { type ExecutionContext } from 'ava';
import { AxeBuilder } from '@axe-core/playwright';
import { createCheckout, getCheckoutUrl } from '@zkp2p/pay-sdk';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { CRYPTO_RAIL, openPage, setUpCheckout, shot, type CheckoutSetup } from './checkout-node.js';

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
];
/** The refusals this test provokes on purpose, which Chromium logs as failed loads. */
const PROVOKED = /status of (401|404|503)/;

async function checkScreen(t: ExecutionContext, page: Page, name: string): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await shot(page, `a11y-${name}-${size.name}`);
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    t.deepEqual(
      serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
      [],
      `${name} at ${size.width}px`,
    );
  }
}

async function createOrder(setup: CheckoutSetup, body: Record<string, unknown>): Promise<{ id: string; url: string }> {
  const response = await fetch(`${setup.node.url}/api/v1/orders`, {
    method: 'POST',
    headers: { 'x-api-key': setup.liveKey, 'content-type': 'application/json' },
    body: JSON.stringify({ destinationAddress: privateKeyToAccount(generatePrivateKey()).address, ...body }),
  });
  const { responseObject } = (await response.json()) as { responseObject: { order: { id: string }; orderToken: string } };
  return { id: responseObject.order.id, url: getCheckoutUrl(responseObject.order.id, responseObject.orderToken, { apiBaseUrl: setup.node.url }) };
}

/**
 * Clicks "Copy <what>" and gives what landed on the clipboard, once the page has said it copied
 * (the button's own "Copied" may be redrawn away by a poll). The test's tsconfig has no DOM
 * types, so the page reads its clipboard from a string.
 */
async function copy(page: Page, what: string): Promise<string> {
  await page.getByRole('button', { name: `Copy ${what}` }).click();
  await page.locator('#announcer', { hasText: `Copied the ${what}` }).waitFor({ state: 'attached' });
  return page.evaluate<string>('navigator.clipboard.readText()');
}

const unavailable = JSON.stringify({
  success: false,
  message: 'Live payments are unavailable on this node right now',
  responseObject: null,
  statusCode: 503,
  errorCode: 'LIVE_PAYMENTS_UNAVAILABLE',
});

test.serial('checkout screens: accessible at 390 and 1280 pixels, with the way back, copy buttons, QR codes, a receipt and errors in words', async (t) => {
  const setup = await setUpCheckout(t);
  const { node } = setup;
  await setup.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: node.url });
  const cancelUrl = `${node.url}/docs?back=shop`;

  // 1. The choice of payment method: prices that differ by app are explained, the way back is there.
  const fixed = await createOrder(setup, {
    requestedFiatAmount: '25.00',
    requestedFiatCurrency: 'USD',
    enabledRails: ['venmo', 'cashapp', 'paypal'],
    cancelUrl,
  });
  const page = await openPage(setup, t, fixed.url, PROVOKED);
  await page.getByRole('heading', { name: 'Pay 25.00 USD' }).waitFor();
  await page.getByRole('radio', { name: /Cash App/ }).waitFor();
  t.is(await page.getByRole('link', { name: 'Back to Lumen Coffee' }).getAttribute('href'), cancelUrl);
  await page.getByText(/^Prices differ by app/).waitFor();
  t.is(await page.getByText(/rated/).count(), 0, 'no bare rating');
  await page.getByText('Payments to this recipient go through reliably', { exact: false }).first().waitFor();
  await checkScreen(t, page, '1-methods');

  // 2. Creating the payment answers 503: words and a retry, no spinner; the retry goes through once the node is back.
  const paymentsRoute = '**/api/v1/checkout/orders/*/payments';
  await page.route(paymentsRoute, (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 503, contentType: 'application/json', body: unavailable }) : route.fallback(),
  );
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('alert').filter({ hasText: 'Payments are unavailable right now, try again shortly.' }).waitFor();
  t.is(await page.getByText('Reserving your price').count(), 0);
  await checkScreen(t, page, '2-unavailable');
  await page.unroute(paymentsRoute);
  await page.getByRole('button', { name: 'Try again' }).click();

  // 3. The fiat payment step: every value copyable, a QR code to the app, the way back.
  await page.getByRole('heading', { name: 'Pay with Venmo' }).waitFor();
  await page.getByRole('button', { name: /in the simulator$/ }).waitFor();
  const payTo = (await page.getByTestId('pay-to').textContent())!;
  t.is(await page.getByRole('link', { name: 'Back to Lumen Coffee' }).getAttribute('href'), cancelUrl);
  t.is(await copy(page, 'amount'), '25.00');
  t.is(await copy(page, 'recipient'), payTo);
  t.regex(await copy(page, 'note'), /^PEER-/);
  await page.locator('img.qr[src^="data:image/svg+xml"]').waitFor();
  await page.getByText(/^Time left to pay: 59:\d\d$/).waitFor();
  await checkScreen(t, page, '3-fiat-payment');

  // 4. Paid: a receipt with the amount, the shop, the reference and the transaction on chain.
  await page.getByRole('button', { name: /in the simulator$/ }).click();
  await page.getByRole('status').filter({ hasText: 'Sent in the simulator' }).waitFor();
  await page.getByRole('button', { name: 'I’ve paid' }).click();
  await page.getByRole('heading', { name: 'Paid' }).waitFor({ timeout: 60_000 });
  const receipt = page.getByRole('definition').filter({ hasText: 'Lumen Coffee' });
  await receipt.waitFor();
  t.is(await page.getByTestId('receipt-amount').textContent(), '25.00 USD');
  t.is(await page.getByTestId('receipt-reference').textContent(), fixed.id);
  const transaction = page.getByTestId('receipt-transaction');
  await transaction.waitFor();
  const hash = (await transaction.textContent())!;
  t.regex(hash, /^0x[0-9a-f]{64}$/);
  t.is(await copy(page, 'transaction hash'), hash);
  t.is(await copy(page, 'reference'), fixed.id);
  await checkScreen(t, page, '4-paid-receipt');

  // 5. A crypto payment step: hours and minutes left, the address copyable and scannable.
  const crypto = await createCheckout(
    { requestedUsdcAmount: '15', destinationAddress: privateKeyToAccount(generatePrivateKey()).address, enabledRails: [CRYPTO_RAIL], cancelUrl },
    { apiBaseUrl: node.url, apiKey: setup.liveKey },
  );
  const cryptoPage = await openPage(setup, t, crypto.checkoutUrl, PROVOKED);
  await cryptoPage.getByRole('heading', { name: 'Pay 15.00 USDC' }).waitFor();
  await cryptoPage.getByRole('button', { name: 'Continue' }).click();
  await cryptoPage.getByRole('heading', { name: 'Pay with Crypto on Arbitrum' }).waitFor();
  await cryptoPage.getByRole('button', { name: /from the local test wallet$/ }).waitFor();
  await cryptoPage.getByText(/^Time left to pay: \d+ h \d+ min$/).waitFor();
  t.is(await copy(cryptoPage, 'address'), (await cryptoPage.getByTestId('pay-to').textContent())!);
  t.is(await copy(cryptoPage, 'amount'), '15.015');
  await cryptoPage.locator('img.qr[src^="data:image/svg+xml"]').waitFor();
  await checkScreen(t, cryptoPage, '5-crypto-payment');

  // 6. An open amount typed as "abc": what is wrong, in words.
  const open = await createOrder(setup, { openAmount: { currency: 'USD', minAmount: '5', maxAmount: '200' }, enabledRails: ['venmo'], cancelUrl });
  const openView = await openPage(setup, t, open.url, PROVOKED);
  const amount = openView.getByLabel('Amount (USD)');
  await amount.fill('abc');
  await amount.press('Enter');
  await openView.getByRole('alert').filter({ hasText: 'Enter the amount as a number, such as 20 or 20.50.' }).waitFor();
  t.is(await openView.getByText('Invalid request').count(), 0);
  t.is(await amount.inputValue(), 'abc', 'what was typed stays, to be corrected');
  t.is(await amount.getAttribute('aria-invalid'), 'true');
  await checkScreen(t, openView, '6-open-amount-error');
  await amount.fill('42.5');
  await amount.press('Enter');
  await openView.getByRole('heading', { name: 'Pay 42.50 USDC' }).waitFor();

  // 7. The prices cannot be had for a while (no exchange rate): words and a retry, which shows them once they can.
  const quotesRoute = '**/api/v1/checkout/orders/*/quotes*';
  const rateless = JSON.stringify({
    success: false,
    message: 'Exchange rates are unavailable right now; retry shortly',
    responseObject: null,
    statusCode: 503,
    errorCode: 'RATE_UNAVAILABLE',
  });
  const later = await createOrder(setup, { requestedFiatAmount: '12.00', requestedFiatCurrency: 'USD', enabledRails: ['venmo'], cancelUrl });
  const laterPage = await openPage(setup, t, later.url, PROVOKED);
  await laterPage.route(quotesRoute, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: rateless }));
  await laterPage.reload();
  await laterPage.getByRole('alert').filter({ hasText: 'Payments are unavailable right now, try again shortly.' }).waitFor();
  await laterPage.unroute(quotesRoute);
  await laterPage.getByRole('button', { name: 'Try again' }).click();
  await laterPage.getByRole('radio', { name: /Venmo/ }).waitFor();

  // 8. A price that never gets reserved (the chain never answers, as the hosted read is made to say):
  // after a minute on the page's clock, words instead of the spinner, and the way to another method.
  const stuck = await createOrder(setup, { requestedFiatAmount: '18.00', requestedFiatCurrency: 'USD', enabledRails: ['venmo'], cancelUrl });
  const stuckPage = await openPage(setup, t, 'about:blank', PROVOKED);
  await stuckPage.clock.install();
  await stuckPage.route('**/api/v1/orders/ord_*', async (route) => {
    const response = await route.fetch();
    const envelope = (await response.json()) as { responseObject: { currentPayment: { railIdentifier: string | null } | null } };
    if (envelope.responseObject.currentPayment) envelope.responseObject.currentPayment.railIdentifier = null;
    await route.fulfill({ response, json: envelope });
  });
  await stuckPage.goto(stuck.url);
  await stuckPage.getByRole('button', { name: 'Continue' }).click();
  await stuckPage.getByRole('status').filter({ hasText: 'Reserving your price…' }).waitFor();
  await stuckPage.clock.fastForward('01:01');
  await stuckPage
    .getByRole('alert')
    .filter({ hasText: 'Reserving your price is taking longer than it should. Payments are unavailable right now, try again shortly.' })
    .waitFor();
  t.is(await stuckPage.getByText('Reserving your price…').count(), 0);
  t.true(await stuckPage.getByRole('button', { name: 'Choose another way to pay' }).isEnabled());
  await checkScreen(t, stuckPage, '8-reserving-too-long');
  // The page keeps polling; a poll caught in the route when the browser closes would reject unhandled.
  await stuckPage.unrouteAll({ behavior: 'ignoreErrors' });

  // 9. Links that can never work: a wrong token shows no amount, and nothing says to try again.
  const wrong = await createOrder(setup, { requestedFiatAmount: '31.00', requestedFiatCurrency: 'USD', enabledRails: ['venmo'], cancelUrl });
  const wrongView = await openPage(setup, t, wrong.url.replace(/token=[^&]+/, 'token=not-the-orders-token-at-all'), PROVOKED);
  await wrongView.getByRole('heading', { name: 'This checkout link does not work' }).waitFor();
  const said = (await wrongView.locator('main').textContent())!;
  t.notRegex(said, /31\.00|Order not found|try again/i, said);
  await checkScreen(t, wrongView, '9-wrong-token');
  const unknown = await openPage(setup, t, `${node.url}/?order=ord_000000000000000000000000&token=not-the-orders-token-at-all`, PROVOKED);
  await unknown.getByRole('heading', { name: 'This checkout link does not work' }).waitFor();
  t.notRegex((await unknown.locator('main').textContent())!, /try again/i);

  t.deepEqual(setup.errors, [], 'no console errors but the refusals provoked, so nothing refused by the page’s Content-Security-Policy');
});
