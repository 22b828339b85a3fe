/**
 * The merchant dashboard page (/dashboard) in a real browser, on a node with no chain (the test
 * gateway): a PRO business's Owner signs in with the code read on the development node's
 * caught-mail page (the page's own link), adds a webhook to a loopback receiver, cancels an order
 * (the receiver hears ORDER_CANCELLED), starts an extend and a recreate on live attempts made
 * directly on the payment actor (test/support/remediation.ts) and follows them until RUNNING (no
 * chain takes them further), is refused a recreate the server judges ineligible and reads why,
 * sends the test event, opens a delivery and redelivers it, reads the team and the audit log, and
 * rotates the API key (shown once; the old key stops working). Screens are saved under
 * test/browser/output/dashboard-*.png at a desktop's 1280 and a phone's 375 pixels. Nothing the
 * page does may be refused by its Content-Security-Policy, nor load anything from elsewhere.
 */
import test from 'ava';
import { placeOrder } from '../support/checkout.js';
import { startTestGateway } from '../support/gateway.js';
import { liveAttempt } from '../support/remediation.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { shot, startBrowser } from './checkout-node.js';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };
const OWNER = 'owner@lumen.example';
/** The refusals this test provokes on purpose, which Chromium logs as failed loads. */
const PROVOKED = /status of (401|422)/;

