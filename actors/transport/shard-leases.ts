/**
 * Shard leases in a JetStream KV bucket (ARCHITECTURE, Placement). A node takes a
 * free shard by creating its key, keeps it by compare-and-set on the key's revision,
 * and loses it when it stops renewing: the bucket's TTL removes the key and another
 * node creates it. Live nodes announce themselves in a second bucket so each can
 * aim at its fair share (ceil(shards / live nodes)) and hand surplus shards back.
 *
 * Changes are acted on when they happen, not at the next round: every node watches both
 * buckets, and a shard handed back (its key deleted), a node joining or a node leaving
 * wakes a round at once. Without it a shard a draining node gave back stayed unserved
 * until some node's next round, up to a third of the TTL, while asks for it waited.
 *
 * Fencing: a lease is valid for the TTL minus a safety margin after the renewal that
 * kept it was sent, measured on this process's monotonic clock. Past that the node
 * gives the shard up on its own (a watchdog, since a round can hang on a cut
 * connection), because the bucket may already have expired the key and handed the
 * shard to another node. Each lease's epoch is the key's revision when it was
 * created: revisions only grow, so a later holder always has a higher epoch.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { Kvm, type KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import { shardOf } from '../address.js';
import { noMetrics } from '../metrics/node-metrics.js';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.js';
import type { Fence } from '../runtime/activation.js';

export interface ShardLeasesOptions {
  nc: NatsConnection;
  namespace: string;
  nodeId: string;
  shardCount: number;
  ttlMs: number;
  /** Copies the servers keep of the buckets. */
  replicas?: number;
  logger: Logger;
  metrics?: RuntimeMetrics;
  /** Called after leases are taken (before serving) and before they are given back. */
  onChange(acquired: number[], lost: number[]): void;
  /**
   * Called before surplus shards are handed back while their leases are still valid,
   * so the node can finish what it started on them (a clean handover, not a lapse).
   */
  beforeRelease?(shards: number[]): Promise<void>;
}

interface Lease {
  /** Revision of our last write of the key, for the next compare-and-set. */
  revision: number;
  /** Revision at creation: the fencing epoch. */
  epoch: number;
  /** `performance.now()` when the write that keeps the lease was sent. */
  renewedAt: number;
}

export class ShardLeases {
  readonly #held = new Map<number, Lease>();
  readonly #validMs: number;
  /** How often a round announces this node and rebalances. */
  readonly #roundMs: number;
  readonly #metrics: RuntimeMetrics;
  #interval: NodeJS.Timeout | undefined;
  #renewal: NodeJS.Timeout | undefined;
  #renewing: Promise<void> | undefined;
  #watchdog: NodeJS.Timeout | undefined;
  #ticking: Promise<void> | undefined;
  /** A change arrived while a round ran: that round may have passed the shard already, so one more follows it. */
  #again = false;
  readonly #watches: Array<{ stop(): void }> = [];
  #stopped = false;
  #liveNodeCount = 1;

  private constructor(
    private readonly options: ShardLeasesOptions,
    private readonly shards: KV,
    private readonly nodes: KV,
  ) {
    // The margin covers the renewal's trip to the server and timer lateness on this node.
    this.#validMs = options.ttlMs - Math.max(250, Math.floor(options.ttlMs / 5));
    this.#roundMs = Math.max(100, Math.floor(options.ttlMs / 3));
    this.#metrics = options.metrics ?? noMetrics;
    this.#metrics.shardCount(options.shardCount);
  }

  static async open(options: ShardLeasesOptions): Promise<ShardLeases> {
    const kvm = new Kvm(options.nc);
    const settings = { ttl: options.ttlMs, history: 1, replicas: options.replicas ?? 1 };
    const shards = await kvm.create(`${options.namespace}_shards`, settings);
    const nodes = await kvm.create(`${options.namespace}_nodes`, settings);
    return new ShardLeases(options, shards, nodes);
  }

