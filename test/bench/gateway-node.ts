/**
 * Run by gateway.ts in a process of its own: one node as `npm start` boots it
 * (configuration from the environment with its defaults, LOG_LEVEL included, pino
 * to stdout, which the parent points at a file), on the in-memory embedded store so
 * the rows measure the gateway and the runtime rather than fsync. Sends its URL to
 * the parent over IPC; SIGTERM drains it, which also writes a --cpu-prof profile.
 * BENCH_ABLATION takes its creates' persistence away (create-ablation.ts).
 */
import { EmbeddedStore, createLogger } from '../../actors/index.js';
import { startNode } from '../../deploy/node.js';
import { configOrExit, stopOnSignal } from '../../deploy/process.js';
import { answerCpuQueries } from './process-cpu.js';
import { ablateCreates, createAblation } from './create-ablation.js';

const config = configOrExit();
const logger = createLogger({ level: config.LOG_LEVEL });
const node = await startNode({ config, logger, store: new EmbeddedStore() });
const ablation = createAblation(process.env.BENCH_ABLATION);
if (ablation) ablateCreates(node.system, ablation);
stopOnSignal(logger, config.DRAIN_TIMEOUT_MS, () => node.stop());
answerCpuQueries();
process.send!({ url: node.url });
