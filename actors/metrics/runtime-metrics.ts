/**
 * What the runtime reports to metrics. The runtime calls this interface; the
 * Prometheus implementation (prometheus-metrics.ts) turns it into series, and
 * `noMetrics` keeps tests and tools free of any registry.
 *
 * Every string argument becomes a label value, so it must come from a small, fixed
 * set: an actor kind's name, an effect type, a collection name. Never pass an actor
 * id, a merchant id, an order id or anything a caller chose: each distinct value is a
 * new time series, kept for as long as the process lives.
 */
export type AskOutcome = 'ok' | 'rejected' | 'unknown_actor' | 'timeout' | 'unavailable' | 'error';
export type TurnOutcome = 'applied' | 'replayed' | 'rejected' | 'error';
export type EffectOutcome = 'ok' | 'retry' | 'dead_lettered';

export interface RuntimeMetrics {
  /** One ask finished (however it ended), `seconds` after it was sent, retries included. */
  ask(kind: string, outcome: AskOutcome, seconds: number): void;
  /** One turn ended: its events applied, a retried message answered from the log, refused, or failed. */
  turn(kind: string, outcome: TurnOutcome): void;
  /** A turn's conditional write lost to another write of the same actor; the turn reloads and runs again. */
  conflict(kind: string): void;
  /** One attempt at an outbox effect: done, to be retried, or given up as a dead letter. */
  effect(kind: string, type: string, outcome: EffectOutcome): void;
  /** A durable timer fired, `latenessSeconds` after it was due (0 when on time). */
  timerFired(kind: string, latenessSeconds: number): void;
  /** One call to a store collection took `seconds`, whether it succeeded or threw. */
  storeOperation(collection: string, operation: 'insert' | 'replace' | 'update' | 'delete' | 'find' | 'count', seconds: number): void;
  /** A shard lease this node held could not be renewed. */
  leaseRenewFailure(): void;
  /** How many shard leases this node holds now. */
  shardsHeld(count: number): void;
  /** How many shards the cluster's leases divide the actors into (SHARD_COUNT); told once by a node that takes leases. */
  shardCount(count: number): void;
  /** Gauges read at scrape time. A later call replaces the callbacks it names. */
  observe(gauges: ObservedGauges): void;
}

/**
 * What a scrape reads: the runtime's own (outbox, dead letters, mailboxes, timers) and
 * those the node's other sides give once they run (webhooks, the indexer, the relayer).
 * Keys of a record become label values, so they too come from small fixed sets.
 */
export interface ObservedGauges {
  /** Actors on this node's shards whose outbox holds effects. */
  pendingOutbox?: () => Promise<number>;
  /** Open dead letters in the (shared) store. */
  deadLetters?: () => Promise<number>;
  /** Messages queued or running in the mailboxes of this node's live actors, by kind. */
  mailboxDepth?: () => Promise<Readonly<Record<string, number>>>;
  /** Actors on this node's shards with a durable timer armed (`armed`) and with one due now and not fired yet (`due`). */
  timers?: () => Promise<{ armed: number; due: number }>;
  /** Merchants whose webhooks are failing, by reason (webhook-health.ts). */
  webhookMerchantsFailing?: () => Promise<Readonly<Record<WebhookFailingReason, number>>>;
  /** The indexer's GetStatus: confirmed blocks not read yet, and whether it serves. */
  indexer?: () => Promise<{ lagBlocks: number; serving: boolean }>;
  /** The relayer's sending wallets, by address: the next nonce it gives out, the chain's mined nonce, transactions holding a nonce. */
  relayerWallets?: () => Promise<Readonly<Record<string, RelayerWalletReading>>>;
}

export type WebhookFailingReason = 'endpoint_disabled' | 'deliveries_retrying';

export interface RelayerWalletReading {
  /** The next nonce the wallet actor gives out. */
  nextNonce: number;
  /** The chain's count of this address' mined transactions (its `latest` nonce). */
  minedNonce: number;
  /** Transactions prepared or submitted, each holding a nonce until it ends. */
  underWay: number;
}