  /** The shards held under a lease still valid now. */
  held(): ReadonlySet<number> {
    const now = performance.now();
    return new Set([...this.#held].filter(([, lease]) => this.#valid(lease, now)).map(([shard]) => shard));
  }

  /** The nodes announced at the last round (at least 1): what rate limits divide by while their store is down. */
  liveNodes(): number {
    return this.#liveNodeCount;
  }

  /** The lease on `shard` if this node holds one still valid now. */
  lease(shard: number): Fence | null {
    const lease = this.#held.get(shard);
    return lease && this.#valid(lease, performance.now()) ? { epoch: lease.epoch, enforced: true } : null;
  }

  /**
   * Takes a first share of the shards, then renews every quarter of the TTL and
   * rebalances every third. Renewals run on their own loop, all shards at once, so a
   * slow announcement, key listing or acquisition never holds them back.
   */
  async start(): Promise<void> {
    // Watching first: shards handed back while the first round runs must wake another.
    await this.#watchChanges();
    await this.tick();
    this.#interval = setInterval(() => void this.tick(), this.#roundMs);
    this.#interval.unref();
    this.#renewal = setInterval(() => void this.#renewAll(), Math.max(50, Math.floor(this.options.ttlMs / 4)));
    this.#renewal.unref();
    this.#watchdog = setInterval(() => this.#expire(), Math.max(50, Math.floor(this.options.ttlMs / 20)));
    this.#watchdog.unref();
  }

  /**
   * Wakes a round when a shard is handed back, or a node joins or leaves. A node re-announces
   * itself every round, so only a key not seen before counts as joining; renewals of shard
   * keys are puts and wake nothing.
   */
  async #watchChanges(): Promise<void> {
    const shards = await this.shards.watch({ include: 'updates' });
    const nodes = await this.nodes.watch({ include: 'updates' });
    this.#watches.push(shards, nodes);
    const known = new Set<string>();
    void (async () => {
      for await (const entry of shards) if (entry.operation !== 'PUT') this.#wake();
    })().catch(() => undefined);
    void (async () => {
      for await (const entry of nodes) {
        if (entry.key === this.options.nodeId) continue;
        if (entry.operation !== 'PUT') {
          known.delete(entry.key);
          this.#wake();
        } else if (!known.has(entry.key)) {
          known.add(entry.key);
          this.#wake();
        }
      }
    })().catch(() => undefined);
  }

  #wake(): void {
    if (this.#stopped) return;
    if (this.#ticking) this.#again = true;
    else void this.tick();
  }

  /** One round of announcing this node, releasing surplus and acquiring free shards. Concurrent calls share a round. */
  tick(): Promise<void> {
    this.#ticking ??= this.#round()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'shard lease round failed'))
      .finally(() => {
        this.#ticking = undefined;
        if (this.#again && !this.#stopped) {
          this.#again = false;
          void this.tick();
        }
      });
    return this.#ticking;
  }

  /** Graceful: hand every shard back at once so other nodes need not wait for the TTL. */
  async release(): Promise<void> {
    this.#stop();
    await Promise.all([this.#ticking, this.#renewing]);
    const shards = [...this.#held.keys()];
    this.options.onChange([], shards);
    await Promise.allSettled(shards.map((shard) => this.#giveBack(shard)));
    await this.nodes.delete(this.options.nodeId).catch(() => undefined);
  }

  /** Abrupt: stop renewing and let the leases lapse, as a crashed node would. */
  halt(): void {
    this.#stop();
  }

  #stop(): void {
    this.#stopped = true;
    clearInterval(this.#interval);
    clearInterval(this.#renewal);
    clearInterval(this.#watchdog);
    for (const watch of this.#watches.splice(0)) watch.stop();
  }

  /** Gives up every lease that was not renewed in time: this node stops acting for those shards now. */
  #expire(): void {
    const now = performance.now();
    const lapsed = [...this.#held].filter(([, lease]) => !this.#valid(lease, now)).map(([shard]) => shard);
    for (const shard of lapsed) this.#held.delete(shard);
    this.#lost(lapsed, 'shard leases not renewed in time; no longer serving them');
  }

  /** Whether a lease renewed at `renewedAt` still lets this node act at `now` (performance.now()). */
  #valid(lease: { renewedAt: number }, now: number): boolean {
    return now < lease.renewedAt + this.#validMs;
  }

  /** Tells the node it no longer serves `shards`, already dropped from the held leases. */
  #lost(shards: number[], message: string): void {
    if (shards.length === 0) return;
    this.options.logger.warn({ shards }, message);
    this.options.onChange([], shards);
    this.#metrics.shardsHeld(this.#held.size);
  }

  async #round(): Promise<void> {
    if (this.#stopped) return;
    // Announcing this node only guides rebalancing; renewals must not wait on it.
    await this.nodes.put(this.options.nodeId, String(Date.now())).catch((error: unknown) => {
      this.options.logger.warn({ err: error }, 'could not announce this node');
    });
    this.#liveNodeCount = await this.#liveNodes();
    const target = Math.ceil(this.options.shardCount / this.#liveNodeCount);
    const surplus = [...this.#held.keys()].slice(target);
    if (surplus.length > 0) {
      await this.options.beforeRelease?.(surplus);
      this.options.onChange([], surplus);
    }
    await Promise.allSettled(surplus.map((shard) => this.#giveBack(shard)));

    const acquired: number[] = [];
    const start = shardOf(this.options.nodeId, this.options.shardCount);
    for (let i = 0; i < this.options.shardCount && this.#held.size < target && !this.#stopped; i++) {
      const shard = (start + i) % this.options.shardCount;
      if (this.#held.has(shard)) continue;
      const current = await this.shards.get(key(shard));
      if (current && current.operation === 'PUT') continue;
      const sentAt = performance.now();
      try {
        const revision = await this.shards.create(key(shard), this.options.nodeId);
        this.#held.set(shard, { revision, epoch: revision, renewedAt: sentAt });
        acquired.push(shard);
      } catch {
        // Another node created it first.
      }
    }
    if (acquired.length > 0) this.options.onChange(acquired, []);
    this.#metrics.shardsHeld(this.#held.size);
  }

  /** Renews every held lease at once; overlapping calls share one pass. */
  #renewAll(): Promise<void> {
    this.#renewing ??= this.#renew().finally(() => (this.#renewing = undefined));
    return this.#renewing;
  }

  async #renew(): Promise<void> {
    if (this.#stopped) return;
    const lost: number[] = [];
    await Promise.all(
      [...this.#held].map(async ([shard, lease]) => {
        const sentAt = performance.now();
        try {
          const revision = await this.shards.update(key(shard), this.options.nodeId, lease.revision);
          // A lease that lapsed while its renewal was in flight stays lost: the node may have let work go under it.
          if (this.#held.get(shard) === lease && this.#valid(lease, performance.now())) {
            this.#held.set(shard, { ...lease, revision, renewedAt: sentAt });
            return;
          }
          if (this.#held.get(shard) === lease) {
            this.#held.delete(shard);
            lost.push(shard);
          }
          await this.shards.delete(key(shard), { previousSeq: revision }).catch(() => undefined);
        } catch {
          this.#metrics.leaseRenewFailure();
          if (this.#held.get(shard) !== lease) return;
          this.#held.delete(shard);
          lost.push(shard);
        }
      }),
    );
    this.#lost(lost, 'shard leases could not be renewed; no longer serving them');
  }

  async #giveBack(shard: number): Promise<void> {
    const lease = this.#held.get(shard);
    this.#held.delete(shard);
    if (lease !== undefined) await this.shards.delete(key(shard), { previousSeq: lease.revision }).catch(() => undefined);
  }

  /**
   * Nodes announced within the last round and a half, by the servers' own timestamps (no clock of
   * ours is compared). Counting too many leaves shards nobody takes until a stale
   * announcement expires: a node that just stopped was still counted for seconds in a
   * rolling restart, and asks for its share timed out. Counting too few only makes the
   * shares uneven until the next round.
   */
  async #liveNodes(): Promise<number> {
    const announced: number[] = [];
    for await (const name of await this.nodes.keys()) {
      const entry = await this.nodes.get(name).catch(() => null);
      if (entry && entry.operation === 'PUT') announced.push(entry.created.getTime());
    }
    if (announced.length === 0) return 1;
    const freshest = Math.max(...announced);
    const window = Math.floor(1.5 * this.#roundMs) + 500;
    return Math.max(1, announced.filter((created) => created >= freshest - window).length);
  }
}

function key(shard: number): string {
  return `shard_${shard}`;
}
