/**
 * How a message reaches the node that serves its actor. The embedded transport
 * calls this process; the NATS transport routes by shard to whichever node holds
 * that shard's lease. Placement is a routing hint only: the conditional write of a
 * turn is what guarantees no lost update.
 */
import type { ActorAddress } from '../address.js';
import { PlatformError } from '../errors/platform-error.js';
import type { Fence } from '../runtime/activation.js';
import type { ActorMessage } from '../runtime/messages.js';

/** The node side: where a transport hands the messages it receives. */
export interface MessageHost {
  receive(address: ActorAddress, message: ActorMessage): Promise<unknown>;
  /** This node started or stopped serving some shards. */
  shardsChanged(acquired: number[], lost: number[]): void;
  /** This node is about to hand `shards` back: take nothing new on them and finish what runs. */
  releasing?(shards: number[]): Promise<void>;
}

export interface TransportStatus {
  connected: boolean;
  responseTimeMs?: number;
}

export interface Transport {
  readonly adapter: 'embedded' | 'nats';
  start(host: MessageHost): Promise<void>;
  /**
   * One attempt at delivering a message and getting its reply. Throws
   * TransportUnavailableError when no node answered in time; the caller retries
   * with the same message id.
   */
  send(address: ActorAddress, message: ActorMessage, timeoutMs: number): Promise<unknown>;
  /** The shards this node serves now: those it holds a valid lease on. */
  ownedShards(): ReadonlySet<number> | 'all';
  /**
   * The lease this node holds on `shard`, or null when it holds none it may act
   * under: not taken, lost, or not renewed within the lease's TTL minus a margin.
   */
  fence(shard: number): Fence | null;
  status(): Promise<TransportStatus>;
  /** Stops taking messages and hands the node's shards back. */
  stop(): Promise<void>;
}

/** Nobody answered this attempt; retrying with the same message id is safe. */
export class TransportUnavailableError extends PlatformError {
  override readonly name = 'TransportUnavailableError';
  readonly code = 'TRANSPORT_UNAVAILABLE';
}

/** Another node failed with an error the wire has no class for: its name and message are this error's cause. */
export class RemoteError extends PlatformError {
  override readonly name = 'RemoteError';
  readonly code = 'REMOTE_ERROR';
}
