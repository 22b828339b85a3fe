/**
 * Shard leases in a JetStream KV bucket (ARCHITECTURE, Placement). A node takes a
 * free shard by creating its key, keeps it by compare-and-set on the key's revision,
 * and loses it when it stops renewing: the bucket's TTL removes the key and another
 * node creates it. Live nodes announce themselves in a second bucket so each can
 * aim at its fair share (ceil(shards / live nodes)) and hand surplus shards back.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { Kvm, type KV } from '@nats-io/kv';
import type { Logger } from 'pino';
import { shardOf } from '../address.js';

export interface ShardLeasesOptions {
  nc: NatsConnection;
  namespace: string;
  nodeId: string;
  shardCount: number;
  ttlMs: number;
  logger: Logger;
  /** Called after leases are taken (before serving) and before they are given back. */
  onChange(acquired: number[], lost: number[]): void;
}

export class ShardLeases {
  /** Shard to the revision of our lease on it. */
  readonly #held = new Map<number, number>();
  #interval: NodeJS.Timeout | undefined;
  #ticking: Promise<void> | undefined;
  #stopped = false;

  private constructor(
    private readonly options: ShardLeasesOptions,
    private readonly shards: KV,
    private readonly nodes: KV,
  ) {}

  static async open(options: ShardLeasesOptions): Promise<ShardLeases> {
    const kvm = new Kvm(options.nc);
    const settings = { ttl: options.ttlMs, history: 1 };
    const shards = await kvm.create(`${options.namespace}_shards`, settings);
    const nodes = await kvm.create(`${options.namespace}_nodes`, settings);
    return new ShardLeases(options, shards, nodes);
  }

  held(): ReadonlySet<number> {
    return new Set(this.#held.keys());
  }

  /** Takes a first share of the shards, then renews and rebalances every third of the TTL. */
  async start(): Promise<void> {
    await this.tick();
    this.#interval = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.options.ttlMs / 3)));
    this.#interval.unref();
  }

  /** One round of renewing, releasing surplus and acquiring free shards. Concurrent calls share a round. */
  tick(): Promise<void> {
    this.#ticking ??= this.#round()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'shard lease round failed'))
      .finally(() => (this.#ticking = undefined));
    return this.#ticking;
  }

  /** Graceful: hand every shard back at once so other nodes need not wait for the TTL. */
  async release(): Promise<void> {
    this.#stop();
    await this.#ticking;
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
  }

  async #round(): Promise<void> {
    if (this.#stopped) return;
    await this.nodes.put(this.options.nodeId, String(Date.now()));
    const lost: number[] = [];
    for (const [shard, revision] of this.#held) {
      try {
        this.#held.set(shard, await this.shards.update(key(shard), this.options.nodeId, revision));
      } catch {
        this.#held.delete(shard);
        lost.push(shard);
      }
    }

    const target = Math.ceil(this.options.shardCount / (await this.#liveNodes()));
    const surplus = [...this.#held.keys()].slice(target);
    if (lost.length + surplus.length > 0) this.options.onChange([], [...lost, ...surplus]);
    await Promise.allSettled(surplus.map((shard) => this.#giveBack(shard)));

    const acquired: number[] = [];
    const start = shardOf(this.options.nodeId, this.options.shardCount);
    for (let i = 0; i < this.options.shardCount && this.#held.size < target && !this.#stopped; i++) {
      const shard = (start + i) % this.options.shardCount;
      if (this.#held.has(shard)) continue;
      const current = await this.shards.get(key(shard));
      if (current && current.operation === 'PUT') continue;
      try {
        this.#held.set(shard, await this.shards.create(key(shard), this.options.nodeId));
        acquired.push(shard);
      } catch {
        // Another node created it first.
      }
    }
    if (acquired.length > 0) this.options.onChange(acquired, []);
  }

  async #giveBack(shard: number): Promise<void> {
    const revision = this.#held.get(shard);
    this.#held.delete(shard);
    if (revision !== undefined) await this.shards.delete(key(shard), { previousSeq: revision }).catch(() => undefined);
  }

  async #liveNodes(): Promise<number> {
    let count = 0;
    for await (const _ of await this.nodes.keys()) count++;
    return Math.max(1, count);
  }
}

function key(shard: number): string {
  return `shard_${shard}`;
}
