/**
 * Run by the bench in a process of its own: one node as `npm start` boots it
 * (configuration from the environment with its defaults, LOG_LEVEL included, pino
 * to stdout, which the parent points at a file). In memory, so the rows measure the
 * gateway and the runtime rather than fsync; with BENCH_DURABLE=1 it opens the store
 * `npm start` does, the durable one over DATA_DIR. Sends its URL and its start-up
 * timings to the parent over IPC; SIGTERM drains it, which also writes a --cpu-prof
 * profile. BENCH_ABLATION takes its creates' persistence away (create-ablation.ts).
 * Tells its CPU time and its heap when asked.
 */
import { EmbeddedStore, createLogger } from '../../actors/index.js';
import { startNode } from '../../deploy/node.js';
import { configOrExit, stopOnSignal } from '../../deploy/process.js';
import type { NodeReady } from './bench-node.js';
import { answerCpuQueries } from './process-cpu.js';
import { answerHeapQueries } from './process-heap.js';
import { ablateCreates, createAblation } from './create-ablation.js';

const config = configOrExit();
const logger = createLogger({ level: config.LOG_LEVEL });
const starting = performance.now();
const node = await startNode({ config, logger, ...(process.env.BENCH_DURABLE === '1' ? {} : { store: new EmbeddedStore() }) });
const ready = performance.now();
const ablation = createAblation(process.env.BENCH_ABLATION);
if (ablation) ablateCreates(node.system, ablation);
stopOnSignal(logger, config.DRAIN_TIMEOUT_MS, () => node.stop());
answerCpuQueries();
answerHeapQueries();
process.send!({ url: node.url, sinceProcessStartMs: ready, startNodeMs: ready - starting } satisfies NodeReady & { url: string });
