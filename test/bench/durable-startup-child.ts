/**
 * Run by durable-store.ts in a fresh process, as a restarted node is: opens the data
 * folder in argv[2], starts a node over it and prints the timings as one JSON line.
 */
import { EmbeddedStore } from '../../actors/index.js';
import { startTestGateway } from '../support/gateway.js';

const [dataDir, merchantId] = process.argv.slice(2) as [string, string];
const started = performance.now();
const store = await EmbeddedStore.open({ dataDir });
const opened = performance.now();
const gateway = await startTestGateway({}, { store });
const ready = performance.now();
const page = await gateway.node.system
  .documents('order')
  .find({ 'view.merchantId': merchantId, 'view.environment': 'LIVE' }, { sort: { 'view.createdAt': -1, _id: -1 }, limit: 20 });
const firstPage = performance.now();
await gateway.stop();
await store.close();
process.stdout.write(`${JSON.stringify({ openMs: opened - started, nodeReadyMs: ready - started, firstPageMs: firstPage - ready, page: page.length })}\n`);
