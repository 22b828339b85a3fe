import { spawn } from 'node:child_process';
import { once } from 'node:events';
import test from 'ava';
import { newWebhookSecret } from '../../actors/webhooks/signing.js';
import { forwardEvents } from '../../deploy/event-forwarder.js';
import { placeOrder } from '../support/checkout.js';
import { startTestGateway } from '../support/gateway.js';
import { untilListed } from '../support/merchant-events.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { signaturesValid, startReceiver } from '../support/webhook-receiver.js';

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('the listener forwards each new event to the local URL signed with its secret, prints the answer, and resumes after a lost connection', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const proxy = await TcpProxy.start(Number(new URL(gateway.url).port));
  t.teardown(() => proxy.close());
  const merchant = await gateway.createMerchant();
  const secret = newWebhookSecret();
  const lines: string[] = [];
  const controller = new AbortController();
  const forwarding = forwardEvents({
    url: `http://127.0.0.1:${proxy.port}`,
    apiKey: merchant.liveKey,
    forward: `${receiver.url}/hooks`,
    secret,
    reconnectMs: 50,
    print: (line) => lines.push(line),
    signal: controller.signal,
  });
  t.teardown(() => controller.abort());
  await until(() => lines.some((line) => line.startsWith('connected')), 'the stream to open');

  const first = await placeOrder(gateway, merchant.liveKey);
  await receiver.until(() => receiver.requests.length === 1);
  const [request] = receiver.requests;
  t.is(request!.path, '/hooks');
  t.deepEqual(signaturesValid(request!, secret), { peer: true, standard: true });
  const [listed] = await untilListed(gateway, merchant.liveKey, 1);
  t.is(request!.body, JSON.stringify(listed), 'the body is the event as listed, byte for byte');
  t.is(request!.headers['webhook-id'], `evt_${first.id}_1_0`);
  await until(() => lines.some((line) => line.includes(`ORDER_CREATED [evt_${first.id}_1_0]  <-- 200`)), 'the line for the event');

  // The link to the node is cut; an order made meanwhile arrives once it is back, and nothing twice.
  proxy.sever();
  await until(() => lines.some((line) => line.startsWith('stream lost')), 'the listener to notice');
  const second = await placeOrder(gateway, merchant.liveKey);
  receiver.respond = () => 500;
  proxy.restore();
  await receiver.until(() => receiver.requests.length === 2);
  t.is(JSON.parse(receiver.requests[1]!.body).data.order.id, second.id);
  t.deepEqual(signaturesValid(receiver.requests[1]!, secret), { peer: true, standard: true });
  t.true(lines.some((line) => line === `connected to http://127.0.0.1:${proxy.port}, resuming after evt_${first.id}_1_0`));
  await until(() => lines.some((line) => line.includes(`[evt_${second.id}_1_0]  <-- 500`)), 'the receiver’s 500 printed');

  controller.abort();
  await forwarding;
  t.is(receiver.requests.length, 2);
});

test('npm run listen, as a process: prints the session’s secret, forwards an order’s event signed with it, stops on SIGINT', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const merchant = await gateway.createMerchant();
  const child = spawn(process.execPath, ['--import=tsx', 'deploy/listen-cli.ts', '--forward', `${receiver.url}/hooks`, '--url', gateway.url], {
    env: { ...process.env, PEER_API_KEY: merchant.sandboxKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => void child.kill('SIGKILL'));
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  await until(() => stdout.includes('connected to'), 'the listener to connect', 30_000);
  const secret = /signing secret is (whsec_\S+)/.exec(stdout)?.[1];
  t.truthy(secret, stdout);

  const order = await placeOrder(gateway, merchant.sandboxKey);
  await receiver.until(() => receiver.requests.length === 1);
  t.deepEqual(signaturesValid(receiver.requests[0]!, secret!), { peer: true, standard: true });
  t.is(JSON.parse(receiver.requests[0]!.body).data.order.id, order.id);
  await until(() => stdout.includes(`ORDER_CREATED [evt_${order.id}_1_0]  <-- 200`), 'the printed line');

  child.kill('SIGINT');
  const [code] = await once(child, 'exit');
  t.is(code, 0);
});

test('npm run listen refuses to start without a key or a forward URL, and a wrong key or an unknown type ends it', async (t) => {
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const { PEER_API_KEY: _, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--import=tsx', 'deploy/listen-cli.ts', ...args], {
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    return { code, stderr };
  };
  t.like(await run([]), { code: 2 });
  t.regex((await run(['--forward', 'http://127.0.0.1:4000/hooks'])).stderr, /PEER_API_KEY/);
  t.regex((await run(['--forward', 'http://127.0.0.1:4000/hooks', '--secret', 'nope'], { PEER_API_KEY: 'pk_live_x' })).stderr, /whsec_/);
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const refused = await run(['--forward', 'http://127.0.0.1:4000/hooks', '--url', gateway.url], {
    PEER_API_KEY: 'pk_live_00000000000000000000000000000000000000000000',
  });
  t.is(refused.code, 2);
  t.regex(refused.stderr, /Invalid API key/);
  const merchant = await gateway.createMerchant();
  const unknownType = await run(['--forward', 'http://127.0.0.1:4000/hooks', '--url', gateway.url, '--events', 'ORDER_SHIPPED'], {
    PEER_API_KEY: merchant.liveKey,
  });
  t.is(unknownType.code, 2);
  t.regex(unknownType.stderr, /Invalid request; type: Invalid option: expected one of "ORDER_CREATED"/);
});
