/**
 * What the indexer keeps: the fact log, its cursor and the watched addresses. The
 * indexer sits beside the actor runtime rather than on it, so it declares the
 * MongoDB-shaped calls it needs and takes any store that answers them (the
 * platform's embedded or MongoDB store fits, see deploy/).
 */
export type Filter = Record<string, unknown>;

export interface IndexerDocument {
  _id: string;
  [field: string]: unknown;
}

export interface IndexerCollection<T extends IndexerDocument> {
  findOne(filter: Filter, options?: { sort?: Record<string, 1 | -1> }): Promise<T | null>;
  find(filter: Filter, options?: { sort?: Record<string, 1 | -1>; limit?: number }): Promise<T[]>;
  insertOne(doc: T): Promise<void>;
  replaceOne(filter: Filter, doc: T): Promise<boolean>;
  updateOne(filter: Filter, update: { $set: Record<string, unknown> }): Promise<boolean>;
}

export interface IndexerCollectionSpec {
  name: string;
  indexes: { key: Record<string, 1 | -1>; name?: string; unique?: boolean }[];
}

/** A fact as stored: the ChainFact in its proto JSON form, plus the fields queries need. */
export interface FactDocument extends IndexerDocument {
  /** The fact's id, or `<id>:retracted` for its retraction. */
  sequence: number;
  blockNumber: number;
  blockHash: string;
  /** On an original fact: whether it has since been retracted. */
  retracted: boolean;
  isRetraction: boolean;
  /** What the fact is about (proto/fact-subjects.ts): how lookups find a deposit's or an intent's facts. */
  subjects?: string[];
  /** Lower-case, for transfers: so history finds a wallet however it is spelled. */
  from?: string;
  to?: string;
  fact: unknown;
}

export interface BlockMark {
  number: number;
  hash: string;
}

export interface CursorDocument extends IndexerDocument {
  /** The last block whose facts are all in the log. */
  block: BlockMark;
  lastSequence: number;
  /** Recent processed blocks, oldest first, to find where a re-organisation forked. */
  recent: BlockMark[];
  /** The log's identity, made when it was created (absent in a log created before epochs: the next start gives it one). */
  epoch?: string;
}

export interface WatchedDocument extends IndexerDocument {
  /** The block from which its transfers are in the log: lowered when a backfill of it completes. */
  fromBlock: number;
}

/** A backfill of some watched addresses' past transfers, resumable from `nextBlock`. */
export interface BackfillDocument extends IndexerDocument {
  addresses: string[];
  fromBlock: number;
  toBlock: number;
  /** The first block not read yet: the job's own cursor. */
  nextBlock: number;
  status: 'RUNNING' | 'DONE';
  /** Unix milliseconds. */
  createdAt: number;
}

export interface IndexerCollections {
  facts: IndexerCollection<FactDocument>;
  state: IndexerCollection<CursorDocument>;
  watched: IndexerCollection<WatchedDocument>;
  backfills: IndexerCollection<BackfillDocument>;
}

/** The collections and their indexes, for whoever opens them on a store. */
export function indexerCollectionSpecs(chainId: number): Record<keyof IndexerCollections, IndexerCollectionSpec> {
  // One set per chain, so one store can hold the logs of several chains.
  const prefix = `indexer_${chainId}`;
  return {
    facts: {
      name: `${prefix}_facts`,
      indexes: [
        { key: { sequence: 1 }, name: 'fact_by_sequence', unique: true },
        { key: { blockNumber: 1 }, name: 'fact_by_block' },
        { key: { from: 1, blockNumber: -1 }, name: 'transfer_by_sender' },
        { key: { to: 1, blockNumber: -1 }, name: 'transfer_by_recipient' },
        { key: { subjects: 1, sequence: 1 }, name: 'fact_by_subject' },
      ],
    },
    state: { name: `${prefix}_state`, indexes: [] },
    watched: { name: `${prefix}_watched`, indexes: [] },
    backfills: { name: `${prefix}_backfills`, indexes: [{ key: { status: 1, createdAt: 1 }, name: 'backfill_by_status' }] },
  };
}
