/**
 * Serial: each test restarts its indexer at the address it had, which a test beside it
 * starting an indexer on a free port could take meanwhile.
 *
 * How the follower reads a real chain's logs: filtered by topic at the RPC, in smaller
 * ranges when a provider refuses one for its size, up to the chain's safe block when
 * asked, never from a backend behind the chain, and saying when it no longer keeps the
 * log current (gRPC health and GetStatus).
 */
import test from 'ava';
import { Metadata } from '@grpc/grpc-js';
import { LimitExceededRpcError, RpcRequestError } from 'viem';
import type { FollowerHealth } from '../../indexer/follower.js';
import { INDEXER_SERVICE_NAME, type IndexerOptions } from '../../indexer/indexer-server.js';
import { isRangeRefusal } from '../../indexer/range-refusal.js';
import type { GetStatusResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { healthOf } from '../support/grpc-health.js';
import { eventually } from '../support/nats.js';
import {
  alice,
  bob,
  carol,
  createDeposit,
  indexerCall,
  mine,
  mint,
  readFacts,
  startIndexerWith,
  startTestChain,
  transfer,
  watch,
  type GetLogsArgs,
  type TestChain,
} from '../support/chain.js';

const USDC = 1_000_000n;

type Intercept = Parameters<typeof startIndexerWith>[1];

/** The test chain's indexer, restarted over a client whose getLogs `intercept` wraps. */
async function withGetLogs(chain: TestChain, intercept: Intercept, options: Partial<IndexerOptions> = {}) {
  await chain.indexer.stop();
  await startIndexerWith(chain, intercept, options);
}

const refusal = () =>
  new LimitExceededRpcError(
    new RpcRequestError({ body: {}, url: 'http://127.0.0.1', error: { code: -32005, message: 'query returned more than 10000 results' } }),
  );

const status = (chain: TestChain) => indexerCall<GetStatusResponse>((options, done) => chain.grpc.getStatus({}, new Metadata(), options, done));

test.serial('USDC transfers are chosen by the RPC through their topics: no query asks for every transfer of the token', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const usdcQueries: GetLogsArgs[] = [];
  await withGetLogs(chain, (args, real) => {
    if (args?.address === chain.local.usdc) usdcQueries.push(args);
    return real(args);
  });
  await watch(chain, [alice.address]);
  await mint(chain, bob.address, 50n * USDC);
  for (let i = 0; i < 5; i++) await transfer(chain, bob, carol.address, USDC);
  await mint(chain, alice.address, 3n * USDC);
  await transfer(chain, alice, bob.address, USDC);

  const facts = await readFacts(chain, 0, 2);
  t.deepEqual(
    facts.map((fact) => fact.event?.value),
    [
      { from: '0x0000000000000000000000000000000000000000', to: alice.address, value: (3n * USDC).toString() },
      { from: alice.address, to: bob.address, value: USDC.toString() },
    ],
  );
  t.true(usdcQueries.length > 0);
  t.true(
    usdcQueries.every((args) => {
      const filter = (args as { args?: { from?: unknown; to?: unknown } }).args;
      return Array.isArray(filter?.from) !== Array.isArray(filter?.to);
    }),
    'each names the watched addresses as senders or as receivers',
  );
});

test.serial('a range the provider refuses for its size is read again in halves, and nothing is lost', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  await watch(chain, [alice.address]);
  // Eight transfers to alice over some twenty blocks while the indexer is down: it then reads them in one range of up to 50 blocks.
  await chain.indexer.stop();
  for (let i = 1n; i <= 8n; i++) {
    await mint(chain, alice.address, i * USDC);
    await mine(chain, 2);
  }
  let refused = 0;
  await startIndexerWith(
    chain,
    (args, real) => {
      const { fromBlock, toBlock } = args as { fromBlock?: bigint; toBlock?: bigint };
      // A query of one block by its hash has no range to refuse.
      if (fromBlock === undefined || toBlock === undefined || toBlock - fromBlock <= 2n) return real(args);
      refused++;
      return Promise.reject(refusal());
    },
    { batchBlocks: 50 },
  );
  const facts = await readFacts(chain, 0, 8);
  t.deepEqual(
    facts.map((fact) => (fact.event!.value as { value: string }).value),
    [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n].map((i) => (i * USDC).toString()),
  );
  t.true(refused > 0, 'the provider did refuse the whole range');
});

