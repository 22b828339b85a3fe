/**
 * The development node's landing page in a real browser: `/` links the reference and the
 * engineers' page, and "Try a checkout" makes a demo order for the demo merchant and lands
 * on its checkout page, priced on the seeded makers of the node's local chain, with nothing refused by either page's Content-Security-Policy (a
 * console error in Chromium) and nothing loaded from another origin. Screenshots of both
 * pages go to test/browser/output/.
 */
import test from 'ava';
import { openDemoMerchant } from '../../deploy/demo-merchant.js';
import { MerchantAdmin } from '../../gateway/merchants/merchant-admin.js';
import { OUTPUT, startBrowser, startEmbeddedNode } from './checkout-node.js';
import { watchedPage } from './chromium.js';

test('“Try a checkout” on the landing page opens the checkout of a new demo order', async (t) => {
  const node = await startEmbeddedNode(t);
  await openDemoMerchant(new MerchantAdmin(node.system, () => new Date().toISOString()));
  const browser = await startBrowser(t);
  const { page, requested, errors } = await watchedPage(browser);

  await page.goto(`${node.url}/`);
  await page.getByRole('heading', { name: 'Peer platform' }).waitFor();
  t.is(await page.getByRole('link', { name: 'The API reference' }).getAttribute('href'), '/docs');
  t.is(await page.getByRole('link', { name: 'The engineers’ page' }).getAttribute('href'), '/internal/engineers');
  await page.screenshot({ path: new URL('landing-1-page.png', OUTPUT).pathname, fullPage: true });

  await page.getByRole('button', { name: 'Try a checkout' }).click();
  await page.waitForURL(/\/\?order=ord_[0-9A-Za-z]{24}&token=/);
  await page.getByRole('heading', { name: 'Pay 25.00 USD' }).waitFor();
  await page.getByText('Demo merchant').first().waitFor();
  await page.getByRole('radio', { name: /Venmo/ }).first().waitFor();
  await page.screenshot({ path: new URL('landing-2-checkout.png', OUTPUT).pathname, fullPage: true });

  const orderId = new URL(page.url()).searchParams.get('order')!;
  const order = await node.system.documents('order').findOne({ _id: orderId });
  t.truthy(order, 'the order the page opened exists');
  t.deepEqual(errors, []);
  t.deepEqual(
    requested.filter((url) => !url.startsWith(node.url) && !url.startsWith('data:')),
    [],
  );
});
