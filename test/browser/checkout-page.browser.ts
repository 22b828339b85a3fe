/**
 * The hosted checkout page in a real browser, on the node `npm start` runs (the embedded
 * default: local chain with its seeded makers, the attestation service and the
 * payment-platform simulator, the real clock). The checkout links come from the published
 * Peer SDK (@zkp2p/pay-sdk) with its default options. Four purchases end to end:
 * - a fixed fiat order paid on Venmo: quote, intent signalled, the payment sent in the
 *   simulator, the proof sealed in the browser and verified, USDC delivered, Paid, and
 *   the redirect to successUrl;
 * - an open-amount order: the amount picked from the presets with the keyboard, then paid;
 * - a sandbox order: simulated;
 * - a crypto order: the local conversion provider's deposit address, paid from its test
 *   wallet on the local chain, converted and delivered.
 * Screenshots of each step go to test/browser/output/. Nothing the page does may be
 * refused by its Content-Security-Policy (a console error in Chromium).
 */
import test from 'ava';
import { createCheckout, getCheckoutUrl } from '@zkp2p/pay-sdk';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { PlatformNode } from '../../deploy/node.js';
import { mockUSDCAbi } from '../../indexer/chain/index.js';
import { CRYPTO_RAIL, openPage, setUpCheckout, shot } from './checkout-node.js';

async function balanceOf(node: PlatformNode, address: `0x${string}`): Promise<bigint> {
  const local = node.chain!.localChain!;
  return local.publicClient.readContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [address] });
}

/** From the payment step on: send in the simulator, prove, and wait for Paid. */
async function payLive(page: Page, name: string): Promise<void> {
  const send = page.getByRole('button', { name: /in the simulator$/ });
  await send.waitFor();
  await shot(page, `${name}-2-payment`);
  await send.click();
  await page.getByRole('status').filter({ hasText: 'Sent in the simulator' }).waitFor();
  await page.getByRole('button', { name: 'I’ve paid' }).click();
  await page.getByRole('heading', { name: 'Paid' }).waitFor({ timeout: 60_000 });
  await shot(page, `${name}-3-paid`);
}

