/**
 * `npm run bench`: prints each benchmark beside a baseline measured in the same run,
 * with their ratios. Traffic stays on loopback. Figures are recorded in docs/benchmarks.md.
 */
import { cpus, totalmem } from 'node:os';
import { formatComparison } from './harness.js';
import { enclaveBenchmark } from './enclave.js';
import { formatGateway, gatewayBenchmark } from './gateway.js';
import { formatIndexer, indexerBenchmark } from './indexer.js';
import { formatOrderList, orderListBenchmark } from './order-list.js';
import { embeddedTransport, natsTransport } from './transports.js';
import { durableStartup, durableWrites, formatStartup } from './durable-store.js';

const total = Number(process.env.BENCH_ASKS ?? 20_000);
console.log(`# Benchmarks\n\n${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${total} asks per level\n`);
console.log(formatComparison(await embeddedTransport(total)));
console.log('');
console.log(formatComparison(await embeddedTransport(total, { durable: true })));
console.log('');
console.log(formatComparison(await natsTransport(total)));
console.log('');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
console.log(formatGateway(await gatewayBenchmark(seconds)));
console.log('');
console.log(formatOrderList(await orderListBenchmark(seconds)));
console.log('');
console.log(formatComparison(await durableWrites(total)));
console.log('');
console.log(formatStartup(await durableStartup(Number(process.env.BENCH_STARTUP_ORDERS ?? 100_000))));
console.log('');
console.log(formatIndexer(await indexerBenchmark(Number(process.env.BENCH_TRANSFERS ?? 10_000))));
console.log('');
console.log(formatComparison(await enclaveBenchmark(Number(process.env.BENCH_ATTESTATIONS ?? 2_000))));
process.exit(0);
