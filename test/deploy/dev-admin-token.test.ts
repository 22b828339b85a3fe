/**
 * The admin token a development node keeps in DATA_DIR (deploy/dev-admin-token.ts): the
 * first start over a new folder makes one (mode 0600) and serves the engineers' page and
 * the admin API with it at once, beside the demo merchant it opens; a second start over
 * the same folder takes the same token and shows no secret again; PEER_ADMIN_TOKEN wins;
 * production makes none. Neither the token nor the demo keys ever reach the log. The
 * banner's curl, run in a shell, creates an order whose printed link opens its checkout.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createLogger, loadConfig, type Config } from '../../actors/index.js';
import { startNode, type PlatformNode } from '../../deploy/node.js';
import { orderCommand } from '../../deploy/start-banner.js';

const root = mkdtempSync(join(tmpdir(), 'peer-admin-token-test-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

async function startOn(dataDir: string, overrides: Partial<Config>, log: string[]): Promise<PlatformNode> {
  return startNode({
    config: { ...loadConfig({}), PORT: 0, DATA_DIR: dataDir, INDEXER_ENABLED: false, ENCLAVE_ENABLED: false, LOCAL_MAKERS: false, ...overrides },
    logger: createLogger({ level: 'info', destination: { write: (line: string) => void log.push(line) } }),
  });
}

const machines = (node: PlatformNode, token: string) => fetch(`${node.url}/internal/v1/machines`, { headers: { authorization: `Bearer ${token}` } });

test('a first development start makes the admin token and keeps it 0600; a second over the same folder takes it again without showing it', async (t) => {
  const dataDir = join(root, 'twice');
  const log: string[] = [];
  const first = await startOn(dataDir, {}, log);
  let token: string;
  try {
    const kept = first.welcome?.adminToken;
    t.truthy(kept);
    t.true(kept!.created);
    token = kept!.token;
    t.true(token.length >= 43, 'a 32-byte random token');
    t.is(kept!.file, join(dataDir, 'admin-token'));
    t.is(statSync(kept!.file).mode & 0o777, 0o600);
    t.is(readFileSync(kept!.file, 'utf8').trim(), token);
    t.truthy(first.welcome?.demoMerchant, 'the demo merchant is opened beside it');

    t.is((await machines(first, token)).status, 200, 'the admin API takes it at once');
    t.is((await machines(first, `${token}x`)).status, 401);
    t.is((await fetch(`${first.url}/internal/engineers`)).status, 200, 'the engineers’ page is served');
  } finally {
    await first.stop();
  }

  const second = await startOn(dataDir, {}, log);
  try {
    t.deepEqual(second.welcome, { demoMerchant: null, adminToken: { token, file: join(dataDir, 'admin-token'), created: false } });
    t.is((await machines(second, token)).status, 200, 'the same token opens the admin API after a restart');
  } finally {
    await second.stop();
  }
  const keys = first.welcome!.demoMerchant!;
  for (const secret of [token, keys.liveApiKey, keys.sandboxApiKey]) t.false(log.join('').includes(secret), 'no secret is logged');
  t.true(
    log.some((line) => line.includes('"msg":"node started"')),
    'the log was captured',
  );
});

test('PEER_ADMIN_TOKEN wins over a kept token, and production keeps none', async (t) => {
  const dataDir = join(root, 'explicit');
  const made = await startOn(dataDir, {}, []);
  const keptToken = made.welcome!.adminToken!.token;
  await made.stop();

  const explicit = 'an-explicit-admin-token-0123456789';
  const configured = await startOn(dataDir, { PEER_ADMIN_TOKEN: explicit }, []);
  try {
    t.is(configured.welcome?.adminToken, null);
    t.is((await machines(configured, explicit)).status, 200);
    t.is((await machines(configured, keptToken)).status, 401);
  } finally {
    await configured.stop();
  }

  const productionDir = join(root, 'production');
  const production = await startOn(productionDir, { NODE_ENV: 'production' }, []);
  try {
    t.is(production.welcome?.adminToken, null);
    t.false(existsSync(join(productionDir, 'admin-token')));
    t.is((await machines(production, keptToken)).status, 404, 'no admin API is mounted');
  } finally {
    await production.stop();
  }
});

test('the banner’s order command, run in a shell, prints a checkout link that opens the order’s checkout page', async (t) => {
  const node = await startOn(join(root, 'curl'), {}, []);
  try {
    const { stdout } = await promisify(execFile)('sh', ['-c', orderCommand(node.url, node.welcome!.demoMerchant!.liveApiKey)]);
    const link = stdout.trim();
    t.regex(link, new RegExp(`^${node.url.replaceAll('.', '\\.')}/\\?order=ord_[0-9A-Za-z]{24}&token=[\\w-]+$`));
    const page = await fetch(link);
    t.is(page.status, 200);
    t.true((await page.text()).includes('<title>Checkout</title>'));
  } finally {
    await node.stop();
  }
});
