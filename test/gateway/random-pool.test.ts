import test from 'ava';
import { pooledRandomBytes } from '../../gateway/random-pool.js';

test('pooled random bytes are never handed out twice, across refills of the pool', (t) => {
  const seen = new Set<string>();
  // 32 × 1,000 bytes: several refills of a 4 KB pool.
  for (let i = 0; i < 1_000; i++) seen.add(pooledRandomBytes(32).toString('hex'));
  t.is(seen.size, 1_000);
});

test('bytes a caller keeps do not change when the pool refills', (t) => {
  const kept = pooledRandomBytes(32);
  const copy = Buffer.from(kept);
  for (let i = 0; i < 300; i++) pooledRandomBytes(32);
  t.deepEqual(kept, copy);
  t.is(pooledRandomBytes(5_000).length, 5_000, 'a request larger than the pool is served directly');
});
