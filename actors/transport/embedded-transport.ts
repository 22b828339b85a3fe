/** Everything in one process: a message is a call into this node's actor system. */
import type { ActorAddress } from '../address.js';
import type { Fence } from '../runtime/activation.js';
import type { ActorMessage } from '../runtime/messages.js';
import { TransportUnavailableError, type MessageHost, type Transport, type TransportStatus } from './transport.js';

const EMBEDDED_FENCE: Fence = { epoch: 0, enforced: false };

export class EmbeddedTransport implements Transport {
  readonly adapter = 'embedded';
  #host: MessageHost | undefined;

  async start(host: MessageHost): Promise<void> {
    this.#host = host;
  }

  send(address: ActorAddress, message: ActorMessage, timeoutMs: number): Promise<unknown> {
    const host = this.#host;
    if (!host) return Promise.reject(new TransportUnavailableError('the embedded transport is not started'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new TransportUnavailableError(`no reply within ${timeoutMs} ms`)), timeoutMs);
      host.receive(address, message).then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  ownedShards(): 'all' {
    return 'all';
  }

  /** One process owns every shard, so no other writer exists to fence out. */
  fence(): Fence {
    return EMBEDDED_FENCE;
  }

  async status(): Promise<TransportStatus> {
    return { connected: this.#host !== undefined, responseTimeMs: 0 };
  }

  async stop(): Promise<void> {
    this.#host = undefined;
  }
}
