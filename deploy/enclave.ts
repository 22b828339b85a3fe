/**
 * The attestation service by configuration: the enclave opened under a key-management
 * policy for this bundle's measurement, the platforms it reads (the local simulator and
 * its DKIM keys, or the live hosts and DNS), the store its used payment ids live in,
 * and its gRPC and HTTP servers.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Address } from 'viem';
import type { Config, Store } from '../actors/index.js';
import {
  AttestationService,
  ChainRegistry,
  Enclave,
  LocalKeyManagement,
  SELLER_CREDENTIALS_COLLECTION,
  USED_PAYMENT_IDS_COLLECTION,
  UsedPaymentIds,
  measureBundle,
  platformClient,
  startEnclaveServer,
  type RunningEnclave,
  type AttestationProducer,
  type SellerCredentialDocument,
  type UsedPaymentIdDocument,
} from '../enclave/index.js';
import { DisputeMailer, PlatformSimulator } from '../enclave/simulator/index.js';

export interface EnclaveSide {
  service: AttestationService;
  server: RunningEnclave;
  /** The chains attestations are signed for; the node adds its local chain. */
  chains: ChainRegistry;
  /** The stand-ins, when ENCLAVE_PLATFORMS is simulator. */
  simulator: PlatformSimulator | null;
  mailer: DisputeMailer | null;
  stop(): Promise<void>;
}

export interface EnclaveListen {
  grpcAddress: string;
  httpHost: string;
  httpPort: number;
}

/** What tests set that configuration does not. */
export interface EnclaveOverrides {
  now?: () => number;
  /** Instead of ENCLAVE_CHAINS. */
  chains?: ChainRegistry;
  platformTimeoutMs?: number;
  /** Hardware that vouches for the enclave (a Nitro module); absent, the software measurement of this bundle. */
  producer?: AttestationProducer;
}

export async function startEnclaveSide(
  config: Config,
  store: Store,
  logger: Logger,
  listen: EnclaveListen,
  overrides: EnclaveOverrides = {},
): Promise<EnclaveSide> {
  const log = logger.child({ component: 'enclave' });
  const keyWrappingKey = config.ENCLAVE_KEY_WRAPPING_KEY ? Buffer.from(config.ENCLAVE_KEY_WRAPPING_KEY, 'base64') : randomBytes(32);
  const enclave = await Enclave.open({
    keyManagement: new LocalKeyManagement(keyWrappingKey),
    ...(overrides.producer ? { producer: overrides.producer } : { measurement: await measureBundle() }),
    ...(config.ENCLAVE_WRAPPED_KEY ? { wrappedKey: config.ENCLAVE_WRAPPED_KEY } : {}),
  });
  keyWrappingKey.fill(0);
  if (!config.ENCLAVE_KEY_WRAPPING_KEY) {
    log.warn({ signer: enclave.signer }, 'no ENCLAVE_KEY_WRAPPING_KEY: this signing key lives only as long as the process');
  } else if (!config.ENCLAVE_WRAPPED_KEY) {
    // Ciphertext only: without the key-wrapping key and this measurement it opens nothing.
    log.warn({ signer: enclave.signer, wrappedKey: enclave.wrappedKey }, 'new signing key made: keep wrappedKey as ENCLAVE_WRAPPED_KEY');
  }

  let simulator: PlatformSimulator | null = null;
  let mailer: DisputeMailer | null = null;
  if (config.ENCLAVE_PLATFORMS === 'simulator') {
    simulator = await PlatformSimulator.start();
    mailer = new DisputeMailer();
    log.info({ simulator: simulator.url }, 'payment platforms simulated');
  }
  const chains = overrides.chains ?? new ChainRegistry(config.ENCLAVE_CHAINS ?? {});
  const service = new AttestationService({
    enclave,
    chains,
    platforms: platformClient({
      ...(simulator ? { baseUrl: (platform: string) => simulator.baseUrl(platform) } : {}),
      ...(overrides.platformTimeoutMs ? { timeoutMs: overrides.platformTimeoutMs } : {}),
    }),
    usedPaymentIds: new UsedPaymentIds(await store.collection<UsedPaymentIdDocument>(USED_PAYMENT_IDS_COLLECTION)),
    sellerCredentials: await store.collection<SellerCredentialDocument>(SELLER_CREDENTIALS_COLLECTION),
    proofAttestors: config.ENCLAVE_PROOF_ATTESTORS as Address[],
    ...(config.ENCLAVE_TIMESTAMP_BUFFERS ? { timestampBuffers: config.ENCLAVE_TIMESTAMP_BUFFERS } : {}),
    ...(config.ENCLAVE_PENALTIES ? { penalties: config.ENCLAVE_PENALTIES } : {}),
    ...(mailer ? { dkimResolver: mailer.resolver } : {}),
    logger: log,
    ...(overrides.now ? { now: overrides.now } : {}),
  });
  let server: RunningEnclave;
  try {
    server = await startEnclaveServer({ service, logger: log, ...listen });
  } catch (error) {
    await simulator?.stop();
    throw error;
  }
  return {
    service,
    server,
    chains,
    simulator,
    mailer,
    async stop() {
      await server.stop();
      await simulator?.stop();
    },
  };
}
