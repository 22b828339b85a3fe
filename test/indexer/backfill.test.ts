/**
 * Backfills as jobs: a watch answers at once with its job, which reads the addresses' past
 * transfers beside live following with a cursor of its own, resumes after a failure or a
 * restart where it was, and covers an earlier block asked for by a second watch.
 * Serial: the tests restart indexers at the address they had.
 */
import test from 'ava';
import { Metadata } from '@grpc/grpc-js';
import type { PublicClient } from 'viem';
import type { Backfill, TransferHistoryResponse, WatchAddressesResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { eventually } from '../support/nats.js';
import { alice, carol, indexerCall, mine, mint, startIndexerWith, startTestChain, transfer, type GetLogsArgs, type TestChain } from '../support/chain.js';

const USDC = 1_000_000n;

const watchFrom = (chain: TestChain, address: string, fromBlock: bigint) =>
  indexerCall<WatchAddressesResponse>((options, done) => chain.grpc.watchAddresses({ addresses: [address], fromBlock }, new Metadata(), options, done));
const backfillOf = (chain: TestChain, backfillId: string) =>
  indexerCall<Backfill>((options, done) => chain.grpc.getBackfill({ backfillId }, new Metadata(), options, done));
const historyOf = (chain: TestChain, wallet: string) =>
  indexerCall<TransferHistoryResponse>((options, done) => chain.grpc.transferHistory({ wallet, limit: 0 }, new Metadata(), options, done));

/** The test chain's indexer restarted in batches of two blocks over a client whose getLogs `intercept` may answer instead (null: the chain answers). */
type Query = { args?: unknown; toBlock?: bigint };

async function restartWith(chain: TestChain, intercept: (args: Query) => ReturnType<PublicClient['getLogs']> | null) {
  await chain.indexer.stop();
  await startIndexerWith(chain, (args: GetLogsArgs, real) => intercept((args ?? {}) as Query) ?? real(args), { batchBlocks: 2 });
}

/** Six transfers to carol, nobody watching her, one block apart. */
async function carolsPast(chain: TestChain): Promise<bigint[]> {
  await mint(chain, alice.address, 100n * USDC);
  const amounts = [1n, 2n, 3n, 4n, 5n, 6n].map((n) => n * USDC);
  for (const amount of amounts) {
    await transfer(chain, alice, carol.address, amount);
    await mine(chain, 1);
  }
  return amounts;
}

test.serial('a watch answers at once with its backfill job, while the job’s reads are still held', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const amounts = await carolsPast(chain);
  await eventually(() => chain.indexer.follower.cursor.number >= Number(chain.local.deployBlock) + 10, 'the log caught up');
  const cursorAtWatch = BigInt(chain.indexer.follower.cursor.number);
  // The backfill's reads wait until the test lets them: the watch must answer without them.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  await restartWith(chain, (args) =>
    args.args !== undefined && args.toBlock !== undefined && args.toBlock <= cursorAtWatch
      ? (gate.then(() => chain.client.getLogs(args as never)) as never)
      : null,
  );

  const watched = await watchFrom(chain, carol.address, chain.local.deployBlock);
  t.deepEqual(watched.added, [carol.address]);
  t.regex(watched.backfillId, /^bf_/);
  t.like(await backfillOf(chain, watched.backfillId), { done: false, fromBlock: chain.local.deployBlock, addresses: [carol.address] });

  open();
  await mint(chain, carol.address, 7n * USDC);
  await eventually(async () => (await backfillOf(chain, watched.backfillId)).done, 'the backfill done');
  await eventually(async () => (await historyOf(chain, carol.address)).transfers.length === amounts.length + 1, 'the live transfer too');
  t.deepEqual(
    (await historyOf(chain, carol.address)).transfers.map((transfer) => BigInt(transfer.value)).sort((a, b) => Number(a - b)),
    [...amounts, 7n * USDC],
  );
});

test.serial('a backfill that fails half way resumes from its own cursor after a restart, and keeps each transfer once', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const amounts = await carolsPast(chain);
  await eventually(() => chain.indexer.follower.cursor.number >= Number(chain.local.deployBlock) + 10, 'the log caught up');
  const cursorAtWatch = BigInt(chain.indexer.follower.cursor.number);
  // After three batches the backfill's reads fail, as a node that died under it would leave it.
  let batches = 0;
  await restartWith(chain, (args) => {
    if (args.args === undefined || args.toBlock === undefined || args.toBlock > cursorAtWatch) return null;
    return ++batches > 6 ? Promise.reject(new Error('connect ECONNREFUSED')) : null;
  });
  const { backfillId } = await watchFrom(chain, carol.address, chain.local.deployBlock);
  await eventually(async () => batches > 6, 'the backfill failed half way');
  const halfWay = await backfillOf(chain, backfillId);
  t.false(halfWay.done);
  t.true(halfWay.nextBlock > halfWay.fromBlock, 'it kept the batches it read');
  t.is((await watchFrom(chain, carol.address, chain.local.deployBlock)).backfillId, '', 'a job reads those blocks already: no second one');

  await restartWith(chain, () => null);
  await eventually(async () => (await backfillOf(chain, backfillId)).done, 'resumed and done');
  const history = await historyOf(chain, carol.address);
  t.deepEqual(
    history.transfers.map((transfer) => BigInt(transfer.value)).sort((a, b) => Number(a - b)),
    amounts,
    'each transfer once',
  );
});

test.serial('watching an address again from an earlier block backfills what it had not read', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const amounts = await carolsPast(chain);
  await eventually(() => chain.indexer.follower.cursor.number >= Number(chain.local.deployBlock) + 10, 'the log caught up');
  const fromNow = await watchFrom(chain, carol.address, 0n);
  t.is(fromNow.backfillId, '', 'from now on: nothing to backfill');
  t.is((await historyOf(chain, carol.address)).transfers.length, 0);

  const again = await watchFrom(chain, carol.address, chain.local.deployBlock);
  t.deepEqual(again.added, [], 'watched already');
  t.regex(again.backfillId, /^bf_/);
  await eventually(async () => (await backfillOf(chain, again.backfillId)).done, 'the earlier range read');
  t.is((await historyOf(chain, carol.address)).transfers.length, amounts.length);
  t.is((await watchFrom(chain, carol.address, chain.local.deployBlock)).backfillId, '', 'read from there already: nothing more to do');
});
