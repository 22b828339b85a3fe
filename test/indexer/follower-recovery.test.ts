/**
 * The follower recovering from what a long-running indexer meets: a flaky RPC, a
 * crash between two of its writes, a re-organisation right after a long range.
 */
import test from 'ava';
import type { PublicClient } from 'viem';
import { createLogger } from '../../actors/index.js';
import { openIndexerCollections } from '../../deploy/chain.js';
import type { CursorDocument, IndexerCollections } from '../../indexer/fact-store.js';
import { startIndexer } from '../../indexer/indexer-server.js';
import { alice, bob, carol, mine, mint, readFacts, startTestChain, transfer, watch, type TestChain } from '../support/chain.js';

const USDC = 1_000_000n;
/** Long enough for the follower's next steps, short enough that a follower that stopped fails the test quickly. */
const WAIT_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function collections(chain: TestChain): Promise<IndexerCollections> {
  return openIndexerCollections(chain.store, chain.local.chainId);
}

async function cursorOf(chain: TestChain): Promise<CursorDocument> {
  return (await (await collections(chain)).state.findOne({ _id: 'cursor' }))!;
}

async function snapshot(chain: TestChain): Promise<string> {
  return (await chain.client.request({ method: 'evm_snapshot' as never })) as string;
}

async function revert(chain: TestChain, id: string): Promise<void> {
  await chain.client.request({ method: 'evm_revert' as never, params: [id] as never });
}

test('an RPC that fails for a while is retried, not taken for a re-organisation', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  // The same indexer, over a client whose getBlock rejects while `failing` is set, as a rate-limited node does.
  let failing = false;
  const flaky = new Proxy(chain.client, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== 'getBlock') return value;
      return (...args: Parameters<PublicClient['getBlock']>) => (failing ? Promise.reject(new Error('429 Too Many Requests')) : value(...args));
    },
  });
  await chain.indexer.stop();
  chain.indexer = await startIndexer({
    client: flaky,
    contracts: chain.local,
    collections: await collections(chain),
    logger: createLogger({ level: 'silent' }),
    address: chain.indexer.address,
    startBlock: Number(chain.local.deployBlock),
    pollMs: 20,
  });

  await watch(chain, [alice.address]);
  await mint(chain, alice.address, 10n * USDC);
  await readFacts(chain, 0, 1);

  failing = true;
  await mint(chain, alice.address, 11n * USDC);
  await mine(chain, 3);
  await sleep(300);
  failing = false;
  await mint(chain, alice.address, 12n * USDC);

  const facts = await readFacts(chain, 1, 2, WAIT_MS);
  t.deepEqual(
    facts.map((fact) => [fact.sequence, fact.retracted, fact.event?.value]),
    [
      [2n, false, { from: '0x0000000000000000000000000000000000000000', to: alice.address, value: (11n * USDC).toString() }],
      [3n, false, { from: '0x0000000000000000000000000000000000000000', to: alice.address, value: (12n * USDC).toString() }],
    ],
  );
});

test('after a crash between a fact and the cursor save, the next fact takes the next free sequence', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  await watch(chain, [bob.address]);
  await mint(chain, bob.address, 5n * USDC);
  await readFacts(chain, 0, 1);
  const beforeSecond = await cursorOf(chain);
  await transfer(chain, bob, carol.address, 2n * USDC);
  await readFacts(chain, 1, 1);

  // The second fact is in, the cursor as it was before it: what a crash before the save leaves.
  await chain.indexer.stop();
  await (await collections(chain)).state.replaceOne({ _id: 'cursor' }, beforeSecond);
  await chain.restartIndexer();

  await transfer(chain, bob, alice.address, 1n * USDC);
  const [next] = await readFacts(chain, 2, 1, WAIT_MS);
  t.is(next!.sequence, 3n);
  t.deepEqual(next!.event?.value, { from: bob.address, to: alice.address, value: (1n * USDC).toString() });
  const all = await readFacts(chain, 0, 3);
  t.is(new Set(all.map((fact) => fact.id)).size, 3, 'the fact written before the crash is not written again');
});

test('after a crash between a retraction and marking its fact retracted, the retraction is not written again', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  await watch(chain, [alice.address]);
  await mint(chain, alice.address, 50n * USDC);
  await readFacts(chain, 0, 1);

  const beforeFork = await snapshot(chain);
  await transfer(chain, alice, bob.address, 7n * USDC);
  const [orphan] = await readFacts(chain, 1, 1);
  const beforeUnwind = await cursorOf(chain);
  await revert(chain, beforeFork);
  await mine(chain, 2);
  const [retraction] = await readFacts(chain, 2, 1, WAIT_MS);
  t.true(retraction!.retracted);

  // The retraction is in, its fact not marked yet, the cursor still on the block that left: what a crash between the two leaves.
  await chain.indexer.stop();
  const { facts, state } = await collections(chain);
  await facts.updateOne({ _id: orphan!.id }, { $set: { retracted: false } });
  await state.replaceOne({ _id: 'cursor' }, beforeUnwind);
  await chain.restartIndexer();

  await transfer(chain, alice, carol.address, 3n * USDC);
  const [next] = await readFacts(chain, 3, 1, WAIT_MS);
  t.is(next!.sequence, 4n);
  t.false(next!.retracted);
  t.deepEqual(next!.event?.value, { from: alice.address, to: carol.address, value: (3n * USDC).toString() });
  t.true((await facts.findOne({ _id: orphan!.id }))!.retracted, 'the fact is marked retracted after all');
  t.is((await facts.find({ isRetraction: true })).length, 1, 'its retraction once');
});

test('a re-organisation of the last block of a range longer than the re-organisation depth is still handled', async (t) => {
  const chain = await startTestChain({ batchBlocks: 500, reorgDepth: 16 });
  t.teardown(() => chain.stop());
  await watch(chain, [alice.address]);
  await mint(chain, alice.address, 50n * USDC);
  await readFacts(chain, 0, 1);

  // Stopped, so the follower reads the empty blocks and the transfer on top of them in one range.
  await chain.indexer.stop();
  await mine(chain, 100);
  const beforeFork = await snapshot(chain);
  await transfer(chain, alice, bob.address, 7n * USDC);
  await chain.restartIndexer();
  const [orphan] = await readFacts(chain, 1, 1);
  t.is((await cursorOf(chain)).block.hash, orphan!.blockHash, "the transfer's block ends the range");

  // A one-block re-organisation of that block.
  await revert(chain, beforeFork);
  await mine(chain, 2);
  const [retraction] = await readFacts(chain, 2, 1, WAIT_MS);
  t.true(retraction!.retracted);
  t.is(retraction!.id, orphan!.id);

  await mint(chain, alice.address, 1n * USDC);
  const [next] = await readFacts(chain, 3, 1, WAIT_MS);
  t.false(next!.retracted, 'the follower goes on');
});
