/**
 * Which chain a node's data was written against. The store remembers the chain it first
 * met (its id, its anchor block, where our contracts are); a node that reaches another
 * one (a fresh local chain over an old data folder, CHAIN_RPC_URL moved to another
 * network) would read facts, nonces and deposits that are not there and wait forever on
 * transactions that cannot mine, so it is told, in one sentence naming the way out, and
 * takes no live payment. The indexer's cursor is checked too: a chain that lost the
 * blocks the store already indexed (its state saved before they were mined) is not the
 * chain the data speaks of either.
 */
import { BlockNotFoundError, type PublicClient } from 'viem';
import { DuplicateKeyError, type Store, type StoredDocument } from '../actors/index.js';
import type { ChainContracts } from '../indexer/follower.js';
import { indexerCollectionSpecs, type CursorDocument } from '../indexer/fact-store.js';

interface IdentityDocument {
  _id: string;
  chainId: number;
  /** `<number>:<hash>` of the anchor block (ReachedChain.anchorBlock). */
  anchor: string;
  usdc: string;
  escrow: string;
  orchestrator: string;
  recordedAt: string;
  [field: string]: unknown;
}

const IDENTITY_ID = 'chain';
const IDENTITY_COLLECTION = { name: 'node_chain_identity', indexes: [] };

/** Whether the store remembers a chain: its data was written against one. */
export async function recordedChain(store: Store): Promise<boolean> {
  const identities = await store.collection<IdentityDocument>(IDENTITY_COLLECTION);
  return (await identities.findOne({ _id: IDENTITY_ID })) !== null;
}

/** What a node met, to compare with what its data was written against. */
export interface ReachedChain {
  client: PublicClient;
  contracts: ChainContracts;
  /**
   * The block whose hash names the chain: the genesis of a real chain; on a local chain the
   * block our contracts were deployed in, since anvil does not keep its genesis block the same
   * across loads of its state (seen on anvil 1.7.1), while it keeps every block after it.
   */
  anchorBlock: bigint;
  /** How to say where the data lives, for the way out: the data folder or the database. */
  dataPlace: string;
  /** What would bring the old chain back, when there is one to restore (the local chain's state file). */
  restore?: string;
}

/**
 * Null when the chain is the one the data was written against (and, on first meeting, records
 * it); otherwise one sentence saying what differs and the way out.
 */
export async function chainMismatch(store: Store, reached: ReachedChain, now: () => string): Promise<string | null> {
  const { client, contracts } = reached;
  const anchor = await client.getBlock({ blockNumber: reached.anchorBlock }).catch((error: unknown) => {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  });
  const met: IdentityDocument = {
    _id: IDENTITY_ID,
    chainId: contracts.chainId,
    anchor: `${reached.anchorBlock}:${anchor?.hash ?? 'none'}`,
    usdc: contracts.usdc.toLowerCase(),
    escrow: contracts.escrow.toLowerCase(),
    orchestrator: contracts.orchestrator.toLowerCase(),
    recordedAt: now(),
  };
  const identities = await store.collection<IdentityDocument>(IDENTITY_COLLECTION);
  const recorded = await identities.findOne({ _id: IDENTITY_ID });
  const differs = recorded ? differences(recorded, met) : [];
  const lostBlocks = differs.length === 0 ? await indexedBlocksMissing(store, client, contracts.chainId) : null;
  if (differs.length === 0 && lostBlocks === null) {
    if (recorded) return null;
    try {
      await identities.insertOne(met);
      return null;
    } catch (error) {
      // Another node of the cluster recorded it first: compare with what it recorded.
      if (!(error instanceof DuplicateKeyError)) throw error;
      return chainMismatch(store, reached, now);
    }
  }
  const what = differs.length > 0 ? differs.join(', ') : lostBlocks!;
  const restore = reached.restore ? `restore ${reached.restore}, or ` : '';
  return `The data in ${reached.dataPlace} was written against another chain than the one this node reaches (${what}): live payments are off. Way out: ${restore}start with a data folder of its own for this chain (DATA_DIR=./data-new npm start), or point the node back at the chain the data was written against.`;
}

function differences(recorded: IdentityDocument, met: IdentityDocument): string[] {
  const fields = ['chainId', 'anchor', 'usdc', 'escrow', 'orchestrator'] as const;
  return fields
    .filter((field) => recorded[field] !== met[field])
    .map((field) =>
      field === 'anchor'
        ? `block ${String(recorded.anchor).replace(':', ' ')} then, ${String(met.anchor).replace(/^\d+:/, '')} now`
        : `${field} ${String(recorded[field])} then, ${String(met[field])} now`,
    );
}

/**
 * The indexer remembers the last blocks it read; when none of them is on the chain any more,
 * the chain forked deeper than it remembers or lost them: say which block is missing.
 */
async function indexedBlocksMissing(store: Store, client: PublicClient, chainId: number): Promise<string | null> {
  const state = await store.collection<CursorDocument & StoredDocument>(indexerCollectionSpecs(chainId).state);
  const cursor = await state.findOne({ _id: 'cursor' });
  const marks = cursor ? [...cursor.recent, cursor.block].filter((mark) => mark.hash !== '') : [];
  if (marks.length === 0) return null;
  for (const mark of marks.reverse()) {
    const block = await client.getBlock({ blockNumber: BigInt(mark.number) }).catch((error: unknown) => {
      if (error instanceof BlockNotFoundError) return null;
      throw error;
    });
    if (block?.hash === mark.hash) return null;
  }
  return `block ${cursor!.block.number} that the data indexed, ${cursor!.block.hash}, is not on this chain`;
}
