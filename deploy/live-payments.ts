/**
 * The sides a node's live payments lean on, asked by LiveReadiness (live-readiness.ts):
 * the chain it sends on, the indexer whose facts settle a payment, and on fiat rails the
 * attestation service that verifies the customer's proof. Null on a node that takes no
 * live payment and has no standing reason to give.
 */
import type { Logger } from 'pino';
import type { EnclaveClient } from '../actors/adapters/enclave/index.js';
import type { PaymentChain } from '../machines/payment/index.js';
import type { ChainSide, IndexedChain } from './chain.js';
import { LiveReadiness, type ReadinessProbe } from './live-readiness.js';

/** Each side answers within this or misses the round. */
const PROBE_DEADLINE_MS = 2_000;
/** How often the sides are asked. */
const PROBE_EVERY_MS = 2_000;
/**
 * A side that misses this many rounds in a row is silent: a node knows of a silent side within
 * about 6 s, and a slow answer on a busy machine refuses no payment.
 */
const SILENT_AFTER_ROUNDS = 2;

export interface LiveSides {
  chain: ChainSide | null;
  opened: IndexedChain | null;
  enclaveClient: EnclaveClient | null;
  /** Where live payments settle; null on a node that takes sandbox payments only. */
  payments: PaymentChain | null;
  /** The node's data was written against another chain (chain-identity.ts). */
  problem: string | null;
  logger: Logger;
}

export function liveReadinessOf(sides: LiveSides): LiveReadiness | null {
  const common = { deadlineMs: PROBE_DEADLINE_MS, everyMs: PROBE_EVERY_MS, silentAfter: SILENT_AFTER_ROUNDS, logger: sides.logger };
  if (sides.problem) return new LiveReadiness({ ...common, probes: [], standing: sides.problem });
  const { chain, opened, enclaveClient } = sides;
  if (!sides.payments || !chain || !opened) return null;
  const probes: ReadinessProbe[] = [
    { name: 'the chain', rails: ['fiat', 'crypto'], ask: async () => void (await opened.client.getBlockNumber({ cacheTime: 0 })) },
    {
      name: 'the chain indexer',
      rails: ['fiat', 'crypto'],
      ask: async () => {
        const health = await chain.indexerHealth();
        if (!health.serving) throw new Error(health.reason ?? 'not serving');
      },
    },
  ];
  if (enclaveClient) probes.push({ name: 'the attestation service', rails: ['fiat'], ask: () => enclaveClient.checkDocument() });
  return new LiveReadiness({ ...common, probes });
}
