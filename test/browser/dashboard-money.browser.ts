/**
 * The dashboard's money screens in a real browser, in the sandbox: an Owner resizes a FIXED order
 * still owed (refused first at the amount it has, the reason in words; then the new amount shown),
 * and pays two simulated disputes by transaction hash (the second, naming the first's transaction,
 * refused in words, then paid with its own); each row then reads PAID. Screens are saved under
 * test/browser/output/dashboard-money-*.png. Nothing may be refused by the page's Content-Security-Policy.
 */
import test from 'ava';
import { answerOf, hostedRead, placeOrder } from '../support/checkout.js';
import type { TestGateway } from '../support/gateway.js';
import { startTestGateway } from '../support/gateway.js';
import { shot, startBrowser } from './checkout-node.js';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };
const OWNER = 'owner@lumen.example';
/** The refusals this test provokes on purpose, which Chromium logs as failed loads. */
const PROVOKED = /status of (401|409)/;
const FIRST_TX = `0x${'ab'.repeat(32)}`;
const SECOND_TX = `0x${'cd'.repeat(32)}`;

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

/** A settled sandbox payment, and the dispute simulated over it. */
async function sandboxDispute(gateway: TestGateway, key: string): Promise<{ id: string; disputeId: string }> {
  const { payment } = answerOf(await gateway.request('POST', '/api/v1/sandbox/test-order', { key, body: {} }), 201, 'sandbox test order');
  return answerOf(await gateway.request('POST', '/api/v1/merchants/me/disputes/simulate', { key, body: { paymentId: payment.id } }), 201, 'simulated dispute');
}

test('an Owner resizes a sandbox order and pays sandbox disputes by transaction hash', async (t) => {
  t.timeout(120_000);
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  await gateway.clock.advance(Math.max(0, Date.now() - gateway.clock.now()));
  const merchant = await gateway.createMerchant({ name: 'Lumen Coffee', tier: 'PRO', evmWalletAddress: '0x1111111111111111111111111111111111111111' });
  t.is((await gateway.admin('POST', `/internal/v1/merchants/${merchant.liveId}/owners`, { email: OWNER })).status, 201);
  const order = await placeOrder(gateway, merchant.sandboxKey, { requestedUsdcAmount: '20' });
  const first = await sandboxDispute(gateway, merchant.sandboxKey);
  const second = await sandboxDispute(gateway, merchant.sandboxKey);

  const browser = await startBrowser(t);
  const page = await browser.context.newPage();
  page.setDefaultTimeout(20_000);
  await page.setViewportSize(DESKTOP);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !PROVOKED.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const at = (hash: string) => page.goto(`${gateway.url}/dashboard${hash}`);

  await at('');
  await page.getByLabel('E-mail').fill(OWNER);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('6-digit code').fill(await codeFor(gateway, OWNER));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Orders' }).waitFor();
  await page.getByRole('button', { name: 'Switch to Sandbox' }).click();
  await page.locator('table.list tbody tr', { hasText: order.id }).waitFor();

  // Resize: the amount it has is refused with the reason in words, then a new one taken and shown.
  await at(`#/orders/${order.id}`);
  await page.getByLabel('New amount (USDC)').fill('20');
  await page.getByRole('button', { name: 'Resize' }).click();
  await page.getByText('Not resized (SAME_AMOUNT): The order is at that amount already.').waitFor();
  await shot(page, 'dashboard-money-1-resize-refused');
  await page.getByLabel('New amount (USDC)').fill('35.5');
  await page.getByRole('button', { name: 'Resize' }).click();
  await page.getByText('Resized from 20 to 35.5 USDC.').waitFor();
  const facts = page.locator('section.panel dl.facts');
  t.true((await facts.textContent())?.includes('35.5 USDC'));
  t.like((await hostedRead(gateway, order.id)).order, { requestedUsdcAmount: '35.5', remainingUsdcAmount: '35.5' });
  await shot(page, 'dashboard-money-2-resized');

  // Disputes: each OPEN one says what to send, where and by when; paying records the hash.
  await page.getByRole('link', { name: 'Disputes' }).click();
  const firstForm = page.locator(`form[aria-label="Dispute ${first.disputeId}"]`);
  await firstForm.waitFor();
  t.regex((await firstForm.textContent()) ?? '', /USDC on Base.*0x[0-9a-fA-F]{40}/);
  await shot(page, 'dashboard-money-3-disputes-open');
  await firstForm.getByLabel('Transaction hash').fill(FIRST_TX);
  await firstForm.getByRole('button', { name: 'Record payment' }).click();
  await firstForm.waitFor({ state: 'detached' });
  await page.locator('table.list tbody tr', { hasText: first.disputeId }).locator('.badge', { hasText: 'PAID' }).waitFor();

  const secondForm = page.locator(`form[aria-label="Dispute ${second.disputeId}"]`);
  await secondForm.getByLabel('Transaction hash').fill(FIRST_TX);
  await secondForm.getByRole('button', { name: 'Record payment' }).click();
  await secondForm.getByText('That transaction already paid another dispute').waitFor();
  await page.setViewportSize(PHONE);
  await shot(page, 'dashboard-money-4-dispute-refused-phone');
  await page.setViewportSize(DESKTOP);
  await secondForm.getByLabel('Transaction hash').fill(SECOND_TX);
  await secondForm.getByRole('button', { name: 'Record payment' }).click();
  await page.locator('table.list tbody tr', { hasText: second.disputeId }).locator('.badge', { hasText: 'PAID' }).waitFor();
  t.is(await page.locator('form.dispute-payment').count(), 0);
  const paid = answerOf(await gateway.request('GET', `/api/v1/merchants/me/disputes/${second.id}`, { key: merchant.sandboxKey }), 200, 'dispute read');
  t.like(paid, { status: 'PAID', paidTxHash: SECOND_TX });
  await shot(page, 'dashboard-money-5-disputes-paid');

  t.deepEqual(errors, []);
});
