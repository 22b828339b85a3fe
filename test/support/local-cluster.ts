/**
 * Several actor systems in one process with shard ownership the test decides: a
 * transport per node routes each message to the node the cluster says owns the
 * shard, and each node acts on what it believes it holds. `assign` moves a shard
 * under a new epoch and can leave the old owner unaware, as a partitioned node is.
 */
import type { ActorAddress, ActorMessage, Fence, MessageHost, Transport, TransportStatus } from '../../actors/index.js';
import { TransportUnavailableError, shardOf } from '../../actors/index.js';

export class LocalCluster {
  readonly #owners = new Map<number, LocalClusterTransport>();
  #epoch = 0;

  constructor(readonly shardCount: number) {}

  transport(): LocalClusterTransport {
    return new LocalClusterTransport(this);
  }

  owner(shard: number): LocalClusterTransport | undefined {
    return this.#owners.get(shard);
  }

  /** Gives `shard` to `to` under a new epoch; `tellLoser: false` leaves the old owner believing it still holds it. */
  assign(shard: number, to: LocalClusterTransport, { tellLoser = true } = {}): number {
    const epoch = ++this.#epoch;
    const loser = this.#owners.get(shard);
    this.#owners.set(shard, to);
    if (loser && loser !== to && tellLoser) loser.lose(shard);
    to.take(shard, epoch);
    return epoch;
  }

  shardOf(id: string): number {
    return shardOf(id, this.shardCount);
  }
}

export class LocalClusterTransport implements Transport {
  readonly adapter = 'embedded' as const;
  readonly #held = new Map<number, number>();
  host: MessageHost | undefined;

  constructor(private readonly cluster: LocalCluster) {}

  async start(host: MessageHost): Promise<void> {
    this.host = host;
  }

  take(shard: number, epoch: number): void {
    this.#held.set(shard, epoch);
    this.host?.shardsChanged([shard], []);
  }

  lose(shard: number): void {
    this.#held.delete(shard);
    this.host?.shardsChanged([], [shard]);
  }

  async send(address: ActorAddress, message: ActorMessage): Promise<unknown> {
    const owner = this.cluster.owner(this.cluster.shardOf(address.id));
    if (!owner?.host) throw new TransportUnavailableError('no node owns the shard');
    return owner.host.receive(address, message);
  }

  ownedShards(): ReadonlySet<number> {
    return new Set(this.#held.keys());
  }

  fence(shard: number): Fence | null {
    const epoch = this.#held.get(shard);
    return epoch === undefined ? null : { epoch, enforced: true };
  }

  async status(): Promise<TransportStatus> {
    return { connected: true };
  }

  async stop(): Promise<void> {
    this.host = undefined;
  }
}
