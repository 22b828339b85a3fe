/** What the node tells the gateway about makers: where they sign in, how long nonces and tokens last, the chain their history is read from, and how their deposits are created. */
import type { WalletTransfers } from '../../actors/chain/wallet-transfers.js';
import type { AtomicCreateSettings } from '../deposits/atomic-create.js';

export interface MakerSettings {
  /** The origin makers sign in at (MAKER_AUTH_ORIGIN, or the URL the gateway listens on, known once it listens). */
  origin(): string;
  /** The chain ids a sign-in message may name (maker-chains.ts signInChainIds). */
  signInChainIds: readonly number[];
  nonceTtlMs: number;
  tokenTtlMs: number;
  /** Transaction-history reads per minute per wallet. */
  historyPerMinute: number;
  /** The indexer's record of wallets' transfers; null on a node without a chain. */
  transfers: WalletTransfers | null;
  /** Atomic deposit creation; null on a node without a chain, relayer or the contracts it needs (answered 503). */
  atomicCreate: AtomicCreateSettings | null;
}
