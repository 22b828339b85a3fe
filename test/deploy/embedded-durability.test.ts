/**
 * `npm start`'s node keeps its data in DATA_DIR: a node SIGKILLed in the middle of a
 * burst of order creations and started again over the same folder still has every
 * order whose creation was answered 201, lists them, and answers their idempotent
 * replays as replays.
 */
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'peer-durability-test-'));
test.after.always(() => rmSync(dataDir, { recursive: true, force: true }));

interface Node {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

async function startNode(): Promise<Node> {
  const child = spawn(process.execPath, ['--import=tsx', 'deploy/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      INDEXER_ENABLED: 'false',
      ENCLAVE_ENABLED: 'false',
      RATE_LIMIT_PER_MINUTE: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // Ready once the start line is out and, after it, the welcome on stderr: the demo merchant's keys, or where they went.
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no 'node started' line and welcome within 30 s:\n${stdout}\n${stderr}`)), 30_000);
    const ready = () => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(stdout);
      if (match && /X-API-Key: |already holds merchants/.test(stderr)) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      ready();
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      ready();
    });
    child.once('exit', () => reject(new Error(`exited before starting:\n${stdout}\n${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

type Outcome = { key: string; body: Record<string, unknown>; status: number; answer: any } | { key: string; body: Record<string, unknown>; status: 'unknown' };

async function create(url: string, apiKey: string, body: Record<string, unknown>): Promise<{ status: number; answer: any }> {
  const response = await fetch(`${url}/api/v1/orders`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, answer: await response.json() };
}

test('a node SIGKILLed mid-burst restarts over DATA_DIR with every order it answered 201 for', async (t) => {
  t.timeout(120_000);
  const first = await startNode();
  const demo = /live\s+(mer_\S+)\s+X-API-Key: (\S+)/.exec(first.stderr());
  t.truthy(demo, `the demo merchant's key is printed on a new data folder:\n${first.stderr()}`);
  const apiKey = demo![2]!;

  // Requests keep coming, 32 at a time, until enough have been answered; then the node is killed with requests in flight.
  const outcomes: Outcome[] = [];
  const TOTAL = 600;
  const KILL_AFTER = 60;
  let next = 0;
  let created = 0;
  let killed = false;
  const worker = async () => {
    while (next < TOTAL) {
      const i = next++;
      const body = { requestedUsdcAmount: `${1 + (i % 50)}`, idempotencyKey: `burst-order-${String(i).padStart(4, '0')}`, notes: { i } };
      try {
        const { status, answer } = await create(first.url, apiKey, body);
        outcomes.push({ key: body.idempotencyKey, body, status, answer });
        if (status === 201 && ++created === KILL_AFTER && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      } catch {
        outcomes.push({ key: body.idempotencyKey, body, status: 'unknown' });
      }
    }
  };
  const exited = once(first.child, 'exit');
  await Promise.all(Array.from({ length: 32 }, worker));
  const [, signal] = (await exited) as [number | null, string | null];
  t.is(signal, 'SIGKILL');
  const answered = outcomes.filter((outcome): outcome is Extract<Outcome, { answer: any }> => outcome.status === 201);
  t.true(answered.length >= KILL_AFTER);
  t.true(
    outcomes.some((outcome) => outcome.status === 'unknown'),
    'some requests were cut off by the kill',
  );
  t.true(
    outcomes.every((outcome) => outcome.status === 201 || outcome.status === 'unknown'),
    JSON.stringify(outcomes.find((o) => o.status !== 201 && o.status !== 'unknown')),
  );

  const second = await startNode();
  try {
    t.notRegex(second.stderr(), /demo merchant was created/, 'a restart over existing data opens no second demo merchant');
    for (const { answer } of answered) {
      const order = answer.responseObject.order;
      const read = await fetch(`${second.url}/api/v1/orders/${order.id}`);
      t.is(read.status, 200, `order ${order.id} answered 201 before the kill is there after it`);
    }

    const listed = new Set<string>();
    for (let page = 1; ; page++) {
      const response = await fetch(`${second.url}/api/v1/merchants/me/orders?limit=100&page=${page}`, { headers: { 'x-api-key': apiKey } });
      t.is(response.status, 200);
      const { responseObject } = (await response.json()) as { responseObject: { orders: { id: string }[]; total: number } };
      for (const order of responseObject.orders) listed.add(order.id);
      if (responseObject.orders.length < 100) {
        t.is(listed.size, responseObject.total);
        break;
      }
    }
    for (const { answer } of answered) t.true(listed.has(answer.responseObject.order.id));

    for (const { body, answer } of answered) {
      const replay = await create(second.url, apiKey, body);
      t.is(replay.status, 200);
      t.deepEqual(replay.answer.responseObject, { order: answer.responseObject.order, orderToken: null, idempotentReplay: true });
    }
    // A request cut off by the kill may or may not have made its order; sent again it makes or finds exactly one.
    for (const { body } of outcomes.filter((outcome) => outcome.status === 'unknown').slice(0, 20)) {
      const again = await create(second.url, apiKey, body);
      t.true(again.status === 201 || (again.status === 200 && again.answer.responseObject.idempotentReplay === true), JSON.stringify(again.answer));
    }
  } finally {
    second.child.kill('SIGTERM');
    await once(second.child, 'exit');
  }
});
