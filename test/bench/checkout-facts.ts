/**
 * The cluster's chain-facts reader under a checkout run: one reader per cluster takes the
 * indexer's facts one at a time (actors/chain/fact-follower.ts), so every payment's
 * settlement waits behind every fact logged before it. Sampled every 100 ms from the
 * shared store: the indexer's last fact and the reader's cursor, whose difference is the
 * facts logged and not yet taken.
 */
import { loadConfig, type Store } from '../../actors/index.js';
import type { LocalCluster } from '../../deploy/cluster/index.js';
import { openConfiguredStore } from '../../deploy/store.js';
import { indexerCollectionSpecs } from '../../indexer/fact-store.js';

const SAMPLE_MS = 100;

export interface FactBacklog {
  /** Facts the indexer logged over the run, and those the reader took. */
  logged: number;
  taken: number;
  seconds: number;
  /** Facts logged and not yet taken: the largest and the median of the samples. */
  maxBacklog: number;
  medianBacklog: number;
}

export async function sampleFactBacklog(cluster: LocalCluster): Promise<{ stop: () => Promise<FactBacklog> }> {
  const store: Store = await openConfiguredStore(loadConfig({ STANDIN_STORE_URL: cluster.store.url }), async () => {
    throw new Error('the cluster has no store');
  });
  const facts = await store.collection<{ _id: string; sequence: number }>(indexerCollectionSpecs(cluster.chain.chainId).facts);
  const cursors = await store.collection<{ _id: string; afterSequence: number }>({ name: 'chain_cursors', indexes: [] });
  const read = async () => {
    const [last, cursor] = await Promise.all([facts.findOne({}, { sort: { sequence: -1 } }), cursors.find({})]);
    return { logged: last?.sequence ?? 0, taken: Math.max(0, ...cursor.map((doc) => doc.afterSequence)) };
  };
  const first = await read();
  const startedAt = Date.now();
  const backlogs: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const now = await read();
      backlogs.push(now.logged - now.taken);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const end = await read();
      await store.close();
      backlogs.sort((a, b) => a - b);
      return {
        logged: end.logged - first.logged,
        taken: end.taken - first.taken,
        seconds: (Date.now() - startedAt) / 1000,
        maxBacklog: backlogs.at(-1) ?? 0,
        medianBacklog: backlogs[Math.floor(backlogs.length / 2)] ?? 0,
      };
    },
  };
}
