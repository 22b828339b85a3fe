/**
 * `npm run bench`: prints each benchmark beside a baseline measured in the same run,
 * with their ratios. Traffic stays on loopback. Figures are recorded in docs/benchmarks.md.
 *
 * `npm run bench -- gateway order-list` runs only the benchmarks named (all without names);
 * a group's name (`issue42`) runs its benchmarks. Sizes come from the environment
 * (docs/benchmarks.md); BENCH_QUICK=1 shrinks issue 42's rows to a smoke run.
 */
import { cpus, totalmem } from 'node:os';
import { formatComparison } from './harness.js';
import { checkoutBenchmark, checkoutSettings, formatCheckout } from './checkout.js';
import { enclaveBenchmark } from './enclave.js';
import { formatGateway, gatewayBenchmark } from './gateway.js';
import { formatIndexer, indexerBenchmark } from './indexer.js';
import { formatOrderList, orderListBenchmark } from './order-list.js';
import { relayerBenchmark } from './relayer.js';
import { formatPayments, paymentsBenchmark } from './payments.js';
import { formatQuotes, quotesBenchmark } from './quotes.js';
import { formatPaymentRead, paymentReadBenchmark } from './payments-read.js';
import { embeddedTransport, natsTransport } from './transports.js';
import { durableStartup, durableWrites, formatStartup } from './durable-store.js';
import { formatWebhooks, webhooksBenchmark } from './webhooks.js';
import { formatOrderbook, orderbookBenchmark } from './orderbook.js';
import { formatOnChainFunding, formatPayouts, payoutFundingOnChain, payoutsBenchmark } from './payouts.js';
import { formatPayoutSettlement, payoutSettlementBenchmark } from './payout-settlement.js';
import {
  createBenchmark,
  formatCreate,
  formatHeap,
  formatHostedRead,
  formatRestart,
  formatSearch,
  formatTail,
  heapBenchmark,
  hostedReadBenchmark,
  oneNodeSettings,
  restartBenchmark,
  searchBenchmark,
  tailBenchmark,
} from './one-node.js';

const total = Number(process.env.BENCH_ASKS ?? 20_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const oneNode = oneNodeSettings();

const BENCHMARKS: Record<string, () => Promise<string>> = {
  embedded: async () => formatComparison(await embeddedTransport(total)),
  'embedded-durable': async () => formatComparison(await embeddedTransport(total, { durable: true })),
  nats: async () => formatComparison(await natsTransport(total)),
  gateway: async () => formatGateway(await gatewayBenchmark(seconds, Number(process.env.BENCH_GATEWAY_ROUNDS ?? 3))),
  'order-list': async () => formatOrderList(await orderListBenchmark(seconds)),
  'durable-writes': async () => formatComparison(await durableWrites(total)),
  'durable-startup': async () => formatStartup(await durableStartup(Number(process.env.BENCH_STARTUP_ORDERS ?? 100_000))),
  indexer: async () => formatIndexer(await indexerBenchmark(Number(process.env.BENCH_TRANSFERS ?? 10_000))),
  enclave: async () => formatComparison(await enclaveBenchmark(Number(process.env.BENCH_ATTESTATIONS ?? 2_000))),
  relayer: async () => formatComparison(await relayerBenchmark(Number(process.env.BENCH_SENDS ?? 300))),
  payments: async () =>
    formatPayments(await paymentsBenchmark(Number(process.env.BENCH_PAID_ORDERS ?? 64), Number(process.env.BENCH_PAYMENT_TRANSFERS ?? 300))),
  quotes: async () => formatQuotes(await quotesBenchmark(seconds, Number(process.env.BENCH_DEPOSITS ?? 1_000))),
  'payment-read': async () => formatPaymentRead(await paymentReadBenchmark(seconds)),
  webhooks: async () => formatWebhooks(await webhooksBenchmark(Number(process.env.BENCH_WEBHOOK_ORDERS ?? 1_000))),
  orderbook: async () => formatOrderbook(await orderbookBenchmark(seconds)),
  payouts: async () =>
    [
      formatPayouts(await payoutsBenchmark(seconds)),
      formatOnChainFunding(await payoutFundingOnChain(Number(process.env.BENCH_CHAIN_PAYOUTS ?? 20))),
      formatPayoutSettlement(await payoutSettlementBenchmark(Number(process.env.BENCH_SETTLED_PAYOUTS ?? 10))),
    ].join('\n\n'),
  'create-vs-postgres': async () => formatCreate(await createBenchmark(oneNode)),
  'hosted-read': async () => formatHostedRead(await hostedReadBenchmark(oneNode)),
  'heap-per-order': async () => formatHeap(await heapBenchmark(oneNode)),
  restart: async () => formatRestart(await restartBenchmark(oneNode)),
  'create-tail': async () => formatTail(await tailBenchmark(oneNode)),
  'search-all': async () => formatSearch(await searchBenchmark(oneNode)),
  checkout: async () => formatCheckout(await checkoutBenchmark(checkoutSettings())),
};

/** Names that stand for several benchmarks, in the order they run (the restart before the open loop adds to the big folder). */
const GROUPS: Record<string, string[]> = {
  issue42: ['create-vs-postgres', 'hosted-read', 'heap-per-order', 'restart', 'create-tail', 'search-all'],
};

const named = process.argv.slice(2).flatMap((name) => GROUPS[name] ?? [name]);
const unknown = named.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; known: ${[...Object.keys(BENCHMARKS), ...Object.keys(GROUPS)].join(', ')}`);
  process.exit(1);
}
console.log(
  `# Benchmarks\n\n${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${total} asks per level\n`,
);
for (const name of named.length > 0 ? named : Object.keys(BENCHMARKS)) {
  console.log(await BENCHMARKS[name]!());
  console.log('');
}
process.exit(0);
