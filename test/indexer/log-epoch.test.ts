/**
 * The fact log's identity: an epoch made when the log is created, carried on every
 * streamed fact and in GetStatus, so a cursor from another log is refused rather than
 * silently read as if it counted here.
 */
import test from 'ava';
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { openIndexerCollections } from '../../deploy/chain.js';
import type { GetStatusResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { alice, indexerCall, mint, readFacts, startTestChain, watch, type TestChain } from '../support/chain.js';

const USDC = 1_000_000n;

const epochOf = async (chain: TestChain) =>
  (await indexerCall<GetStatusResponse>((options, done) => chain.grpc.getStatus({}, new Metadata(), options, done))).logEpoch;

/** How a StreamFacts call with this cursor ends: the first fact, or the error. */
function firstOf(chain: TestChain, afterSequence: number, logEpoch: string): Promise<{ sequence: bigint; logEpoch: string } | ServiceError> {
  return new Promise((resolve) => {
    const stream = chain.grpc.streamFacts({ afterSequence: BigInt(afterSequence), logEpoch });
    stream.on('data', ({ fact }) => {
      stream.cancel();
      resolve(fact);
    });
    stream.on('error', (error: ServiceError) => {
      if (error.code !== GrpcStatus.CANCELLED) resolve(error);
    });
  });
}

test('every fact carries the log’s epoch, which a restart keeps; a cursor of another log is FAILED_PRECONDITION', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  await watch(chain, [alice.address]);
  await mint(chain, alice.address, USDC);
  await mint(chain, alice.address, 2n * USDC);

  const epoch = await epochOf(chain);
  t.regex(epoch, /^[0-9a-f-]{36}$/);
  const facts = await readFacts(chain, 0, 2);
  t.deepEqual(
    facts.map((fact) => fact.logEpoch),
    [epoch, epoch],
  );
  t.like(await firstOf(chain, 1, epoch), { sequence: 2n, logEpoch: epoch }, 'the same log: resumed after the cursor');

  await chain.restartIndexer();
  t.is(await epochOf(chain), epoch, 'a restart over the same log keeps its identity');

  const other = await firstOf(chain, 1, 'a-log-this-indexer-never-had');
  t.like(other, { code: GrpcStatus.FAILED_PRECONDITION });
  t.regex(
    (other as ServiceError).details,
    new RegExp(`this fact log is ${epoch}; the cursor counts in a-log-this-indexer-never-had: start over from sequence 0`),
  );

  await chain.replaceLog(Number(await chain.client.getBlockNumber({ cacheTime: 0 })) + 1);
  t.not(await epochOf(chain), epoch, 'a new log is another log');
});

test('a log written before epochs gets one on its next start, and keeps it', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  await chain.indexer.stop();
  const { state } = await openIndexerCollections(chain.store, chain.local.chainId);
  const cursor = (await state.findOne({ _id: 'cursor' }))!;
  const { epoch: _dropped, ...before } = cursor;
  await state.replaceOne({ _id: 'cursor' }, before);

  await chain.restartIndexer();
  const given = await epochOf(chain);
  t.regex(given, /^[0-9a-f-]{36}$/);
  await chain.restartIndexer();
  t.is(await epochOf(chain), given);
});