test.serial('a refusal is told from other failures by its code or its words', (t) => {
  t.true(isRangeRefusal(refusal()));
  t.true(
    isRangeRefusal(
      new RpcRequestError({ body: {}, url: 'http://127.0.0.1', error: { code: -32602, message: 'eth_getLogs block range too large, range: 5000, max: 2000' } }),
    ),
  );
  t.false(isRangeRefusal(new RpcRequestError({ body: {}, url: 'http://127.0.0.1', error: { code: -32000, message: 'header not found' } })));
  t.false(isRangeRefusal(new Error('query returned more than 10000 results')), 'only what viem reports from a provider');
});

test.serial('the indexer says NOT_SERVING, with the reason in GetStatus, while its reads keep failing, and SERVING once they pass', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  let failing = false;
  await withGetLogs(chain, (args, real) => (failing ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:8545')) : real(args)));
  t.is(await healthOf(chain.indexer.address, INDEXER_SERVICE_NAME), 'SERVING');

  failing = true;
  await mine(chain, 1);
  await eventually(async () => (await healthOf(chain.indexer.address, INDEXER_SERVICE_NAME)) === 'NOT_SERVING', 'NOT_SERVING');
  const down = await status(chain);
  t.false(down.serving);
  t.regex(down.notServingReason, /reads failed in a row: connect ECONNREFUSED/);
  t.is(await healthOf(chain.indexer.address, ''), 'NOT_SERVING');

  failing = false;
  await eventually(async () => (await healthOf(chain.indexer.address, INDEXER_SERVICE_NAME)) === 'SERVING', 'SERVING again');
  const up = await status(chain);
  t.true(up.serving);
  t.is(up.notServingReason, '');
});

test.serial('a follower that trails the chain by more than allowed is not serving until it catches up', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  await withGetLogs(chain, (args, real) => real(args), { batchBlocks: 1, maxLagBlocks: 3 });
  const seen: FollowerHealth[] = [];
  chain.indexer.follower.onHealthChange((health) => seen.push(health));
  await mine(chain, 20);
  await eventually(() => seen.length >= 2, 'behind, then caught up');
  t.false(seen[0]!.serving);
  t.regex(seen[0]!.reason!, /confirmed blocks behind the chain \(at most 3\)/);
  t.true(seen[0]!.lagBlocks > 3);
  t.like(seen.at(-1), { serving: true, reason: null });
});

test.serial('with finality `safe`, a block’s facts are taken once the chain tags it safe, not at the head', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  await withGetLogs(chain, (args, real) => real(args), { finality: 'safe' });
  await watch(chain, [alice.address]);
  await mint(chain, alice.address, 7n * USDC);
  const minted = await chain.client.getBlockNumber({ cacheTime: 0 });
  await mine(chain, 10);
  // anvil's safe block is 32 under the head: this one is not safe yet.
  await eventually(async () => (await status(chain)).headBlock >= minted + 10n, 'the follower saw the new head');
  const seen = await status(chain);
  t.true(seen.cursorBlock < minted, `nothing above the safe block is taken (cursor ${seen.cursorBlock}, head ${seen.headBlock}, minted ${minted})`);
  await mine(chain, 32);
  const [fact] = await readFacts(chain, 0, 1);
  t.is(fact!.blockNumber, minted);
});

test.serial('a range answered by a backend behind the chain is not taken: its facts come once the backend has the block', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  let lagging = false;
  // Behind a balancer: ranges are answered by a backend without the newest blocks (no logs), hashes by one that has them.
  await withGetLogs(chain, (args, real) => (lagging && (args as { toBlock?: bigint }).toBlock !== undefined ? Promise.resolve([]) : real(args)));
  await mint(chain, alice.address, 30n * USDC);
  lagging = true;
  await createDeposit(chain, alice, 30n * USDC);
  await mine(chain, 2);
  await eventually(async () => !(await status(chain)).serving, 'the follower refuses the lagging answers');
  t.regex((await status(chain)).notServingReason, /an RPC backend behind the chain answered it/);

  lagging = false;
  const [fact] = await readFacts(chain, 0, 1);
  t.is(fact!.event?.$case, 'depositReceived', 'the deposit was not dropped with the lagging answer');
});
