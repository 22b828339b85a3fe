/** IPC between the chaos test (parent) and its node processes (node-child.ts). Advanced serialization: bigint crosses as is. */
import type { ActorEvent } from '../../actors/index.js';

export interface ChildInit {
  nodeId: string;
  /** The node's own proxy in front of the test's nats-server. */
  natsUrl: string;
  storePort: number;
  namespace: string;
  shardCount: number;
  leaseTtlMs: number;
  askTimeoutMs: number;
  attemptTimeoutMs: number;
  recorderUrl: string;
  logFile: string;
  logLevel: string;
}

export type ChildRequest =
  | { type: 'init'; init: ChildInit }
  | { type: 'ask'; seq: number; id: string; event: ActorEvent; messageId: string }
  | { type: 'shards'; seq: number }
  | { type: 'stats'; seq: number; reset?: boolean }
  | { type: 'stop' };

/** How late this process's event loop ran since it started (a starved node cannot renew its leases in time). */
export interface LoopStats {
  maxMs: number;
  p99Ms: number;
  meanMs: number;
  cpuSeconds: number;
}

export type ChildReply =
  | { type: 'ready'; pid: number }
  | { type: 'failed'; message: string }
  | { type: 'reply'; seq: number; ok: true; value: unknown }
  | { type: 'reply'; seq: number; ok: false; name: string; code: string | null; message: string }
  | { type: 'shards'; seq: number; shards: number[] }
  | { type: 'stats'; seq: number; stats: LoopStats }
  | { type: 'stopped' };
