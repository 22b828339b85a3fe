/**
 * The payout checkout page in a real browser at a phone's 390 pixels, on the node `npm start`
 * runs (the local chain, the indexer, the attestation service, the payment-platform simulator,
 * the local conversion provider and mail catcher, the real clock), with no seeded makers, so
 * the only Venmo liquidity is the customer's listing. End to end, as the deploy test
 * test/deploy/payout-listing-local.test.ts drives it over HTTP:
 * - the merchant creates a payout; the page waits for it to be funded, then the local
 *   conversion provider funds it;
 * - the customer asks for a code, reads it on the development node's caught-mail page (the
 *   page's own link), types a wrong one first, then signs in, which a reload keeps;
 * - chooses Venmo (a handle that is not a Venmo user id first), is refused skipping the
 *   connection once (a 409 the test makes: the page reads the state again and says why), then
 *   continues without connecting (offered to connect still, not now) and lists the payout;
 * - two buyers, each in their own browser on the order checkout page, take 40 USDC and then
 *   the rest over Venmo, pay the customer in the simulator and prove it: the page shows the
 *   buyer paying, the part paid, and SETTLED with the breakdown.
 * And a Venmo account connected through the page instead (the simulator's sign-in, to another
 * account first, which is refused), READY, its lapsed connection (a 422 the test makes) made
 * again, and listed.
 * And a payout sent instead to the customer's own address in USDC on Base: confirmed on the
 * page, sent from the customer's wallet, SETTLED with the transfer. And through the local
 * conversion provider (its deliveries held while the page shows the bridge on its way):
 * - a listing taken back and listed again, a buyer paying part of it on the order checkout
 *   page, what is left listed again (RELISTED), then the rest sent as USDT on Arbitrum (an address that is not one refused first),
 *   priced before it is sent, and SETTLED with what arrived where;
 * - the whole payout to USDT on Arbitrum: priced on the confirm screen, refunded by the
 *   provider (the confirm screen says what came back), sent again and SETTLED with the refund's
 *   fee.
 * Every screen is checked with axe-core (no serious or critical violation) and saved under
 * test/browser/output/cashout-*.png; the last at a desktop's 1280 too. Nothing the page does
 * may be refused by its Content-Security-Policy (a console error in Chromium).
 */
import test, { type ExecutionContext } from 'ava';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ADMIN_TOKEN } from '../support/gateway.js';
import { payoutBody, USDC_ON_BASE, WORKED_PAYOUT_SETTINGS } from '../support/payout-fakes.js';
import { shot, startBrowser, startEmbeddedNode } from './checkout-node.js';
import type { Browser } from './chromium.js';
import type { PlatformNode } from '../../deploy/node.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const CUSTOMER_VENMO = '1618033988';
/** The merchant's payout methods with the provider's Arbitrum route. */
const WITH_ARBITRUM = [...WORKED_PAYOUT_SETTINGS.methods, 'routea_42161'];
const STEP_TIMEOUT_MS = 60_000;
/** The refusals this test provokes on purpose (a wrong code, the made-up 409), which Chromium logs as failed loads. */
const PROVOKED = /status of (409|422)/;

async function checkScreen(t: ExecutionContext, page: Page, name: string): Promise<void> {
  await shot(page, `cashout-${name}`);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  t.deepEqual(
    serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    [],
    name,
  );
}

/** The test's tsconfig has no DOM types: the page answers from a string. */
const focusedId = (page: Page) => page.evaluate<string>('document.activeElement?.id ?? ""');

