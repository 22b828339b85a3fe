import test from 'ava';
import { BlockNotFoundError, type PublicClient } from 'viem';
import { EmbeddedStore } from '../../actors/index.js';
import { chainMismatch, type ReachedChain } from '../../deploy/chain-identity.js';
import { indexerCollectionSpecs } from '../../indexer/fact-store.js';

const hash = (digit: string) => `0x${digit.repeat(64)}` as const;
const CONTRACTS = {
  chainId: 31337,
  usdc: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  escrow: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  orchestrator: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
} as const;

/** A chain as the check reads it: blocks by number, nothing else. */
function chain(blocks: Record<number, string>, contracts: ReachedChain['contracts'] = CONTRACTS): ReachedChain {
  const client = {
    getBlock: async ({ blockNumber }: { blockNumber: bigint }) => {
      const found = blocks[Number(blockNumber)];
      if (found === undefined) throw new BlockNotFoundError({ blockNumber });
      return { hash: found };
    },
  } as unknown as PublicClient;
  return { client, contracts, anchorBlock: 0n, dataPlace: './data', restore: './data/chain/state.json' };
}

const now = () => '2026-12-06T00:00:00.000Z';

test('the first chain met is recorded; the same chain again is no mismatch', async (t) => {
  const store = new EmbeddedStore();
  t.is(await chainMismatch(store, chain({ 0: hash('a') }), now), null);
  t.is(await chainMismatch(store, chain({ 0: hash('a') }), now), null);
  const recorded = await (await store.collection({ name: 'node_chain_identity', indexes: [] })).find({});
  t.is(recorded.length, 1);
  t.like(recorded[0], { chainId: 31337, anchor: `0:${hash('a')}`, escrow: CONTRACTS.escrow.toLowerCase() });
});

test('another anchor block or another escrow is named in one sentence with the way out, and the record is kept', async (t) => {
  const store = new EmbeddedStore();
  await chainMismatch(store, chain({ 0: hash('a') }), now);
  const genesis = await chainMismatch(store, chain({ 0: hash('b') }), now);
  t.is(
    genesis,
    `The data in ./data was written against another chain than the one this node reaches (block 0 ${hash('a')} then, ${hash('b')} now): live payments are off. Way out: restore ./data/chain/state.json, or start with a data folder of its own for this chain (DATA_DIR=./data-new npm start), or point the node back at the chain the data was written against.`,
  );
  t.false(genesis!.includes('\n'));
  const moved = await chainMismatch(store, chain({ 0: hash('a') }, { ...CONTRACTS, escrow: '0x0000000000000000000000000000000000000001' }), now);
  t.regex(moved!, /\(escrow 0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0 then, 0x0000000000000000000000000000000000000001 now\)/);
  t.is(await chainMismatch(store, chain({ 0: hash('a') }), now), null, 'the first record still stands');
});

test('a chain that no longer holds any block the indexer last read is not the chain the data speaks of; one that holds the newest still is', async (t) => {
  const store = new EmbeddedStore();
  const state = await store.collection(indexerCollectionSpecs(31337).state);
  await state.insertOne({
    _id: 'cursor',
    block: { number: 12, hash: hash('c') },
    lastSequence: 40,
    recent: [
      { number: 11, hash: hash('d') },
      { number: 12, hash: hash('c') },
    ],
  });
  t.is(await chainMismatch(store, chain({ 0: hash('a'), 11: hash('d'), 12: hash('c') }), now), null);
  t.is(
    await chainMismatch(store, chain({ 0: hash('a'), 11: hash('d'), 12: hash('e') }), now),
    null,
    'a fork above a remembered block is the indexer’s to follow',
  );
  const lost = await chainMismatch(store, chain({ 0: hash('a'), 11: hash('f') }), now);
  t.regex(lost!, new RegExp(`\\(block 12 that the data indexed, ${hash('c')}, is not on this chain\\)`));
});
