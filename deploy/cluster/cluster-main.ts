/**
 * `npm run cluster`: the whole topology on this machine (local-cluster.ts), behind HAProxy
 * on CLUSTER_PORT (8080 unless set). It uses MONGODB_URI when set; without it, the local
 * stand-in for MongoDB, which keeps everything in memory for as long as this runs. Logs
 * and JetStream folders go to a fresh folder under the system's temporary folder (or
 * CLUSTER_DIR). Ctrl-C stops every process: the nodes drain first.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../actors/index.js';
import { LocalCluster } from './local-cluster.js';

const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'info' }).child({ service: 'cluster' });
if (process.env.NODE_ENV === 'production') {
  logger.fatal(
    'npm run cluster is a local cluster for development: it runs a local chain, simulated payment platforms and, without MONGODB_URI, a stand-in for MongoDB',
  );
  process.exit(1);
}
const folder = process.env.CLUSTER_DIR ?? mkdtempSync(join(tmpdir(), 'peer-cluster-'));
const port = Number(process.env.CLUSTER_PORT ?? '8080');
const cluster = await LocalCluster.start({ folder, logger, port, ...(process.env.MONGODB_URI ? { mongodbUri: process.env.MONGODB_URI } : {}) }).catch(
  (error: unknown) => {
    logger.fatal({ err: error }, 'the cluster failed to start');
    process.exit(1);
  },
);

const merchant = await fetch(`${cluster.url}/internal/v1/merchants`, {
  method: 'POST',
  headers: { authorization: `Bearer ${cluster.adminToken}`, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Demo Store', tier: 'BASE', evmWalletAddress: cluster.makers[0]?.maker ?? '0x1111111111111111111111111111111111111111' }),
});
const demo = merchant.ok ? ((await merchant.json()) as { responseObject: { liveApiKey: string; sandboxApiKey: string } }).responseObject : null;

// Keys are for the person at the terminal: written to stderr as text, never into the logs.
process.stderr.write(
  [
    '',
    `Local cluster: ${cluster.url} (HAProxy in front of ${cluster.nodes.length} nodes)`,
    ...cluster.nodes.map((node) => `  ${node.name}: ${node.url}   metrics http://127.0.0.1:${node.metricsPort}/metrics`),
    `  NATS: ${cluster.nats.url} (JetStream, 3 servers)`,
    cluster.store.kind === 'stand-in'
      ? `  Store: ${cluster.store.url} (a LOCAL STAND-IN for MongoDB: in memory, unreplicated, gone when this stops; set MONGODB_URI for a real one)`
      : '  Store: MONGODB_URI',
    `  Indexer: ${cluster.indexer.address}   Chain: ${cluster.chain.rpcUrl} (anvil, chain ${cluster.chain.chainId})`,
    `  Attestation service: ${cluster.enclave.server.httpUrl}`,
    `  Logs: ${folder}`,
    `  Admin token: ${cluster.adminToken}`,
    ...(demo
      ? [`  Demo merchant: live key ${demo.liveApiKey}, sandbox key ${demo.sandboxApiKey}`]
      : ['  (the demo merchant could not be opened; see the node logs)']),
    '',
    `Try: curl -s ${cluster.url}/v1/health-check | jq`,
    '',
  ].join('\n'),
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping the cluster');
    cluster.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'the cluster did not stop cleanly');
        process.exit(1);
      },
    );
  });
}
