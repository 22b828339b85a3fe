/**
 * `npm run enclave`: the attestation service on its own, gRPC on ENCLAVE_GRPC_ADDR and
 * HTTP on ENCLAVE_HTTP_PORT. Used payment ids live in MONGODB_URI's store (or the local
 * stand-in's, STANDIN_STORE_URL), or in an
 * embedded store on disk under DATA_DIR/enclave: a claim forgotten by a restart would let
 * one payment prove two intents. Chains come from ENCLAVE_CHAINS.
 */
import { join } from 'node:path';
import { EmbeddedStore, createLogger } from '../actors/index.js';
import { startEnclaveSide } from './enclave.js';
import { configOrExit, stopOnSignal } from './process.js';
import { openConfiguredStore } from './store.js';

const config = configOrExit('enclave');
const logger = createLogger({ level: config.LOG_LEVEL }).child({ service: 'enclave' });
if (config.NODE_ENV === 'production' && config.ENCLAVE_PLATFORMS === 'simulator') {
  logger.fatal('ENCLAVE_PLATFORMS must be live in production: simulated platforms prove no payment');
  process.exit(1);
}
const store = await openConfiguredStore(config, () => EmbeddedStore.open({ dataDir: join(config.DATA_DIR, 'enclave'), logger }));
const side = await startEnclaveSide(config, store, logger, {
  grpcAddress: config.ENCLAVE_GRPC_ADDR,
  httpHost: config.ENCLAVE_HTTP_HOST,
  httpPort: config.ENCLAVE_HTTP_PORT,
}).catch((error: unknown) => {
  logger.fatal({ err: error }, 'enclave failed to start');
  process.exit(1);
});
if (side.chains.chainIds().length === 0) logger.warn('ENCLAVE_CHAINS is empty: every payment and dispute request will be refused as UNSUPPORTED_CHAIN');
stopOnSignal(logger, config.DRAIN_TIMEOUT_MS, async () => {
  await side.stop();
  await store.close();
});
