/**
 * What the checkout and landing pages' browser tests share: the node `npm start` runs (the embedded
 * default, the real clock) with a merchant, Lumen Coffee, that takes every fiat rail and the
 * local conversion provider's crypto rail; Chromium; and a page that records every console
 * error, since one is what a Content-Security-Policy refusal looks like.
 */
import type { ExecutionContext } from 'ava';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createLogger, loadConfig, SystemClock, type Config } from '../../actors/index.js';
import { EmbeddedStore } from '../../actors/store/embedded-store.js';
import { startNode, type PlatformNode } from '../../deploy/node.js';
import { FIAT_RAILS } from '../../machines/rails.js';
import { ADMIN_TOKEN } from '../support/gateway.js';
import { launchChromium, type Browser } from './chromium.js';

export const OUTPUT = new URL('./output/', import.meta.url);
const STEP_TIMEOUT_MS = 30_000;
/** The crypto rail the local conversion provider serves. */
export const CRYPTO_RAIL = 'relay_42161';

export interface CheckoutSetup {
  node: PlatformNode;
  browser: Browser;
  liveKey: string;
  sandboxKey: string;
  errors: string[];
}

/**
 * The embedded default as `npm start` runs it, with the admin token: a local chain with its seeded makers, so a checkout has rails to offer.
 * `overrides`: settings a test needs otherwise (no seeded makers, a quicker funding check).
 */
export async function startEmbeddedNode(t: ExecutionContext, overrides: Partial<Config> = {}): Promise<PlatformNode> {
  const node = await startNode({
    config: { ...loadConfig({}), PORT: 0, LOG_LEVEL: 'silent', PEER_ADMIN_TOKEN: ADMIN_TOKEN, INDEXER_POLL_MS: 50, ...overrides },
    store: new EmbeddedStore(),
    clock: new SystemClock(),
    logger: createLogger({ level: 'silent' }),
  });
  t.teardown(() => node.stop());
  return node;
}

/** Chromium, closed when the test ends, and the screenshots' folder made. */
export async function startBrowser(t: ExecutionContext): Promise<Browser> {
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  await mkdir(OUTPUT, { recursive: true });
  return browser;
}

export async function setUpCheckout(t: ExecutionContext): Promise<CheckoutSetup> {
  const node = await startEmbeddedNode(t);
  const admin = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${node.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const envelope = (await response.json()) as { responseObject: any };
    if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
    return envelope.responseObject;
  };
  const created = await admin('POST', '/internal/v1/merchants', {
    name: 'Lumen Coffee',
    tier: 'BASE',
    evmWalletAddress: privateKeyToAccount(generatePrivateKey()).address,
  });
  for (const id of [created.merchant.id, created.sandboxMerchant.id]) {
    await admin('PATCH', `/internal/v1/merchants/${id}`, { dynamicOrdersEnabled: true, enabledRails: [...FIAT_RAILS, CRYPTO_RAIL] });
  }
  const browser = await startBrowser(t);
  return { node, browser, liveKey: created.liveApiKey, sandboxKey: created.sandboxApiKey, errors: [] };
}

/** `expected` names the console errors a test provokes on purpose (Chromium logs a refused request as one). */
export async function openPage(setup: CheckoutSetup, t: ExecutionContext, url: string, expected: RegExp = /status of 422/): Promise<Page> {
  const page = await setup.browser.context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.on('console', (message) => {
    if (message.type() === 'error' && !expected.test(message.text())) {
      setup.errors.push(message.text());
      t.log(message.text());
    }
  });
  page.on('pageerror', (error) => {
    setup.errors.push(error.message);
    t.log(error.message);
  });
  await page.goto(url);
  return page;
}

export const shot = (page: Page, name: string) => page.screenshot({ path: new URL(`${name}.png`, OUTPUT).pathname, fullPage: true });