/** A page of `browser` that records every console error but the provoked refusals. */
async function pageOf(t: ExecutionContext, browser: Browser, errors: string[]): Promise<Page> {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  await page.setViewportSize(PHONE);
  page.on('console', (message) => {
    if (message.type() === 'error' && !PROVOKED.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return page;
}

/** The node's API as a test calls it: the envelope's responseObject, or a thrown error naming the refusal. */
async function call(node: PlatformNode, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<any> {
  const response = await fetch(`${node.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const envelope = (await response.json()) as { responseObject: any };
  if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
  return envelope.responseObject;
}

/**
 * Lumen Coffee, taking Venmo for orders and paying out with document 2's worked settings (its
 * payout methods `methods`), and its 100 USDC payout to ana@example.com, not funded yet.
 */
async function payoutOf(node: PlatformNode, idempotencyKey: string, methods: readonly string[] = WORKED_PAYOUT_SETTINGS.methods) {
  const admin = (method: string, path: string, body: unknown) => call(node, method, path, body, { authorization: `Bearer ${ADMIN_TOKEN}` });
  const created = await admin('POST', '/internal/v1/merchants', {
    name: 'Lumen Coffee',
    tier: 'BASE',
    evmWalletAddress: privateKeyToAccount(generatePrivateKey()).address,
  });
  await admin('PATCH', `/internal/v1/merchants/${created.merchant.id}`, {
    dynamicOrdersEnabled: true,
    enabledRails: ['venmo'],
    payouts: { ...WORKED_PAYOUT_SETTINGS, methods },
  });
  const merchant = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(node, method, path, body, { 'x-api-key': created.liveApiKey, ...headers });
  const payout = await merchant('POST', '/api/v1/payouts', payoutBody(), { 'idempotency-key': idempotencyKey });
  return { merchant, payout };
}

/**
 * A buyer in a browser of their own takes `usdc` of the customer's Venmo listing on the order
 * checkout page, pays in the simulator and proves it; `whilePaying` runs while they pay.
 */
function buyer(t: ExecutionContext, node: PlatformNode, merchant: (method: string, path: string, body: unknown) => Promise<any>, errors: string[]) {
  return async (usdc: string, name: string, whilePaying: () => Promise<void>) => {
    const order = await merchant('POST', '/api/v1/orders', {
      requestedUsdcAmount: usdc,
      destinationAddress: privateKeyToAccount(generatePrivateKey()).address,
    });
    const buyerBrowser = await startBrowser(t);
    const buyerPage = await pageOf(t, buyerBrowser, errors);
    await buyerPage.goto(`${node.url}/?order=${order.order.id}&token=${order.orderToken}`);
    await buyerPage.getByRole('radio', { name: /Venmo/ }).waitFor();
    await buyerPage.getByRole('button', { name: 'Continue' }).click();
    await buyerPage.getByRole('heading', { name: 'Pay with Venmo' }).waitFor();
    t.is(await buyerPage.getByTestId('pay-to').textContent(), CUSTOMER_VENMO, `${name} pays the customer`);
    const send = buyerPage.getByRole('button', { name: /in the simulator$/ });
    await send.waitFor();
    await whilePaying();
    await send.click();
    await buyerPage.getByRole('status').filter({ hasText: 'Sent in the simulator' }).waitFor();
    await buyerPage.getByRole('button', { name: 'I’ve paid' }).click();
    await buyerPage.getByRole('heading', { name: 'Paid' }).waitFor({ timeout: 90_000 });
    await shot(buyerPage, `cashout-buyer-${name}-paid`);
    await buyerBrowser.close();
  };
}

/** Opens the payout's link and signs in with the code the node's mail catcher holds. */
async function signedIn(node: PlatformNode, page: Page, checkoutUrl: string): Promise<void> {
  await page.goto(checkoutUrl);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('6-digit code').waitFor();
  const code = /\b(\d{6})\b/.exec(node.mail.inbox!.messages().at(-1)!.subject)![1]!;
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Chooses Venmo, continues without connecting it and lists the payout: LISTING. */
async function listOnVenmo(page: Page): Promise<void> {
  await page.getByRole('radio', { name: 'Venmo', exact: true }).check();
  await page.getByLabel('Your Venmo user ID').fill(CUSTOMER_VENMO);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue without connecting' }).click();
  await page.getByRole('button', { name: 'List my payout' }).click();
  await page.getByRole('heading', { name: /^Waiting for (a|the next) buyer$/ }).waitFor();
}

/** Sends the payout's funding from the local conversion provider's wallet. */
function fund(node: PlatformNode, payout: { funding: { depositAddress: `0x${string}`; amount: string } }) {
  return node.conversions.simulator!.sendFromWallet({
    depositAddress: payout.funding.depositAddress,
    chainId: 8453,
    tokenAddress: USDC_ON_BASE,
    amount: payout.funding.amount,
  });
}

test.serial('the payout checkout on a phone: funded, signed in, Venmo chosen, listed, paid by two checkout buyers, settled', async (t) => {
  t.timeout(360_000);
  const node = await startEmbeddedNode(t, { LOCAL_MAKERS: false, PAYOUT_FUNDING_POLL_MS: 1_000 });
  const errors: string[] = [];
  const { merchant, payout } = await payoutOf(node, 'cashout-page-browser-1');

  const browser = await startBrowser(t);
  const page = await pageOf(t, browser, errors);

  // 1. Before funding: who pays, how much, and that it waits for them.
  await page.goto(payout.checkoutUrl);
  await page.getByRole('heading', { name: 'Your payout is on its way' }).waitFor();
  t.is(await page.getByTestId('payout-amount').textContent(), '100.00 USDC');
  t.is(await page.getByTestId('payout-status').textContent(), 'Waiting for Lumen Coffee to fund it');
  await checkScreen(t, page, '1-awaiting-funding');

  // 2. Funded through the local conversion provider: the page moves on by itself to signing in.
  await fund(node, payout);
  await page.getByRole('heading', { name: 'Sign in to get paid' }).waitFor();
  await page.getByText('a••@example.com').waitFor();
  await checkScreen(t, page, '2-sign-in');

  // 3. The code, read where a development node shows the mail it caught: the page's own link, in a new tab.
  await page.getByRole('button', { name: 'Send me a code' }).click();
  const codeField = page.getByLabel('6-digit code');
  await codeField.waitFor();
  t.is(await codeField.getAttribute('autocomplete'), 'one-time-code');
  t.is(await codeField.getAttribute('inputmode'), 'numeric');
  t.is(await focusedId(page), 'field-code', 'the code field has focus once the code is sent');
  await checkScreen(t, page, '3-code-sent');
  const [mailPage] = await Promise.all([browser.context.waitForEvent('page'), page.getByRole('link', { name: 'Read your code in the caught mail' }).click()]);
  await mailPage.setViewportSize(PHONE);
  const subject = (await mailPage.locator('article h2').first().textContent()) ?? '';
  const code = /\b(\d{6})\b/.exec(subject)?.[1];
  t.truthy(code, subject);
  await shot(mailPage, 'cashout-3-caught-mail');
  await mailPage.close();

  // 4. A wrong code first: said in words, the field marked and focused.
  await codeField.fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'That code is not right. Check the e-mail and type it again.' }).waitFor();
  t.is(await codeField.getAttribute('aria-invalid'), 'true');
  t.is(await focusedId(page), 'field-code', 'focus moves to the refused code');
  await checkScreen(t, page, '4-wrong-code');
  await codeField.fill(code!);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // 5. How to be paid (the sign-in kept for the tab across a reload): the payout's fiat rails by name and one Crypto choice;
  // a handle that is not a Venmo user id is refused here.
  await page.getByRole('heading', { name: 'Choose how to be paid' }).waitFor();
  await page.reload();
  await page.getByRole('heading', { name: 'Choose how to be paid' }).waitFor();
  for (const name of ['Venmo', 'Cash App', 'PayPal', 'Zelle', 'Revolut', 'Chime', 'Crypto']) await page.getByRole('radio', { name, exact: true }).waitFor();
  await page.getByRole('radio', { name: 'Revolut', exact: true }).check();
  await page.getByLabel('Currency you receive').waitFor();
  t.is(await page.getByLabel('Currency you receive').locator('option').count(), 12, 'Revolut pays every catalog currency');
  await page.getByRole('radio', { name: 'Crypto', exact: true }).check();
  t.is(await page.getByLabel('Network').inputValue(), 'routea_8453');
  t.is(await page.getByLabel('Token').locator('option:checked').textContent(), 'USDC');
  await checkScreen(t, page, '5-method-crypto');
  await page.getByRole('radio', { name: 'Venmo', exact: true }).check();
  const handle = page.getByLabel('Your Venmo user ID');
  await handle.fill('@ana');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('alert').filter({ hasText: 'That is not a Venmo user id.' }).waitFor();
  t.is(await handle.getAttribute('aria-invalid'), 'true');
  await checkScreen(t, page, '5-method-venmo-refused');
  await handle.fill(CUSTOMER_VENMO);
  await page.getByRole('button', { name: 'Continue' }).click();

  // 6. Venmo waits for its account: a 409 on skipping (made by the test) re-reads the state and says why; then it goes through.
  await page.getByRole('heading', { name: 'Connect your Venmo account' }).waitFor();
  await page.getByText(`to ${CUSTOMER_VENMO}`).waitFor();
  let reads = 0;
  page.on('request', (request) => {
    if (request.method() === 'GET' && request.url().includes('/api/v1/cashout-checkout/')) reads += 1;
  });
  await page.route('**/skip-connect', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        message: 'SKIP_CONNECT is not offered',
        responseObject: { status: 'FUNDED', actions: ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT'] },
        statusCode: 409,
        errorCode: 'CASHOUT_SKIP_NOT_ALLOWED',
      }),
    }),
  );
  const readsBefore = reads;
  await page.getByRole('button', { name: 'Continue without connecting' }).click();
  await page.getByRole('alert').filter({ hasText: 'There is no account connection to skip any more.' }).waitFor();
  t.true(reads > readsBefore, 'the refusal is followed by a fresh read of the state');
  await checkScreen(t, page, '6-connect-refused');
  await page.unroute('**/skip-connect');
  await page.getByRole('button', { name: 'Continue without connecting' }).click();

  // 7. READY: what gets listed, where; listing it.
  await page.getByRole('heading', { name: 'List your payout' }).waitFor();
  await page.getByText(`Venmo, to ${CUSTOMER_VENMO}`).waitFor();
  await checkScreen(t, page, '7-confirm');
  // Skipped, the account may still be connected; not now.
  await page.getByRole('button', { name: 'Connect my Venmo account' }).click();
  await page.getByRole('heading', { name: 'Connect your Venmo account' }).waitFor();
  t.is(await page.getByRole('button', { name: 'Continue without connecting' }).count(), 0);
  await checkScreen(t, page, '7-connect-after-skipping');
  await page.getByRole('button', { name: 'Not now' }).click();
  await page.getByRole('heading', { name: 'List your payout' }).waitFor();
  await page.getByRole('button', { name: 'List my payout' }).click();
  await page.getByRole('heading', { name: 'Waiting for a buyer' }).waitFor();
  t.is(await page.getByTestId('payout-status').textContent(), 'Listed: waiting for a buyer');
  await checkScreen(t, page, '8-listing');

  // 8. Two buyers, each in a browser of their own, pay the listing through the order checkout page.
  const buy = buyer(t, node, merchant, errors);
  await buy('40', 'first', async () => {
    await page.getByRole('heading', { name: 'A buyer is paying you' }).waitFor();
    await page.getByText('A buyer is paying you on Venmo: check your Venmo account (1618033988).').waitFor();
    await checkScreen(t, page, '9-paying');
  });
  await page
    .getByTestId('paid-so-far')
    .filter({ hasText: /^40\.00 USDC of 100\.00 USDC$/ })
    .waitFor();
  t.is(await page.getByTestId('payout-status').textContent(), 'Partly paid: waiting for the next buyer');
  await page.getByText('What happened so far').click();
  await checkScreen(t, page, '10-partly-paid');

  await buy('60', 'second', async () => {
    await page.getByRole('heading', { name: 'A buyer is paying you' }).waitFor();
  });
  await page.getByRole('heading', { name: 'You have been paid' }).waitFor({ timeout: 90_000 });
  t.is(await page.getByTestId('payout-status').textContent(), 'Paid');
  t.is(await page.getByTestId('paid-usdc').textContent(), '100.00 USDC');
  t.is(await page.getByTestId('paid-fiat').textContent(), '100.00 USD');
  await checkScreen(t, page, '11-settled');
  await page.setViewportSize(DESKTOP);
  await checkScreen(t, page, '11-settled-desktop');

  t.deepEqual(errors, [], 'no console errors but the refusals provoked, so nothing refused by the page’s Content-Security-Policy');
});

test.serial('a Venmo account connected through the page: another account refused first, READY, a lapsed connection made again, listed', async (t) => {
  t.timeout(180_000);
  const node = await startEmbeddedNode(t, { LOCAL_MAKERS: false, PAYOUT_FUNDING_POLL_MS: 1_000 });
  const errors: string[] = [];
  const { payout } = await payoutOf(node, 'cashout-page-browser-connect');
  await fund(node, payout);
  const browser = await startBrowser(t);
  const page = await pageOf(t, browser, errors);
  await signedIn(node, page, payout.checkoutUrl);
  await page.getByRole('radio', { name: 'Venmo', exact: true }).check();
  await page.getByLabel('Your Venmo user ID').fill(CUSTOMER_VENMO);
  await page.getByRole('button', { name: 'Continue' }).click();

  // 1. The method waits for its account: connect it (the simulator's sign-in, to the account given) or continue without.
  await page.getByRole('heading', { name: 'Connect your Venmo account' }).waitFor();
  const account = page.getByLabel('Sign in to Venmo as');
  t.is(await account.inputValue(), CUSTOMER_VENMO, 'the sign-in is to the account given');
  await page.getByRole('button', { name: 'Continue without connecting' }).waitFor();
  await checkScreen(t, page, 'connect-1-offered');

  // 2. Signed in to another Venmo account: the checkout refuses its attestation, and the page says whose it wanted.
  await account.fill('2718281828');
  await page.getByRole('button', { name: 'Connect my Venmo account' }).click();
  await page
    .getByRole('alert')
    .filter({
      hasText: `That is not the Venmo account you gave (${CUSTOMER_VENMO}). Sign in to ${CUSTOMER_VENMO} and connect again, or change how you are paid.`,
    })
    .waitFor();
  t.is(await account.getAttribute('aria-invalid'), 'true');
  t.is(await focusedId(page), 'field-account', 'focus moves to the account signed in to');
  t.is(await page.getByTestId('payout-status').textContent(), 'Funded: choose how to be paid', 'nothing changed');
  await checkScreen(t, page, 'connect-2-wrong-account');

  // 3. The account given: connected, READY.
  await account.fill(CUSTOMER_VENMO);
  await page.getByRole('button', { name: 'Connect my Venmo account' }).click();
  await page.getByRole('heading', { name: 'List your payout' }).waitFor();
  await page.getByText(`Venmo, to ${CUSTOMER_VENMO}`).waitFor();
  t.is(await page.getByTestId('payout-status').textContent(), 'Ready to list for buyers');
  t.is(await page.getByRole('button', { name: 'Connect my Venmo account' }).count(), 0, 'just connected: not offered again');
  await checkScreen(t, page, 'connect-3-ready');

  // 4. The connection lapsed (a 422 the test makes: a day is too long to wait): connected again from where the customer confirmed.
  await page.route('**/confirm', (route) =>
    route.fulfill({
      status: 422,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        message: 'Your venmo connection has lapsed',
        responseObject: null,
        statusCode: 422,
        errorCode: 'CASHOUT_CREDENTIAL_INACTIVE',
      }),
    }),
  );
  await page.getByRole('button', { name: 'List my payout' }).click();
  await page.getByRole('heading', { name: 'Connect your Venmo account again' }).waitFor();
  await page.getByRole('alert').filter({ hasText: 'The connection to your account has lapsed.' }).waitFor();
  t.is(await page.getByRole('button', { name: 'Continue without connecting' }).count(), 0, 'READY offers no skipping: changing the method does');
  await page.getByRole('button', { name: 'Change how I am paid' }).waitFor();
  await checkScreen(t, page, 'connect-4-lapsed');
  await page.unroute('**/confirm');
  await page.getByRole('button', { name: 'Connect my Venmo account again' }).click();
  await page.getByRole('heading', { name: 'List your payout' }).waitFor();
  await page.getByRole('button', { name: 'List my payout' }).click();
  await page.getByRole('heading', { name: 'Waiting for a buyer' }).waitFor();
  await checkScreen(t, page, 'connect-5-listed');
  t.deepEqual(errors, []);
});

test.serial('a payout sent to the customer’s own address in USDC on Base: confirmed on the page, SETTLED with the transfer', async (t) => {
  t.timeout(180_000);
  const node = await startEmbeddedNode(t, { LOCAL_MAKERS: false, PAYOUT_FUNDING_POLL_MS: 1_000 });
  const errors: string[] = [];
  const { payout } = await payoutOf(node, 'cashout-page-browser-send');
  await fund(node, payout);
  const browser = await startBrowser(t);
  const page = await pageOf(t, browser, errors);
  await signedIn(node, page, payout.checkoutUrl);

  await page.getByRole('radio', { name: 'Crypto', exact: true }).check();
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  await page.getByLabel('Your address on Base').fill(destination.toLowerCase());
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Send your payout' }).waitFor();
  t.is(await page.getByTestId('destination-address').textContent(), destination, 'the address as the API wrote it back, checksummed');
  t.is(await page.getByTestId('payout-status').textContent(), 'Ready to send to your address');
  await checkScreen(t, page, 'crypto-1-confirm');
  await page.getByRole('button', { name: 'Send to my address' }).click();
  await page.getByRole('heading', { name: 'You have been paid' }).waitFor({ timeout: 90_000 });
  t.is(await page.getByTestId('sent-amount').textContent(), '100.00 USDC');
  t.regex((await page.getByTestId('sent-transaction').textContent()) ?? '', /^0x[0-9a-f]{64}$/);
  t.is(await page.getByTestId('paid-usdc').count(), 0, 'no buyer paid');
  await checkScreen(t, page, 'crypto-2-settled');
  t.deepEqual(errors, []);
});

test.serial(
  'a listing taken back and listed again, paid in part by a checkout buyer, what is left relisted, then the rest sent as USDT on Arbitrum through the provider: SETTLED',
  async (t) => {
    t.timeout(360_000);
    const node = await startEmbeddedNode(t, { LOCAL_MAKERS: false, PAYOUT_FUNDING_POLL_MS: 1_000 });
    const simulator = node.conversions.simulator!;
    const errors: string[] = [];
    const { merchant, payout } = await payoutOf(node, 'cashout-page-browser-rest', WITH_ARBITRUM);
    await fund(node, payout);
    const browser = await startBrowser(t);
    const page = await pageOf(t, browser, errors);
    await signedIn(node, page, payout.checkoutUrl);
    await listOnVenmo(page);

    // 1. Listed, nothing paid: taking it back is offered, sending the rest is not (there is no rest yet).
    t.is(await page.getByRole('button', { name: 'Send the rest to a crypto address' }).count(), 0);
    await page.getByRole('button', { name: 'Take my listing back' }).click();
    // Shown from the answer until the next read at least, a poll's 1.5 s.
    await page.getByRole('heading', { name: 'Taking your listing back' }).waitFor();
    await page.getByRole('heading', { name: 'Choose how to be paid' }).waitFor();
    await page.getByText('Your listing is taken back: the 100.00 USDC is back in your wallet. Choose how to be paid.').waitFor();
    t.true(await page.getByRole('radio', { name: 'Venmo', exact: true }).isChecked(), 'the method kept as saved');
    await checkScreen(t, page, 'rest-1-taken-back');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Continue without connecting' }).click();
    await page.getByRole('button', { name: 'List my payout' }).click();
    await page.getByRole('heading', { name: 'Waiting for a buyer' }).waitFor();

    // 2. A buyer pays 40 USDC of it on the order checkout page: the listing offers both ways out.
    await buyer(
      t,
      node,
      merchant,
      errors,
    )('40', 'rest', async () => {
      await page.getByRole('heading', { name: 'A buyer is paying you' }).waitFor();
    });
    const sendRest = page.getByRole('button', { name: 'Send the rest to a crypto address' });
    await sendRest.waitFor();
    await page.getByRole('button', { name: 'Take my listing back' }).waitFor();
    await page.getByText('Rather not wait for buyers? Have the unpaid 60.00 USDC sent to your own crypto address.').waitFor();
    await checkScreen(t, page, 'rest-2-listing-exits');

    // 2b. The listing still offers buyers up to the whole 100 USDC: listed again for the 60 left, RELISTED on the timeline.
    await page.getByRole('button', { name: 'List what is left again' }).click();
    await page.getByRole('heading', { name: 'Listing what is left again' }).waitFor();
    t.is(await page.getByTestId('payout-status').textContent(), 'What is left is being listed again');
    await checkScreen(t, page, 'rest-2-relisting');
    await page.getByRole('heading', { name: 'Waiting for the next buyer' }).waitFor();
    await page.getByText('What happened so far').click();
    await page.getByText('Listed again for what is left: up to 60.00 USDC a buyer').waitFor();
    t.is(await page.getByRole('button', { name: 'List what is left again' }).count(), 0, 'listed for what is left, there is nothing to list again');
    await checkScreen(t, page, 'rest-2-relisted');
    // Another tab holds no sign-in: it follows the listing and offers signing in for its ways out, and a way back.
    const watcher = await pageOf(t, browser, errors);
    await watcher.goto(payout.checkoutUrl);
    await watcher.getByRole('button', { name: 'Sign in to change it' }).click();
    await watcher.getByRole('heading', { name: 'Sign in to get paid' }).waitFor();
    await watcher.getByRole('button', { name: 'Back to my listing' }).click();
    await watcher.getByRole('heading', { name: 'Waiting for the next buyer' }).waitFor();
    t.is(await watcher.getByRole('button', { name: 'Take my listing back' }).count(), 0);
    await watcher.close();

    // 3. Where the rest goes: Arbitrum, USDT; an address that is not one is refused on the field, in words.
    await sendRest.click();
    await page.getByRole('heading', { name: 'Send the rest to your address' }).waitFor();
    t.is(await focusedId(page), '', 'focus on the heading');
    await page.getByLabel('Network').selectOption({ label: 'Arbitrum' });
    await page.getByLabel('Token').selectOption({ label: 'USDT' });
    const address = page.getByLabel('Your address on Arbitrum');
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    await address.fill(recipient);
    await checkScreen(t, page, 'rest-3-form');
    await address.fill('0x1234');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'That is not an address on Arbitrum. Check it and paste it again.' }).waitFor();
    t.is(await address.getAttribute('aria-invalid'), 'true');
    t.is(await focusedId(page), 'field-address', 'focus on the refused address');
    await checkScreen(t, page, 'rest-3-form-refused');
    await address.fill(recipient);

    // 4. Priced: what leaves the wallet and about what arrives.
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Send the rest' }).waitFor();
    await page
      .getByTestId('you-get')
      .filter({ hasText: /^about [\d.,]+ USDT on Arbitrum$/ })
      .waitFor();
    t.is(await page.getByTestId('usdc-amount').textContent(), '60.00 USDC');
    t.is(await page.getByTestId('destination-address').textContent(), recipient);
    await checkScreen(t, page, 'rest-4-quote');

    // 5. Sent, the provider holding its delivery: the page follows the bridge.
    simulator.hold(true);
    await page.getByRole('button', { name: 'Send to my address' }).click();
    await page.getByRole('heading', { name: 'Your USDT is on its way' }).waitFor();
    await page
      .getByTestId('bridge-status')
      .filter({ hasText: /^The conversion provider has your 60\.00 USDC/ })
      .waitFor();
    t.is(await page.getByTestId('payout-status').textContent(), 'On its way to your address as USDT');
    await checkScreen(t, page, 'rest-5-bridging');

    // 6. Delivered: SETTLED with what buyers paid, what arrived where and both transactions.
    simulator.hold(false);
    await page.getByRole('heading', { name: 'You have been paid' }).waitFor({ timeout: 90_000 });
    t.is(await page.getByTestId('paid-fiat').textContent(), '40.00 USD');
    t.is(await page.getByTestId('sent-amount').textContent(), '60.00 USDC');
    t.regex((await page.getByTestId('received-amount').textContent()) ?? '', /^[\d.,]+ USDT on Arbitrum$/);
    t.regex((await page.getByTestId('delivered-transaction').textContent()) ?? '', /^0x[0-9a-f]{64}$/);
    t.regex((await page.getByTestId('sent-transaction').textContent()) ?? '', /^0x[0-9a-f]{64}$/);
    await checkScreen(t, page, 'rest-6-settled');
    t.deepEqual(errors, []);
  },
);

test.serial('the whole payout as USDT on Arbitrum through the provider: priced, refunded, sent again and SETTLED with the refund’s fee', async (t) => {
  t.timeout(240_000);
  const node = await startEmbeddedNode(t, { LOCAL_MAKERS: false, PAYOUT_FUNDING_POLL_MS: 1_000 });
  const simulator = node.conversions.simulator!;
  const errors: string[] = [];
  const { payout } = await payoutOf(node, 'cashout-page-browser-bridge', WITH_ARBITRUM);
  await fund(node, payout);
  const browser = await startBrowser(t);
  const page = await pageOf(t, browser, errors);
  await signedIn(node, page, payout.checkoutUrl);

  // 1. USDT on Arbitrum: the confirm screen prices it before it is sent, once: the state's reads do not price it again.
  let quotes = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/payout-quote')) quotes += 1;
  });
  await page.getByRole('radio', { name: 'Crypto', exact: true }).check();
  await page.getByLabel('Network').selectOption({ label: 'Arbitrum' });
  await page.getByLabel('Token').selectOption({ label: 'USDT' });
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  await page.getByLabel('Your address on Arbitrum').fill(recipient);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Send your payout' }).waitFor();
  await page
    .getByTestId('you-get')
    .filter({ hasText: /^about [\d.,]+ USDT on Arbitrum$/ })
    .waitFor();
  t.is(await page.getByTestId('usdc-amount').textContent(), '100.00 USDC');
  // The second read is asked for only once the first was drawn: any price that drawing asked for is asked for by then.
  for (const _ of [1, 2]) await page.waitForRequest((request) => request.method() === 'GET' && request.url().includes('/api/v1/cashout-checkout/'));
  t.is(quotes, 1, 'priced once');
  await checkScreen(t, page, 'bridge-1-quote');

  // 2. The provider will refund it, less 0.50 USDC; held, the page shows the bridge on its way.
  simulator.setBridgeFaults({ refund: { feeUsdc: '500000' } });
  simulator.hold(true);
  await page.getByRole('button', { name: 'Send to my address' }).click();
  await page.getByRole('heading', { name: 'Your USDT is on its way' }).waitFor();
  await page
    .getByTestId('bridge-status')
    .filter({ hasText: /^The conversion provider has your 100\.00 USDC/ })
    .waitFor();
  await checkScreen(t, page, 'bridge-2-bridging');

  // 3. Refunded: the confirm screen again, saying what came back, priced for what is left.
  simulator.hold(false);
  await page.getByRole('alert').filter({ hasText: 'The crypto could not be delivered, so your USDC came back to your wallet.' }).waitFor({ timeout: 90_000 });
  t.is(await page.getByTestId('refunded-amount').textContent(), '99.50 USDC of 100.00 USDC');
  await page
    .getByTestId('you-get')
    .filter({ hasText: /^about [\d.,]+ USDT on Arbitrum$/ })
    .waitFor();
  t.is(await page.getByTestId('usdc-amount').textContent(), '99.50 USDC');
  await checkScreen(t, page, 'bridge-3-refunded');

  // 4. Sent again, delivered: SETTLED with what arrived, both transactions and the refund's fee.
  simulator.setBridgeFaults({});
  await page.getByRole('button', { name: 'Try sending again' }).click();
  await page.getByRole('heading', { name: 'You have been paid' }).waitFor({ timeout: 90_000 });
  t.is(await page.getByTestId('sent-amount').textContent(), '99.50 USDC');
  t.regex((await page.getByTestId('received-amount').textContent()) ?? '', /^[\d.,]+ USDT on Arbitrum$/);
  t.regex((await page.getByTestId('delivered-transaction').textContent()) ?? '', /^0x[0-9a-f]{64}$/);
  await page.getByText('Kept by the provider on a refund').waitFor();
  await checkScreen(t, page, 'bridge-4-settled');
  // The same screen at a desktop's width, to look at.
  await page.setViewportSize(DESKTOP);
  await shot(page, 'cashout-bridge-4-settled-desktop');
  await page.setViewportSize(PHONE);
  t.deepEqual(errors, []);
});

test.serial('a link that can never work says so and nothing else; a path that is not a payout id is not found', async (t) => {
  const node = await startEmbeddedNode(t, { LOCAL_MAKERS: false });
  const browser = await startBrowser(t);
  const errors: string[] = [];
  const page = await pageOf(t, browser, errors);
  await page.goto(`${node.url}/cashout/po_000000000000000000000000?token=1.not-the-links-token`);
  await page.getByRole('heading', { name: 'This payout link does not work' }).waitFor();
  t.notRegex((await page.locator('main').textContent()) ?? '', /try again|USDC/i);
  await checkScreen(t, page, '0-dead-link');
  t.deepEqual(
    errors.filter((error) => !/status of 401/.test(error)),
    [],
  );
  const notPayout = await fetch(`${node.url}/cashout/not-a-payout`);
  t.is(notPayout.status, 404);
  t.like(await notPayout.json(), { errorCode: 'NOT_FOUND' });
});
