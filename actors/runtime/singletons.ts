/**
 * Roles that must run on one node of a cluster at a time (the chain-facts reader).
 * Each is held under the lease of the shard its name hashes to, so it moves, and is
 * fenced, exactly as that shard's actors are: it starts when this node takes the
 * lease and stops when the node loses it or can no longer renew it in time.
 */
import type { Logger } from 'pino';
import { shardOf } from '../address.js';

export interface SingletonRole {
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface Entry {
  role: SingletonRole;
  shard: number;
  running: boolean;
  /** Start and stop calls run one after another, never overlapping. */
  queue: Promise<void>;
}

export class Singletons {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly logger: Logger,
    private readonly holds: (shard: number) => boolean,
    private readonly shardCount: number,
  ) {}

  add(name: string, role: SingletonRole): void {
    if (this.#entries.has(name)) throw new Error(`singleton ${name} is registered twice`);
    this.#entries.set(name, { role, shard: shardOf(name, this.shardCount), running: false, queue: Promise.resolve() });
  }

  /** Starts the roles whose shard this node now holds and stops the others. */
  changed(): void {
    for (const [name, entry] of this.#entries) {
      const wanted = this.holds(entry.shard);
      if (wanted === entry.running) continue;
      entry.running = wanted;
      entry.queue = entry.queue.then(async () => {
        try {
          if (wanted) await entry.role.start();
          else await entry.role.stop();
          this.logger.info(
            { singleton: name, shard: entry.shard, running: wanted },
            wanted ? 'singleton started on this node' : 'singleton stopped on this node',
          );
        } catch (error) {
          entry.running = !wanted;
          this.logger.error({ err: error, singleton: name }, wanted ? 'singleton failed to start' : 'singleton failed to stop');
        }
      });
    }
  }

  /** Stops the role if it runs here and forgets it. */
  async remove(name: string): Promise<void> {
    const entry = this.#entries.get(name);
    if (!entry) return;
    this.#entries.delete(name);
    if (entry.running) {
      entry.running = false;
      entry.queue = entry.queue.then(() => entry.role.stop()).catch(() => undefined);
    }
    await entry.queue;
  }

  async stopAll(): Promise<void> {
    for (const entry of this.#entries.values()) {
      if (!entry.running) continue;
      entry.running = false;
      entry.queue = entry.queue.then(() => entry.role.stop()).catch(() => undefined);
    }
    await Promise.all([...this.#entries.values()].map((entry) => entry.queue));
  }
}
