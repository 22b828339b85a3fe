/**
 * The reference page's quickstart, run as written: every curl block in a shell and the
 * SDK block in Node, against a node of the test's own (the node's and the receiver's
 * addresses swapped for theirs), so a command that stops working fails here. Paying on
 * the page (step 5) is what test/browser/checkout-page.browser.ts does in a browser.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { QUICKSTART, QUICKSTART_NODE_URL, QUICKSTART_RECEIVER_URL } from '../../gateway/openapi/quickstart.js';
import { startTestGateway } from '../support/gateway.js';
import { startReceiver } from '../support/webhook-receiver.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function codeBlocks(language: string): string[] {
  return [...QUICKSTART.matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].filter((match) => match[1] === language).map((match) => match[2]!);
}

test('the quickstart’s commands and SDK sample work against a node, and its endpoint hears each order', async (t) => {
  const shell = codeBlocks('sh');
  const [start, keep, ...commands] = shell;
  // What the test does itself rather than run: the start (as startTestGateway below) and keeping the live key (the environment below).
  t.is(start, 'WEBHOOK_ALLOW_PRIVATE=true npm start');
  t.regex(keep ?? '', /^export PEER_API_KEY='.*'$/);
  t.is(commands.length, 4);
  t.true(
    commands.every((command) => command.startsWith('curl ')),
    commands.join('\n'),
  );

  const gateway = await startTestGateway({ WEBHOOK_ALLOW_PRIVATE: true });
  t.teardown(() => gateway.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const merchant = await gateway.createMerchant();
  const env = { PATH: process.env.PATH, PEER_API_KEY: merchant.liveKey };
  const local = (text: string) => text.replaceAll(QUICKSTART_RECEIVER_URL, `${receiver.url}/hooks`).replaceAll(QUICKSTART_NODE_URL, gateway.url);
  const sh = async (command: string) => (await run('bash', ['-o', 'pipefail', '-c', local(command)], { env })).stdout;

  const [register, create, link, list] = commands as [string, string, string, string];
  const webhook = JSON.parse(await sh(register));
  t.like(webhook, { statusCode: 201, responseObject: { url: `${receiver.url}/hooks`, active: true } });
  t.regex(webhook.responseObject.secret, /^whsec_/);

  const created = JSON.parse(await sh(create));
  t.like(created, { statusCode: 201, responseObject: { order: { status: 'CREATED', amountMode: 'FIXED' } } });
  t.regex(created.responseObject.orderToken, /\S/);

  const checkoutLink = (await sh(link)).trim();
  const page = await fetch(checkoutLink);
  t.regex(checkoutLink, new RegExp(`^${gateway.url}/\\?order=ord_\\w{24}&token=\\S+$`));
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);

  const sdk = codeBlocks('js');
  t.is(sdk.length, 1);
  const sdkLink = (await run(process.execPath, ['--input-type=module', '-e', local(sdk[0]!)], { env, cwd: ROOT })).stdout.trim();
  t.regex(sdkLink, new RegExp(`^${gateway.url}/\\?order=ord_\\w{24}&token=\\S+$`));
  t.is((await fetch(sdkLink)).status, 200);

  const orders = JSON.parse(await sh(list));
  const ids = orders.responseObject.orders.map((order: { id: string }) => order.id).sort();
  const linked = [checkoutLink, sdkLink].map((url) => new URL(url).searchParams.get('order'));
  t.deepEqual(ids, [created.responseObject.order.id, ...linked].sort());

  await receiver.until(() => receiver.delivered().length === 3, 10_000, 'an ORDER_CREATED for each order');
  t.deepEqual(
    receiver.delivered().map((event) => event.type),
    ['ORDER_CREATED', 'ORDER_CREATED', 'ORDER_CREATED'],
  );
  t.deepEqual(
    receiver
      .delivered()
      .map((event) => event.data.order.id)
      .sort(),
    ids,
  );
  t.true(receiver.requests.every((request) => request.path === '/hooks' && typeof request.headers['webhook-signature'] === 'string'));
});
