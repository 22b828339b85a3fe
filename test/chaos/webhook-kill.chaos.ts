/**
 * A node SIGKILLed while deliveries are in flight loses no event and sends none twice
 * to a receiver that answered it with a 2xx.
 *
 * The node runs as a child process over a data folder (the embedded store and the
 * journaled event bus, as `npm start` runs). The receiver lives in the test. First it
 * answers every delivery at once, and the test waits until the node's delivery log has
 * recorded each answer. Then it holds every request unanswered; once deliveries are in
 * flight the node is killed, so the held requests are never answered. The node starts
 * again over the same folder and the receiver answers everything: each event must
 * arrive, signed, and each must have been answered 2xx exactly once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { PaymentNodeProcess, type RunEvent } from './payment-node-process.js';
import { signaturesValid, startReceiver } from '../support/webhook-receiver.js';

const ADMIN_TOKEN = 'webhook-kill-admin-token-0123456789abcdef';
const FIRST = 5;
const IN_FLIGHT = 5;

async function call(url: string, method: string, path: string, options: { key?: string; admin?: boolean; body?: unknown } = {}): Promise<any> {
  const headers: Record<string, string> = {};
  if (options.key) headers['x-api-key'] = options.key;
  if (options.admin) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const body = (await response.json()) as { responseObject: any };
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body.responseObject;
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test('a node killed mid-delivery resumes: every event arrives, and none answered 2xx is sent again', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'webhook-kill-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const environment = (run: number): Record<string, string> => ({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    NODE_ID: 'webhook-kill-node',
    DATA_DIR: join(root, 'data'),
    PEER_ADMIN_TOKEN: ADMIN_TOKEN,
    RATE_LIMIT_PER_MINUTE: '1000000',
    TIMER_POLL_MS: '100',
    SWEEP_INTERVAL_MS: '100',
    INDEXER_ENABLED: 'false',
    ENCLAVE_ENABLED: 'false',
    LOCAL_MAKERS: 'false',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    PAYMENT_NODE_LOG: join(root, `node-${run}.log`),
  });
  const events: RunEvent[] = [];
  const nodes: PaymentNodeProcess[] = [];
  t.teardown(async () => {
    for (const node of nodes) await node.kill();
  });

  const first = await PaymentNodeProcess.start(1, environment(1), events);
  nodes.push(first);
  const merchant = await call(first.url, 'POST', '/internal/v1/merchants', {
    admin: true,
    body: { name: 'Kill', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' },
  });
  const key: string = merchant.sandboxApiKey;
  const webhook = await call(first.url, 'POST', '/api/v1/webhooks', { key, body: { url: `${receiver.url}/hooks`, events: ['ORDER_CREATED'] } });
  const order = (url: string) => call(url, 'POST', '/api/v1/orders', { key, body: { requestedUsdcAmount: '10' } });
  const delivered = async (url: string) =>
    (await call(url, 'GET', `/api/v1/webhooks/${webhook.id}/deliveries?status=DELIVERED&limit=100`, { key })).total as number;

  // Answered at once, and the answers recorded.
  for (let index = 0; index < FIRST; index++) await order(first.url);
  await until(async () => (await delivered(first.url)) === FIRST, 'the first deliveries to be recorded');

  // Held: deliveries of different orders go out side by side; the node dies with them in flight.
  const held: Array<() => void> = [];
  receiver.respond = () => new Promise((resolve) => held.push(() => resolve(200)));
  for (let index = 0; index < IN_FLIGHT; index++) await order(first.url);
  await until(() => held.length === IN_FLIGHT, 'every new delivery to be in flight');
  await first.kill();
  for (const answer of held) answer();

  receiver.respond = () => 200;
  const second = await PaymentNodeProcess.start(2, environment(2), events);
  nodes.push(second);
  await until(async () => (await delivered(second.url)) === FIRST + IN_FLIGHT, 'every delivery to be recorded after the restart');

  const byId = new Map<string, { answered2xx: number; sent: number }>();
  for (const request of receiver.requests) {
    t.deepEqual(signaturesValid(request, webhook.secret), { peer: true, standard: true });
    const id = String(request.headers['x-webhook-id']);
    const entry = byId.get(id) ?? { answered2xx: 0, sent: 0 };
    entry.sent += 1;
    if (request.answered !== null && request.answered < 300) entry.answered2xx += 1;
    byId.set(id, entry);
  }
  t.is(byId.size, FIRST + IN_FLIGHT, 'every event arrived');
  for (const [id, { answered2xx }] of byId) t.is(answered2xx, 1, `${id} was answered 2xx exactly once`);
  const resent = [...byId.values()].filter((entry) => entry.sent === 2).length;
  t.is(resent, IN_FLIGHT, 'the deliveries cut off by the kill were sent again, and only those');
  t.is(receiver.requests.length, FIRST + 2 * IN_FLIGHT);
  t.log(`${FIRST} delivered before the kill, ${IN_FLIGHT} cut off in flight and sent again after the restart`);
  await second.stop();
});
