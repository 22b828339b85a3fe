/**
 * The merchant dashboard page (/dashboard) in a real browser. First on a node with its local
 * chain, indexer and attestation service, its test clock kept at the wall clock's time: a PRO
 * business's Owner signs in with the code read on the development node's caught-mail page (the
 * page's own link), adds a webhook to a loopback receiver, cancels an order (the receiver hears
 * ORDER_CANCELLED), starts an extend and a recreate on live attempts signalled on the maker's
 * deposit (test/support/remediation-node.ts) and follows both to SUCCEEDED on chain, is refused a recreate the server judges ineligible and reads why,
 * sends the test event, opens a delivery and redelivers it, reads the team and the audit log, and
 * rotates the API key (shown once; the old key stops working). And the team: the Owner invites a
 * cashier, who signs in in a browser of their own, may read but not act (the server's refusal in
 * words, no cancel, no audit log), and whose session ends when the Owner removes them. And passkeys, through
 * Chromium's virtual authenticator (CDP WebAuthn): the Owner adds one, signs out, signs in with it, and
 * removes it; it signs in no more. Screens are saved under
 * test/browser/output/dashboard-*.png at a desktop's 1280 and a phone's 375 pixels. Nothing the
 * page does may be refused by its Content-Security-Policy, nor load anything from elsewhere.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import type { TestGateway } from '../support/gateway.js';
import { placeOrder } from '../support/checkout.js';
import { startTestGateway } from '../support/gateway.js';
import { liveAttempt, paymentIdFor } from '../support/remediation.js';
import { paymentOnce, signalledAttempt } from '../support/remediation-node.js';
import { venmoDeposit } from '../support/payment-flow.js';
import type { TestClock } from '../../actors/index.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { shot, startBrowser } from './checkout-node.js';
import { USDC, payoutWorld } from '../gateway/payouts/payout-world.js';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };
const OWNER = 'owner@lumen.example';
/** The refusals this test provokes on purpose, which Chromium logs as failed loads. */
const PROVOKED = /status of (401|403|422)/;

