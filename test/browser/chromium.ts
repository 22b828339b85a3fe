/**
 * Debian's Chromium (`apt-get install chromium`), driven by playwright-core: headless,
 * in a fresh profile, with the background traffic it makes of its own (updates, sync,
 * field trials) switched off, so every request a test sees comes from the page.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const EXECUTABLE = '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'peer-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: EXECUTABLE,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** The browser's page, with every URL it requests and every error it logs or throws recorded as they come. */
export async function watchedPage(browser: Browser, timeoutMs = 20_000): Promise<{ page: Page; requested: string[]; errors: string[] }> {
  const requested: string[] = [];
  const errors: string[] = [];
  browser.context.on('request', (request) => void requested.push(request.url()));
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(timeoutMs);
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (thrown) => errors.push(thrown.message));
  return { page, requested, errors };
}

/** Opens the engineers' page at `hash` and gives it the admin token it asks for. */
export async function signInToEngineers(page: Page, url: string, token: string, hash = ''): Promise<void> {
  await page.goto(`${url}/internal/engineers${hash}`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Use token' }).click();
}