test('an Owner signs in, cancels an order, follows an extend and a recreate, reads a webhook delivery and rotates the key', async (t) => {
  t.timeout(120_000);
  const gateway = await startTestGateway({ WEBHOOK_ALLOW_PRIVATE: true });
  t.teardown(() => gateway.stop());
  // The browser keeps the session cookie until its Expires by its own clock: the node's starts at the real time.
  await gateway.clock.advance(Math.max(0, Date.now() - gateway.clock.now()));
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const merchant = await gateway.createMerchant({ name: 'Lumen Coffee', tier: 'PRO', evmWalletAddress: '0x1111111111111111111111111111111111111111' });
  t.is((await gateway.admin('POST', `/internal/v1/merchants/${merchant.liveId}/owners`, { email: OWNER })).status, 201);
  const toCancel = await placeOrder(gateway, merchant.liveKey, { requestedUsdcAmount: '12.5' });
  const extendable = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
  const reopenable = await liveAttempt(gateway, merchant, 'CANCELLED');

  const browser = await startBrowser(t);
  const page = await browser.context.newPage();
  page.setDefaultTimeout(20_000);
  await page.setViewportSize(DESKTOP);
  const errors: string[] = [];
  const requested: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !PROVOKED.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => void requested.push(request.url()));
  const at = (hash: string) => page.goto(`${gateway.url}/dashboard${hash}`);

  // Sign in: the code is read where the page's development link leads.
  await at('');
  await page.getByLabel('E-mail').fill(OWNER);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('6-digit code').waitFor();
  await shot(page, 'dashboard-1-sign-in');
  const [mailPage] = await Promise.all([browser.context.waitForEvent('page'), page.getByRole('link', { name: 'Read your code in the caught mail' }).click()]);
  const code = /\b(\d{6})\b/.exec((await mailPage.locator('article h2').first().textContent()) ?? '')?.[1];
  t.truthy(code);
  await mailPage.close();
  await page.getByLabel('6-digit code').fill('000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('That code is not the one we sent').waitFor();
  await page.getByLabel('6-digit code').fill(code!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Orders' }).waitFor();
  t.true((await page.locator('header.frame').textContent())?.includes(`${OWNER} · Owner`));
  t.is(await page.locator('table.list tbody tr').count(), 3);
  await shot(page, 'dashboard-2-orders');

  // A webhook to the loopback receiver, added on the page.
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByLabel('URL').fill(`${receiver.url}/hooks`);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByText('Its signing secret, shown this once').waitFor();
  await page.getByRole('button', { name: 'Done' }).click();

  // Cancel an order, confirmed first.
  await at('#/orders');
  await page.getByRole('link', { name: toCancel.id }).click();
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await page.getByRole('button', { name: 'Yes, cancel the order' }).click();
  await page.locator('section.panel .badge', { hasText: 'CANCELLED' }).waitFor();
  t.is((await gateway.request('GET', `/api/v1/orders/${toCancel.id}`)).body.responseObject.order.status, 'CANCELLED');
  await receiver.until(() => receiver.delivered().some((event) => event.type === 'ORDER_CANCELLED'), 10_000, 'ORDER_CANCELLED');

  // Extend the attempt awaiting payment: accepted, then followed to RUNNING on this chainless node.
  await at(`#/orders/${extendable.order.id}`);
  await page.getByText('Looks eligible.').first().waitFor();
  const extendCard = page.locator('article.attempt', { hasText: extendable.paymentId });
  // Recreate is not for an attempt awaiting payment: the server says why, in the page's words.
  await extendCard.getByRole('button', { name: 'Recreate' }).click();
  await extendCard.getByText('Refused (PAYMENT_STATUS_NOT_ELIGIBLE)').waitFor();
  await extendCard.getByRole('button', { name: 'Extend 24 hours' }).click();
  await extendCard.locator('.tracked .badge', { hasText: 'RUNNING' }).waitFor();
  await shot(page, 'dashboard-3-extend-running');

  await at(`#/orders/${reopenable.order.id}`);
  const reopenCard = page.locator('article.attempt', { hasText: reopenable.paymentId });
  await reopenCard.getByRole('button', { name: 'Recreate' }).click();
  await reopenCard.locator('.tracked .badge', { hasText: 'RUNNING' }).waitFor();
  const actions = await gateway.admin('GET', '/internal/v1/actions?status=RUNNING');
  t.deepEqual(actions.body.responseObject.actions.map((action: { actionName: string }) => action.actionName).sort(), ['EXTEND', 'RECREATE']);
  await page.setViewportSize(PHONE);
  await shot(page, 'dashboard-4-recreate-running-phone');
  await page.setViewportSize(DESKTOP);

  // The test event, then the ORDER_CANCELLED delivery opened and sent again.
  await at('#/webhooks');
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.getByText('Delivered: the endpoint answered 200.').waitFor();
  await page.getByRole('link', { name: 'Deliveries' }).click();
  const cancelled = page.locator('table.list tbody tr', { hasText: 'ORDER_CANCELLED' });
  await cancelled.getByRole('button', { name: 'Open' }).click();
  await page.locator('pre.payload', { hasText: toCancel.id }).waitFor();
  const before = receiver.requests.length;
  await cancelled.getByRole('button', { name: 'Redeliver' }).click();
  await page.getByText('(redelivery)').waitFor();
  t.is(receiver.requests.length, before + 1);
  await shot(page, 'dashboard-5-delivery');
  await page.setViewportSize(PHONE);
  await shot(page, 'dashboard-6-delivery-phone');
  await page.setViewportSize(DESKTOP);

  // The team, the audit log (the cancel and the actions in it), and the key rotated once.
  await page.getByRole('link', { name: 'Team' }).click();
  await page.getByRole('cell', { name: OWNER }).waitFor();
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByText('cancelMerchantOrder').first().waitFor();
  await shot(page, 'dashboard-7-audit');
  await page.getByRole('link', { name: 'API key' }).click();
  await page.getByText(`pk_live_…${merchant.liveKey.slice(-4)}`).waitFor();
  await page.getByRole('button', { name: 'Rotate key' }).click();
  await page.getByRole('button', { name: 'Yes, make a new key' }).click();
  const newKey = (await page.locator('.new-key .copyable .mono').textContent()) ?? '';
  t.regex(newKey, /^pk_live_/);
  t.is((await gateway.request('GET', '/api/v1/merchants/me', { key: merchant.liveKey })).status, 401);
  t.is((await gateway.request('GET', '/api/v1/merchants/me', { key: newKey })).status, 200);
  await shot(page, 'dashboard-8-api-key');
  await page.setViewportSize(PHONE);
  await at('#/orders');
  await page.getByRole('heading', { name: 'Orders' }).waitFor();
  await shot(page, 'dashboard-9-orders-phone');

  // The sandbox: its own (empty) orders, and back.
  await page.getByRole('button', { name: 'Switch to Sandbox' }).click();
  await page.getByText('No orders match.').waitFor();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByText('You are signed out.').waitFor();

  t.deepEqual(errors, []);
  t.deepEqual(
    requested.filter((url) => !url.startsWith(gateway.url)),
    [],
  );
});
