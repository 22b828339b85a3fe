/**
 * The indexer on a local anvil: how fast it turns a backlog of 10,000 USDC transfers
 * into facts (beside a bare getLogs and decode of the same logs in the same run),
 * and the lag from a mined block to its fact reaching a gRPC subscriber (beside the
 * poll interval, which bounds it).
 */
import { createWalletClient, encodeFunctionData, http, type Hex } from 'viem';
import { mockUSDCAbi } from '../../indexer/chain/artifacts/index.js';
import { decodeTransferLog, transferEvent } from '../../indexer/events.js';
import { alice, bob, mint, startTestChain, watch, type TestChain } from '../support/chain.js';
import type { ChainFact } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { percentile } from './harness.js';

export interface IndexerBench {
  transfers: number;
  factsPerSecond: number;
  decodePerSecond: number;
  pollMs: number;
  lagP50Ms: number;
  lagP99Ms: number;
  lagSamples: number;
}

const POLL_MS = 250;

/** Signs the transfers locally with explicit nonces and sends them in JSON-RPC batches while anvil holds them, then mines them. */
async function backlog(chain: TestChain, count: number): Promise<void> {
  await chain.client.request({ method: 'evm_setAutomine' as never, params: [false] as never });
  const sender = createWalletClient({ account: alice, chain: chain.local.chain, transport: http(chain.local.rpcUrl, { batch: { batchSize: 500 } }) });
  const nonce = await chain.client.getTransactionCount({ address: alice.address, blockTag: 'pending' });
  const data = encodeFunctionData({ abi: mockUSDCAbi, functionName: 'transfer', args: [bob.address, 1n] });
  const fees = { maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
  const raw: Hex[] = [];
  for (let i = 0; i < count; i++) {
    raw.push(
      await alice.signTransaction({ to: chain.local.usdc, data, nonce: nonce + i, gas: 80_000n, chainId: chain.local.chainId, type: 'eip1559', ...fees }),
    );
  }
  for (let i = 0; i < raw.length; i += 500)
    await Promise.all(raw.slice(i, i + 500).map((serialized) => sender.sendRawTransaction({ serializedTransaction: serialized })));
  while (Number(await chain.client.request({ method: 'txpool_status' as never }).then((status) => BigInt((status as { pending: Hex }).pending))) > 0) {
    await chain.client.request({ method: 'evm_mine' as never });
  }
  await chain.client.request({ method: 'evm_setAutomine' as never, params: [true] as never });
}

export async function indexerBenchmark(transfers = 10_000, lagSamples = 40): Promise<IndexerBench> {
  const chain = await startTestChain({ batchBlocks: 500 });
  try {
    await chain.indexer.stop();
    await mint(chain, alice.address, BigInt(transfers + lagSamples));
    const start = Number(await chain.client.getBlockNumber({ cacheTime: 0 }));
    await backlog(chain, transfers);
    const end = Number(await chain.client.getBlockNumber({ cacheTime: 0 }));

    // Baseline: fetch and decode the same logs, nothing stored.
    const t0 = performance.now();
    let decoded = 0;
    for (let from = start + 1; from <= end; from += 500) {
      const logs = await chain.client.getLogs({
        address: chain.local.usdc,
        event: transferEvent[0],
        fromBlock: BigInt(from),
        toBlock: BigInt(Math.min(end, from + 499)),
      });
      for (const log of logs) if (decodeTransferLog(log)) decoded++;
    }
    const decodeSeconds = (performance.now() - t0) / 1000;
    if (decoded !== transfers) throw new Error(`expected ${transfers} transfers on chain, decoded ${decoded}`);

    // The indexer over the backlog: bob is watched from before it, so every transfer is a fact.
    await chain.restartIndexer();
    const t1 = performance.now();
    await watch(chain, [bob.address], BigInt(start));
    while (chain.indexer.follower.lastSequence < transfers) {
      if (performance.now() - t1 > 300_000) throw new Error(`the indexer read ${chain.indexer.follower.lastSequence} of ${transfers} facts in 5 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const factSeconds = (performance.now() - t1) / 1000;

    const lags = await measureLag(chain, lagSamples);
    return {
      transfers,
      factsPerSecond: transfers / factSeconds,
      decodePerSecond: transfers / decodeSeconds,
      pollMs: POLL_MS,
      lagP50Ms: percentile(lags, 0.5),
      lagP99Ms: percentile(lags, 0.99),
      lagSamples: lags.length,
    };
  } finally {
    await chain.stop();
  }
}

/** Mines one transfer at a time and times the block's mining to its fact's arrival on a live stream. */
async function measureLag(chain: TestChain, samples: number): Promise<number[]> {
  await chain.restartIndexer({ pollMs: POLL_MS });
  const arrivals = new Map<string, number>();
  let notify: (() => void) | null = null;
  let after = BigInt(chain.indexer.follower.lastSequence);
  let done = false;
  let stream: ReturnType<typeof chain.grpc.streamFacts>;
  // A call can land on the connection to the indexer just replaced and be cancelled; a subscriber reopens from its cursor.
  const open = () => {
    stream = chain.grpc.streamFacts({ afterSequence: after, logEpoch: '' });
    stream.on('data', ({ fact }: { fact: ChainFact }) => {
      after = fact.sequence;
      arrivals.set(fact.transactionHash, performance.now());
      notify?.();
    });
    stream.on('error', () => {
      if (!done) setTimeout(open, 20);
    });
  };
  open();
  const sender = chain.local.walletFor(alice);
  const lags: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      // Off the poll's beat, so the samples spread over its interval.
      await new Promise((resolve) => setTimeout(resolve, (i * 37) % POLL_MS));
      const hash = await sender.writeContract({ address: chain.local.usdc, abi: mockUSDCAbi, functionName: 'transfer', args: [bob.address, 1n] });
      // Automine: the block exists once the transaction is accepted.
      const mined = performance.now();
      while (!arrivals.has(hash)) await new Promise<void>((resolve) => (notify = resolve));
      lags.push(arrivals.get(hash)! - mined);
    }
  } finally {
    done = true;
    stream!.cancel();
  }
  return lags.sort((a, b) => a - b);
}

export function formatIndexer(result: IndexerBench): string {
  return [
    '### Indexer on a local anvil',
    '',
    '| measure | value | baseline | ratio |',
    '|---|---:|---:|---:|',
    `| backlog of ${result.transfers.toLocaleString('en-US')} transfers, facts/s (baseline: getLogs and decode only) | ${Math.round(result.factsPerSecond).toLocaleString('en-US')} | ${Math.round(result.decodePerSecond).toLocaleString('en-US')} | ${(result.factsPerSecond / result.decodePerSecond).toFixed(2)} |`,
    `| mined block to gRPC subscriber, p50 ms (baseline: poll interval) | ${result.lagP50Ms.toFixed(1)} | ${result.pollMs} | ${(result.lagP50Ms / result.pollMs).toFixed(2)} |`,
    `| mined block to gRPC subscriber, p99 ms, ${result.lagSamples} samples | ${result.lagP99Ms.toFixed(1)} | ${result.pollMs} | ${(result.lagP99Ms / result.pollMs).toFixed(2)} |`,
  ].join('\n');
}
