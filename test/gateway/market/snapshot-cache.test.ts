/**
 * The snapshot cache behind the orderbook and the leaderboard, on a hand-moved clock:
 * fresh for freshMs; then a build starts and, for the orderbook, the last snapshot answers
 * while it is younger than document 3's 60 seconds; older, or failed, a 503.
 */
import test from 'ava';
import { createLogger } from '../../../actors/index.js';
import { ApiError } from '../../../gateway/envelope.js';
import { SnapshotCache } from '../../../gateway/market/snapshot-cache.js';

function cacheOn(staleMs: number) {
  let now = 0;
  let builds = 0;
  let failing = false;
  let release: (() => void) | null = null;
  let held = false;
  const cache = new SnapshotCache<number>({
    build: async (builtAt) => {
      builds += 1;
      if (held) await new Promise<void>((resolve) => (release = resolve));
      if (failing) throw new Error('the store is down');
      return builtAt;
    },
    now: () => now,
    freshMs: 15_000,
    staleMs,
    logger: createLogger({ level: 'silent' }),
    what: 'test book',
    unavailable: () => new ApiError(503, 'unavailable', 'TEMPORARILY_UNAVAILABLE'),
  });
  return {
    cache,
    advance: (ms: number) => void (now += ms),
    builds: () => builds,
    fail: (on: boolean) => void (failing = on),
    hold: (on: boolean) => void (held = on),
    release: () => release?.(),
  };
}

test('a snapshot answers until freshMs has passed; then the next request builds another', async (t) => {
  const book = cacheOn(60_000);
  t.is(await book.cache.get(), 0);
  book.advance(14_999);
  t.is(await book.cache.get(), 0);
  t.is(book.builds(), 1);
  book.advance(1);
  // Past freshMs but within 60 s: answered from the last snapshot while the next is built.
  t.is(await book.cache.get(), 0);
  t.is(await book.cache.get(), 15_000, 'the build has landed');
  t.is(book.builds(), 2);
});

test('concurrent requests share one build', async (t) => {
  const book = cacheOn(0);
  book.hold(true);
  const answers = Promise.all([book.cache.get(), book.cache.get(), book.cache.get()]);
  book.release();
  t.deepEqual(await answers, [0, 0, 0]);
  t.is(book.builds(), 1);
});

test('a failing build keeps the last snapshot answering until it is 60 s old, then is a 503', async (t) => {
  const book = cacheOn(60_000);
  await book.cache.get();
  book.fail(true);
  book.advance(59_999);
  t.is(await book.cache.get(), 0, 'stale but within the document’s bound');
  book.advance(1);
  await t.throwsAsync(book.cache.get(), { instanceOf: ApiError, message: 'unavailable' });
  book.fail(false);
  t.is(await book.cache.get(), 60_000, 'the next request builds again');
});

test('without staleMs (the leaderboard) a request past freshMs waits for the build', async (t) => {
  const book = cacheOn(0);
  await book.cache.get();
  book.advance(15_000);
  t.is(await book.cache.get(), 15_000);
  book.fail(true);
  book.advance(15_000);
  await t.throwsAsync(book.cache.get(), { instanceOf: ApiError });
});
