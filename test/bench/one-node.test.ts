import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBigFolder, writeBigFolder } from './big-folder.js';
import { formatCreate, oneNodeSettings } from './one-node.js';

test('issue 42 rows run at the issue sizes by default, smoke sizes with BENCH_QUICK, and a size set in the environment wins', (t) => {
  t.like(oneNodeSettings({}), { orders: 100_000, tailRate: 500, tailSeconds: 60, rounds: 3 });
  t.like(oneNodeSettings({ BENCH_QUICK: '1' }), { orders: 2_000, tailSeconds: 5, rounds: 1 });
  t.like(oneNodeSettings({ BENCH_QUICK: '1', BENCH_ORDERS: '1000000' }), { orders: 1_000_000, rounds: 1 });
});

test('the create row says the peer was skipped where no PostgreSQL answered, and still gives the CPU per create', (t) => {
  const sample = { perSecond: 1_000, p50Ms: 10, p99Ms: 20, serverCpuMicros: 900, answered: 5_000 };
  const text = formatCreate({
    peerServer: null,
    targets: [
      { target: 'our node, in memory', samples: [sample] },
      { target: 'our node, durable (DATA_DIR)', samples: [{ ...sample, serverCpuMicros: 1_200 }] },
    ],
    vsPeer: [],
  });
  t.regex(text, /\| create throughput, durable node \/ peer \| skipped: no PostgreSQL \|/);
  t.regex(text, /CPU per create, our node, durable \(DATA_DIR\) \| 1,200 \(1,200–1,200\) µs/);
});

test('a built folder is found again with its merchant and its count', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'peer-big-folder-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.is(readBigFolder(dir), null);
  writeBigFolder({ dir, orders: 20_000, merchantId: 'mer_1', liveKey: 'key' });
  t.deepEqual(readBigFolder(dir), { dir, orders: 20_000, merchantId: 'mer_1', liveKey: 'key' });
});