/** The newest sign-in code the node's mail catcher took for `email` (what /dev/mail shows); the node mails without waiting, so it may take a moment. */
async function codeFor(gateway: TestGateway, email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const mailed = gateway.node.mail.inbox?.messages().find((message) => message.to.includes(email) && /sign-in code/.test(message.subject));
    const code = /^(\d{6})/.exec(mailed?.subject ?? '')?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no code was mailed to ${email}`);
}

/** Signs `email` in on the dashboard page, with the code the node mailed. */
async function signInOnPage(gateway: TestGateway, page: Page, email: string, base = gateway.url): Promise<void> {
  await page.goto(`${base}/dashboard`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('6-digit code').fill(await codeFor(gateway, email));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Orders' }).waitFor();
}

/**
 * Keeps a test clock at the wall clock's pace until stopped: the page polls on real time, and the
 * node's relayer, timers and indexer follow its own clock.
 */
function followWallClock(clock: TestClock): () => Promise<void> {
  let running = true;
  const loop = (async () => {
    let then = Date.now();
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      const now = Date.now();
      await clock.advance(now - then);
      then = now;
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

/** A page that records every console error but the refusals the test provokes. */
async function watched(browser: Awaited<ReturnType<typeof startBrowser>>, errors: string[]): Promise<Page> {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('console', (message) => {
    if (message.type() === 'error' && !PROVOKED.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return page;
}

test('an Owner signs in, cancels an order, follows an extend and a recreate, reads a webhook delivery and rotates the key', async (t) => {
  t.timeout(120_000);
  const gateway = await startTestGateway({ WEBHOOK_ALLOW_PRIVATE: true, INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20 });
  t.teardown(() => gateway.stop());
  // The browser keeps the session cookie until its Expires by its own clock: the node's starts at the real time, and keeps to it.
  await gateway.clock.advance(Math.max(0, Date.now() - gateway.clock.now()));
  const depositId = await venmoDeposit(gateway.node.chain!.localChain!);
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const merchant = await gateway.createMerchant({ name: 'Lumen Coffee', tier: 'PRO', evmWalletAddress: '0x1111111111111111111111111111111111111111' });
  t.is((await gateway.admin('POST', `/internal/v1/merchants/${merchant.liveId}/owners`, { email: OWNER })).status, 201);
  const toCancel = await placeOrder(gateway, merchant.liveKey, { requestedUsdcAmount: '12.5' });
  const live = async (label: string) => {
    const signalled = await signalledAttempt(gateway, merchant.liveKey, depositId, paymentIdFor(label));
    return { order: signalled.placed, paymentId: signalled.input.id };
  };
  const extendable = await live('extend');
  const reopenable = await live('recreate');
  await gateway.node.system.askAt(
    { kind: 'payment', id: reopenable.paymentId },
    { type: 'CANCEL', reason: 'CUSTOMER', at: new Date(gateway.clock.now()).toISOString() },
  );
  await paymentOnce(gateway, reopenable.paymentId, (view) => view.status === 'CANCELLED', 'the cancel');
  const stopClock = followWallClock(gateway.clock);
  t.teardown(stopClock);

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

  // Extend the attempt awaiting payment: accepted, then followed until its extension is mined and read.
  await at(`#/orders/${extendable.order.id}`);
  await page.getByText('Looks eligible.').first().waitFor();
  const extendCard = page.locator('article.attempt', { hasText: extendable.paymentId });
  // Recreate is not for an attempt awaiting payment: the server says why, in the page's words.
  await extendCard.getByRole('button', { name: 'Recreate' }).click();
  await extendCard.getByText('Refused (PAYMENT_STATUS_NOT_ELIGIBLE)').waitFor();
  await extendCard.getByRole('button', { name: 'Extend 24 hours' }).click();
  await extendCard.locator('.tracked .badge', { hasText: 'SUCCEEDED' }).waitFor();
  await shot(page, 'dashboard-3-extend-succeeded');

  await at(`#/orders/${reopenable.order.id}`);
  const reopenCard = page.locator('article.attempt', { hasText: reopenable.paymentId });
  await reopenCard.getByRole('button', { name: 'Recreate' }).click();
  await reopenCard.locator('.tracked .badge', { hasText: 'SUCCEEDED' }).waitFor();
  const actions = await gateway.admin('GET', '/internal/v1/actions?status=SUCCEEDED');
  t.deepEqual(actions.body.responseObject.actions.map((action: { actionName: string }) => action.actionName).sort(), ['EXTEND', 'RECREATE']);
  await page.setViewportSize(PHONE);
  await shot(page, 'dashboard-4-recreate-succeeded-phone');
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

test('an Owner invites a cashier, who reads but may not act, and whose session ends when removed', async (t) => {
  t.timeout(120_000);
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  await gateway.clock.advance(Math.max(0, Date.now() - gateway.clock.now()));
  const merchant = await gateway.createMerchant({ name: 'Lumen Coffee', tier: 'PRO', evmWalletAddress: '0x1111111111111111111111111111111111111111' });
  await gateway.admin('POST', `/internal/v1/merchants/${merchant.liveId}/owners`, { email: OWNER });
  const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
  const errors: string[] = [];
  const owner = await watched(await startBrowser(t), errors);
  await owner.setViewportSize(DESKTOP);
  await signInOnPage(gateway, owner, OWNER);

  await owner.getByRole('link', { name: 'Team' }).click();
  await owner.getByLabel('E-mail').fill('cashier@lumen.example');
  await owner.getByLabel('Role', { exact: true }).selectOption('CASHIER');
  await owner.getByRole('button', { name: 'Send invitation' }).click();
  const row = owner.locator('table.list tbody tr', { hasText: 'cashier@lumen.example' });
  await row.locator('.badge', { hasText: 'INVITED' }).waitFor();
  t.is(await row.getByLabel('Role of cashier@lumen.example').inputValue(), 'CASHIER');
  await shot(owner, 'dashboard-10-team');

  const cashier = await watched(await startBrowser(t), errors);
  await cashier.setViewportSize(PHONE);
  await signInOnPage(gateway, cashier, 'cashier@lumen.example');
  t.true((await cashier.locator('header.frame').textContent())?.includes('cashier@lumen.example · Cashier'));
  t.is(await cashier.getByRole('link', { name: 'Audit log' }).count(), 0);
  await cashier.goto(`${gateway.url}/dashboard#/orders/${attempt.order.id}`);
  await cashier.getByText('Only an Owner or a Manager may cancel an order.').waitFor();
  t.is(await cashier.getByRole('button', { name: 'Cancel order' }).count(), 0);
  const card = cashier.locator('article.attempt');
  await card.getByRole('button', { name: 'Extend 24 hours' }).click();
  await card.getByText('Only an Owner or a Manager may do this.').waitFor();
  await shot(cashier, 'dashboard-11-cashier-refused-phone');
  await cashier.getByRole('link', { name: 'API key' }).click();
  await cashier.getByText('Only an Owner may rotate the key.').waitFor();

  // The Owner makes them a manager: the role applies to their open session at once.
  await row.getByLabel('Role of cashier@lumen.example').selectOption('MANAGER');
  await owner.locator('table.list tbody tr', { hasText: 'cashier@lumen.example' }).locator('.badge', { hasText: 'ACTIVE' }).waitFor();
  await cashier.goto(`${gateway.url}/dashboard#/webhooks`);
  await cashier.getByRole('button', { name: 'Add endpoint' }).waitFor();

  const member = owner.locator('table.list tbody tr', { hasText: 'cashier@lumen.example' });
  await member.getByRole('button', { name: 'Remove' }).click();
  await member.getByRole('button', { name: 'Yes, remove' }).click();
  await owner.locator('table.list tbody tr', { hasText: 'cashier@lumen.example' }).waitFor({ state: 'detached' });
  await cashier.getByRole('link', { name: 'Orders' }).click();
  await cashier.getByText('Please sign in.').waitFor();
  t.deepEqual(errors, []);
});

test('an Owner adds a passkey through the browser’s authenticator, signs in with it, and removes it', async (t) => {
  t.timeout(120_000);
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  await gateway.clock.advance(Math.max(0, Date.now() - gateway.clock.now()));
  const merchant = await gateway.createMerchant({ name: 'Lumen Coffee', tier: 'PRO', evmWalletAddress: '0x1111111111111111111111111111111111111111' });
  await gateway.admin('POST', `/internal/v1/merchants/${merchant.liveId}/owners`, { email: OWNER });
  // A passkey's relying party is a host name, never an address: the node is the dashboard at localhost.
  const base = gateway.url.replace('://127.0.0.1:', '://localhost:');
  const errors: string[] = [];
  const browser = await startBrowser(t);
  const page = await watched(browser, errors);
  await page.setViewportSize(DESKTOP);
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await signInOnPage(gateway, page, OWNER, base);

  await page.getByRole('link', { name: 'Passkeys' }).click();
  await page.getByText('No passkey yet').waitFor();
  await page.getByLabel('Name (optional)').fill('Work laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const row = page.locator('table.list tbody tr', { hasText: 'Work laptop' });
  await row.waitFor();
  t.true((await row.textContent())?.includes('Never'), 'not used yet');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  t.is(credentials.length, 1, 'the authenticator holds one passkey');
  t.true(credentials[0]!.isResidentCredential, 'a discoverable one: sign-in names nobody');
  await shot(page, 'dashboard-12-passkey-added');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
  await shot(page, 'dashboard-13-passkey-sign-in');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  // Signed in where the page was: the passkeys screen, whose last use is now.
  await page.getByRole('heading', { name: 'Passkeys' }).waitFor();
  t.true((await page.locator('header.frame').textContent())?.includes(`${OWNER} · Owner`));
  await page.locator('table.list tbody tr', { hasText: 'Work laptop' }).waitFor();
  t.false((await page.locator('table.list tbody tr', { hasText: 'Work laptop' }).textContent())?.includes('Never'), 'its last use is shown');
  await page.setViewportSize(PHONE);
  await shot(page, 'dashboard-14-passkeys-phone');
  await page.setViewportSize(DESKTOP);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByText('signInDashboardWithPasskey').first().waitFor();

  await page.getByRole('link', { name: 'Passkeys' }).click();
  const kept = page.locator('table.list tbody tr', { hasText: 'Work laptop' });
  await kept.getByRole('button', { name: 'Remove' }).click();
  await kept.getByRole('button', { name: 'Yes, remove' }).click();
  await page.getByText('No passkey yet').waitFor();
  await page.getByRole('button', { name: 'Sign out' }).click();
  // The authenticator still holds it, but the node no longer knows it: refused, in words.
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByText('That passkey is not registered to anyone on a team.').waitFor();
  await shot(page, 'dashboard-15-passkey-removed-refused');
  t.deepEqual(errors, []);
});

test('an Owner opens a payout: its funding, its timeline and its funding issues', async (t) => {
  t.timeout(120_000);
  const world = await payoutWorld(t);
  const { gateway } = world;
  await gateway.clock.advance(Math.max(0, Date.now() - gateway.clock.now()));
  await gateway.admin('POST', `/internal/v1/merchants/${world.merchant.liveId}/owners`, { email: OWNER });
  const made = await world.created();
  // 105 USDC arrives for a 100 USDC payout (an overpayment), then 29 more once it is funded (late funds).
  world.funding.deliver(world.funding.send(110n * USDC, world.iso()), 105n * USDC);
  await world.activity(made.payoutId);
  world.funding.deliver(world.funding.send(30n * USDC, world.iso()), 29n * USDC);
  await world.activity(made.payoutId);

  const errors: string[] = [];
  const page = await watched(await startBrowser(t), errors);
  await page.setViewportSize(DESKTOP);
  await signInOnPage(gateway, page, OWNER);
  await page.getByRole('link', { name: 'Payouts' }).click();
  await page.getByRole('link', { name: made.payoutId }).click();
  await page.getByRole('heading', { name: 'Funding issues' }).waitFor();
  const issues = page.getByRole('table', { name: 'Funding issues' });
  await issues.getByRole('cell', { name: '4.00 USDC', exact: true }).waitFor();
  await issues.getByRole('cell', { name: '29.00 USDC', exact: true }).waitFor();
  await page.getByText('Late funds: 29.00 USDC').waitFor();
  t.true((await page.locator('dl.facts').textContent())?.includes('105.00 USDC'), 'what arrived');
  await shot(page, 'dashboard-16-payout-timeline');
  await page.setViewportSize(PHONE);
  await shot(page, 'dashboard-17-payout-timeline-phone');
  t.deepEqual(errors, []);
});
