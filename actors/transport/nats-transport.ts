/**
 * Actors addressed over NATS: the subject of `(kind, id)` is
 * `<ns>.actor.<kind>.<shard>`, and only the node holding that shard's lease
 * subscribes to it. A request nobody answers (no responders while a shard changes
 * hands, or a timeout) is reported as unavailable so the caller retries.
 */
import { RequestError, TimeoutError, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { shardOf, type ActorAddress } from '../address.js';
import { ShuttingDownError } from '../errors.js';
import { runtimeRowOf } from '../errors/error-table.js';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.js';
import type { Fence } from '../runtime/activation.js';
import type { ActorMessage } from '../runtime/messages.js';
import { ShardLeases } from './shard-leases.js';
import { TransportUnavailableError, type MessageHost, type Transport, type TransportStatus } from './transport.js';
import { decodeReply, decodeRequest, encodeFailure, encodeReply, encodeRequest } from './wire.js';

export interface NatsTransportOptions {
  nc: NatsConnection;
  namespace: string;
  nodeId: string;
  shardCount: number;
  leaseTtlMs: number;
  /** Copies the servers keep of the lease buckets (1 unless set); 3 in a cluster of three servers, so one may restart. */
  replicas?: number;
  logger: Logger;
  metrics?: RuntimeMetrics;
}

export class NatsTransport implements Transport {
  readonly adapter = 'nats';
  readonly #subscriptions = new Map<number, Subscription>();
  #host: MessageHost | undefined;
  #leases: ShardLeases | undefined;

  constructor(private readonly options: NatsTransportOptions) {}

  async start(host: MessageHost): Promise<void> {
    this.#host = host;
    this.#leases = await ShardLeases.open({
      nc: this.options.nc,
      namespace: this.options.namespace,
      nodeId: this.options.nodeId,
      shardCount: this.options.shardCount,
      ttlMs: this.options.leaseTtlMs,
      replicas: this.options.replicas ?? 1,
      logger: this.options.logger,
      metrics: this.options.metrics,
      onChange: (acquired, lost) => this.#shardsChanged(acquired, lost),
      beforeRelease: async (shards) => {
        await this.#host?.releasing?.(shards);
      },
    });
    await this.#leases.start();
  }

  async send(address: ActorAddress, message: ActorMessage, timeoutMs: number): Promise<unknown> {
    const shard = shardOf(address.id, this.options.shardCount);
    if (this.#host && this.#subscriptions.has(shard) && this.fence(shard)) {
      try {
        return await this.#host.receive(address, message);
      } catch (error) {
        // The node is draining or lost the shard: another serves it shortly, as over the wire.
        if (runtimeRowOf(error)?.wire?.unavailable) throw new TransportUnavailableError((error as Error).message, { cause: error });
        throw error;
      }
    }
    let reply: Msg;
    try {
      reply = await this.options.nc.request(this.#subject(address.kind, shard), encodeRequest({ address, message }), { timeout: timeoutMs });
    } catch (error) {
      if (error instanceof RequestError || error instanceof TimeoutError) throw new TransportUnavailableError(error.message, { cause: error });
      throw error;
    }
    return decodeReply(reply.string());
  }

  ownedShards(): ReadonlySet<number> {
    return this.#leases?.held() ?? new Set();
  }

  /** The live nodes of the cluster as the shard leases last counted them (1 before the first count). */
  liveNodes(): number {
    return this.#leases?.liveNodes() ?? 1;
  }

  fence(shard: number): Fence | null {
    return this.#leases?.lease(shard) ?? null;
  }

  async status(): Promise<TransportStatus> {
    if (this.options.nc.isClosed()) return { connected: false };
    try {
      return { connected: true, responseTimeMs: await this.options.nc.rtt() };
    } catch {
      return { connected: false };
    }
  }

  async stop(): Promise<void> {
    await this.#leases?.release();
    this.#host = undefined;
  }

  /** Stops renewing leases without handing them back, as a crashed node would; for failure tests. */
  halt(): void {
    this.#leases?.halt();
    for (const subscription of this.#subscriptions.values()) subscription.unsubscribe();
    this.#subscriptions.clear();
    this.#host = undefined;
  }

  #subject(kind: string, shard: number): string {
    return `${this.options.namespace}.actor.${kind}.${shard}`;
  }

  #shardsChanged(acquired: number[], lost: number[]): void {
    for (const shard of lost) {
      this.#subscriptions.get(shard)?.unsubscribe();
      this.#subscriptions.delete(shard);
    }
    for (const shard of acquired) {
      const subscription = this.options.nc.subscribe(this.#subject('*', shard), {
        callback: (error, msg) => {
          if (!error) this.#serve(msg);
        },
      });
      this.#subscriptions.set(shard, subscription);
    }
    this.options.logger.debug({ acquired, lost, held: this.#subscriptions.size }, 'shards changed');
    this.#host?.shardsChanged(acquired, lost);
  }

  #serve(msg: Msg): void {
    const host = this.#host;
    let request;
    try {
      request = decodeRequest(msg.string());
    } catch (error) {
      msg.respond(encodeFailure(error));
      return;
    }
    if (!host) {
      msg.respond(encodeFailure(new ShuttingDownError()));
      return;
    }
    host.receive(request.address, request.message).then(
      (value) => msg.respond(encodeReply(value)),
      (error: unknown) => msg.respond(encodeFailure(error)),
    );
  }
}