test.serial(
  'checkout pages: a fixed fiat order and an open amount paid live through the simulator, a sandbox order simulated, a crypto order paid from the test wallet',
  async (t) => {
    const setup = await setUpCheckout(t);
    const { node } = setup;

    // 1. A fixed fiat price, through the SDK's link, paid on the cheapest Venmo maker.
    const destination = privateKeyToAccount(generatePrivateKey()).address;
    const successUrl = `${node.url}/docs?paid=fixed`;
    const fixed = await createCheckout(
      { requestedFiatAmount: '25.00', requestedFiatCurrency: 'USD', destinationAddress: destination, enabledRails: ['venmo', 'cashapp', 'zelle'], successUrl },
      { apiBaseUrl: node.url, apiKey: setup.liveKey },
    );
    t.true(fixed.checkoutUrl.startsWith(`${node.url}/?order=${fixed.order.id}&token=`), fixed.checkoutUrl);
    const page = await openPage(setup, t, fixed.checkoutUrl);
    await page.getByRole('heading', { name: 'Pay 25.00 USD' }).waitFor();
    await page.getByText('Lumen Coffee').waitFor();
    const venmo = page.getByRole('radio', { name: /Venmo/ });
    await venmo.waitFor();
    t.true(await venmo.isChecked(), 'the cheapest rail is picked first');
    await shot(page, 'fixed-1-rails');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Pay with Venmo' }).waitFor();
    // The cheapest seeded Venmo maker prices 1.00 USD per USDC: the customer sends the price itself.
    t.is(await page.getByTestId('pay-amount').textContent(), '25.00 USD');
    t.is(
      await page.getByTestId('pay-to').textContent(),
      node.seededMakers.find((maker) => maker.platform === 'venmo' && maker.conversionRate === 10n ** 18n)!.payeeId,
    );
    await page.getByText(/^Time left to pay: (59:\d\d|1 h 0 min)$/).waitFor();
    await payLive(page, 'fixed');
    await page.waitForURL(successUrl);
    // 25 USD at 1.00 is 25 USDC owed; the merchant pays the fees, so less than 25 arrives, and more than 24.
    const delivered = await balanceOf(node, destination);
    t.true(delivered > 24_000_000n && delivered < 25_000_000n, `delivered ${delivered}`);

    // 2. An open amount, its preset picked with the keyboard alone.
    const openDestination = privateKeyToAccount(generatePrivateKey()).address;
    const openOrder = await fetch(`${node.url}/api/v1/orders`, {
      method: 'POST',
      headers: { 'x-api-key': setup.liveKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        openAmount: { currency: 'USD', minAmount: '5', maxAmount: '200', presets: ['10', '20', '50'] },
        destinationAddress: openDestination,
        enabledRails: ['venmo'],
      }),
    }).then((response) => response.json() as Promise<{ responseObject: { order: { id: string }; orderToken: string } }>);
    const openPageView = await openPage(
      setup,
      t,
      getCheckoutUrl(openOrder.responseObject.order.id, openOrder.responseObject.orderToken, { apiBaseUrl: node.url }),
    );
    await openPageView.getByRole('heading', { name: 'How much would you like to pay?' }).waitFor();
    await openPageView.getByText('Between 5.00 and 200.00 USD.').waitFor();
    await shot(openPageView, 'open-1-amount');
    const amount = openPageView.getByLabel('Amount (USD)');
    await amount.fill('500');
    await amount.press('Enter');
    await openPageView.getByRole('alert').filter({ hasText: 'between 5.00 and 200.00' }).waitFor();
    await openPageView.getByRole('button', { name: '20.00 USD' }).focus();
    await openPageView.keyboard.press('Enter');
    await openPageView.getByRole('heading', { name: /^Pay 20(\.0+)? USDC?$/ }).waitFor();
    await openPageView.keyboard.press('Tab');
    await openPageView.getByRole('button', { name: 'Continue' }).click();
    await openPageView.getByRole('heading', { name: 'Pay with Venmo' }).waitFor();
    await payLive(openPageView, 'open');
    t.true((await balanceOf(node, openDestination)) > 19_000_000n);

    // 3. A sandbox order: nothing on chain, a simulated settlement.
    const sandbox = await createCheckout({ requestedUsdcAmount: '10', destinationAddress: destination }, { apiBaseUrl: node.url, apiKey: setup.sandboxKey });
    const sandboxPage = await openPage(setup, t, sandbox.checkoutUrl);
    await sandboxPage.getByText('Sandbox: no real money moves').waitFor();
    await sandboxPage.getByRole('button', { name: 'Continue' }).click();
    await sandboxPage.getByRole('button', { name: 'Simulate payment' }).waitFor();
    await shot(sandboxPage, 'sandbox-1-payment');
    await sandboxPage.getByRole('button', { name: 'Simulate payment' }).click();
    await sandboxPage.getByRole('heading', { name: 'Paid' }).waitFor();
    await shot(sandboxPage, 'sandbox-2-paid');

    // 4. A crypto rail: the local conversion provider's deposit address, paid from the local test wallet.
    const cryptoDestination = privateKeyToAccount(generatePrivateKey()).address;
    const crypto = await createCheckout(
      { requestedUsdcAmount: '15', destinationAddress: cryptoDestination, enabledRails: [CRYPTO_RAIL] },
      { apiBaseUrl: node.url, apiKey: setup.liveKey },
    );
    const cryptoPage = await openPage(setup, t, crypto.checkoutUrl);
    await cryptoPage.getByRole('radio', { name: /Crypto on Arbitrum/ }).waitFor();
    await shot(cryptoPage, 'crypto-1-rails');
    await cryptoPage.getByRole('button', { name: 'Continue' }).click();
    await cryptoPage.getByRole('heading', { name: 'Pay with Crypto on Arbitrum' }).waitFor();
    // 15 USDC owed, plus the provider's 0.1%.
    t.is(await cryptoPage.getByTestId('pay-amount').textContent(), '15.015 USDC');
    t.regex((await cryptoPage.getByTestId('pay-to').textContent()) ?? '', /^0x[0-9a-fA-F]{40}$/);
    const sendCrypto = cryptoPage.getByRole('button', { name: 'Send 15.015 USDC from the local test wallet' });
    await sendCrypto.waitFor();
    await shot(cryptoPage, 'crypto-2-payment');
    await sendCrypto.click();
    await cryptoPage.getByRole('heading', { name: 'Paid' }).waitFor({ timeout: 60_000 });
    await shot(cryptoPage, 'crypto-3-paid');
    // The merchant pays the platform's 0.5%: 14.925 USDC arrive.
    t.is(await balanceOf(node, cryptoDestination), 14_925_000n);

    // A phone-sized screen reads the same page in one column.
    await sandboxPage.setViewportSize({ width: 390, height: 844 });
    await shot(sandboxPage, 'sandbox-3-phone');

    const hosted = (await (await fetch(`${node.url}/api/v1/orders/${fixed.order.id}`)).json()) as {
      responseObject: { order: { status: string }; currentPayment: { status: string } };
    };
    t.is(hosted.responseObject.order.status, 'FULFILLED');
    t.is(hosted.responseObject.currentPayment.status, 'SETTLED');
    t.deepEqual(setup.errors, [], 'no console errors, so nothing refused by the page’s Content-Security-Policy');
  },
);
