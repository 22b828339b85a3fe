/**
 * The start banner npm start prints on a terminal (deploy/start-banner.ts), and the plain
 * lines it writes to stderr elsewhere: what runs where, the demo merchant's keys and a new
 * admin token only on the start that made them, and one command that creates an order.
 */
import test from 'ava';
import { orderCommand, plainWelcome, startBanner, type StartFacts } from '../../deploy/start-banner.js';

const URL = 'http://127.0.0.1:3000';
const KEYS = {
  liveId: 'mer_live00000000000000000001',
  liveApiKey: 'pk_live_LIVEKEY',
  sandboxId: 'mer_sand00000000000000000001',
  sandboxApiKey: 'pk_test_SANDBOXKEY',
};
const TOKEN = 'admin-token-0123456789abcdefghij';
const FILE = '/tmp/data/admin-token';

const firstStart: StartFacts = {
  environment: 'development',
  url: URL,
  adminToken: { shown: TOKEN, file: FILE },
  localChain: { rpcUrl: 'http://127.0.0.1:8545', chainId: 31337, usdc: '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
  attestationUrl: 'http://127.0.0.1:8081',
  caughtMail: true,
  demoMerchant: KEYS,
  demoWallet: '0x8C8d35429F74ec245F8Ef2f4Fd1e551cFF97d650',
};

test('a first start shows where everything runs, the demo keys, the demo wallet, the new admin token and a curl with the live key', (t) => {
  const banner = startBanner(firstStart);
  for (const expected of [
    `Gateway          ${URL}`,
    `API reference    ${URL}/docs`,
    `Engineers’ page  ${URL}/internal/engineers`,
    `Landing page     ${URL}/`,
    `Caught mail      ${URL}/dev/mail`,
    'Local chain      http://127.0.0.1:8545  chain id 31337, USDC 0x5FbDB2315678afecb367f032d93F642f64180aa3',
    'Attestation      http://127.0.0.1:8081',
    `${KEYS.liveId}  X-API-Key: ${KEYS.liveApiKey}`,
    `${KEYS.sandboxId}  X-API-Key: ${KEYS.sandboxApiKey}`,
    `wallet           ${firstStart.demoWallet}`,
    `dashboard        ${URL}/dashboard  as owner@demo.example.com (the code arrives at /dev/mail)`,
    `kept in ${FILE}):\n  ${TOKEN}`,
    `  ${orderCommand(URL, KEYS.liveApiKey)}`,
  ]) {
    t.true(banner.includes(expected), `has ${JSON.stringify(expected)}:\n${banner}`);
  }
  t.true(banner.split('\n').length <= 30, 'short');
});

test('a later start shows neither keys nor token, says where the token is kept, and leaves the key to the reader', (t) => {
  const banner = startBanner({ ...firstStart, adminToken: { kept: FILE }, demoMerchant: 'earlier' });
  t.false(banner.includes(TOKEN));
  t.false(banner.includes('pk_'));
  t.true(banner.includes(`Admin token: the one kept in ${FILE}`));
  t.true(banner.includes('its API keys were shown when this data folder was new'));
  t.true(banner.includes(orderCommand(URL, '$LIVE_KEY')));
  t.true(banner.includes('with LIVE_KEY set to the demo merchant’s live API key'));
});

test('a token from the environment is never repeated; without one the engineers’ page is said to be off; production has no landing page', (t) => {
  const fromEnvironment = startBanner({ ...firstStart, adminToken: 'environment' });
  t.true(fromEnvironment.includes(`${URL}/internal/engineers`));
  t.false(fromEnvironment.includes('Admin token'));
  const production = startBanner({ ...firstStart, environment: 'production', adminToken: null, localChain: null, attestationUrl: null, demoMerchant: null });
  t.true(production.includes('Engineers’ page  off: set PEER_ADMIN_TOKEN'));
  for (const absent of ['Landing page', 'Caught mail', 'Local chain', 'Attestation', 'Demo merchant', 'wallet', 'dashboard'])
    t.false(production.includes(absent), absent);
  t.false(startBanner({ ...firstStart, caughtMail: false }).includes('Caught mail'), 'with SMTP_URL the mail is sent, not caught');
  t.true(production.includes('with LIVE_KEY set to a merchant’s live API key'));
});

test('the order command prints the checkout link of the created order, or the refusal', (t) => {
  const command = orderCommand(URL, KEYS.liveApiKey);
  t.true(
    command.startsWith(
      `curl -s ${URL}/api/v1/orders -H 'x-api-key: ${KEYS.liveApiKey}' -H 'content-type: application/json' -d '{"requestedFiatAmount":"25.00","requestedFiatCurrency":"USD"}' | node -p '`,
    ),
  );
  t.true(command.includes(`"${URL}/?order=" + a.responseObject.order.id + "&token=" + a.responseObject.orderToken`));
  // A variable is left for the shell to expand.
  t.true(orderCommand(URL, '$LIVE_KEY').includes(`-H "x-api-key: $LIVE_KEY"`));
});

test('off a terminal, the keys and a new token go out as plain lines, and a later start names only the token’s file', (t) => {
  const first = plainWelcome({ demoMerchant: KEYS, adminToken: { token: TOKEN, file: FILE, created: true } }, '/tmp/data');
  t.regex(first, /live\s+mer_live00000000000000000001\s+X-API-Key: pk_live_LIVEKEY/);
  t.true(first.includes(`kept in ${FILE}:\n  ${TOKEN}\n`));
  const later = plainWelcome({ demoMerchant: null, adminToken: { token: TOKEN, file: FILE, created: false } }, '/tmp/data');
  t.false(later.includes(TOKEN));
  t.true(later.includes(`The admin token is the one kept in ${FILE}.`));
  t.true(later.includes('The data folder /tmp/data already holds merchants'));
});
