/**
 * Serves one Store (an in-memory EmbeddedStore) to other processes over a loopback TCP
 * socket: the local stand-in for MongoDB; SocketStore (socket-store.ts) is the client.
 * The file header of socket-store.ts says what this harness stands in for (one shared store every node
 * reaches, single-document atomic conditional writes, unique indexes) and what it
 * does not (replication, majority write concern, network partitions between a node
 * and the store, failover, durability across the serving process's death).
 *
 * Each request runs as soon as its line arrives and is answered when the store
 * answers; replies may overtake each other (they carry the request's id). The
 * EmbeddedStore evaluates every call without awaiting in between, so each call is
 * atomic with respect to every other, whichever client sent it.
 */
import { createServer, type Server, type Socket, type AddressInfo } from 'node:net';
import type { Collection, Store, StoredDocument } from '../store.js';
import { decodeWire, encodeWire, errorToWire, type WireStoreReply, type WireStoreRequest } from './socket-wire.js';
import { onLines } from './socket-lines.js';

export interface SocketStoreServerOptions {
  store: Store;
  /** Loopback only; port 0 (the default) picks a free one. */
  port?: number;
}

export class SocketStoreServer {
  readonly #sockets = new Set<Socket>();
  readonly #collections = new Map<string, Collection>();
  #refusing = false;
  /** Requests served so far, for tests that want to see traffic. */
  requests = 0;

  private constructor(
    private readonly server: Server,
    private readonly store: Store,
    readonly port: number,
  ) {}

  static async start(options: SocketStoreServerOptions): Promise<SocketStoreServer> {
    let self: SocketStoreServer | undefined;
    const server = createServer((socket) => self!.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    self = new SocketStoreServer(server, options.store, (server.address() as AddressInfo).port);
    return self;
  }

  /** Connections open now. */
  get connections(): number {
    return this.#sockets.size;
  }

  /** Closes every client connection (their calls in flight fail); new ones are still accepted unless `refuse`. */
  disconnectAll({ refuse = false }: { refuse?: boolean } = {}): void {
    this.#refusing = refuse;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }

  /** Accepts connections again after `disconnectAll({ refuse: true })`. */
  accept(): void {
    this.#refusing = false;
  }

  /** Stops listening and closes every connection. The served store is left open: its owner closes it. */
  async close(): Promise<void> {
    this.disconnectAll({ refuse: true });
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  #accept(socket: Socket): void {
    if (this.#refusing) {
      socket.destroy();
      return;
    }
    this.#sockets.add(socket);
    socket.setNoDelay(true);
    onLines(socket, (line) => this.#serve(socket, line));
    const forget = () => {
      this.#sockets.delete(socket);
      socket.destroy();
    };
    socket.on('error', forget);
    socket.on('close', forget);
  }

  #serve(socket: Socket, line: string): void {
    let request: WireStoreRequest;
    try {
      request = decodeWire<WireStoreRequest>(line);
    } catch {
      // A line we cannot read has no id to answer: the connection is beyond repair.
      socket.destroy();
      return;
    }
    this.requests++;
    this.#run(request).then(
      (value) => this.#send(socket, { id: request.id, ok: true, value: value ?? null }),
      (error: unknown) => this.#send(socket, { id: request.id, ok: false, error: errorToWire(error) }),
    );
  }

  #send(socket: Socket, reply: WireStoreReply): void {
    if (socket.destroyed) return;
    socket.write(`${encodeWire(reply)}\n`);
  }

  async #collection(name: string): Promise<Collection> {
    let collection = this.#collections.get(name);
    if (!collection) {
      collection = await this.store.collection<StoredDocument>({ name, indexes: [] });
      this.#collections.set(name, collection);
    }
    return collection;
  }

  async #run({ op, args }: WireStoreRequest): Promise<unknown> {
    switch (op) {
      case 'collection': {
        const spec = args[0] as Parameters<Store['collection']>[0];
        const collection = await this.store.collection(spec);
        this.#collections.set(spec.name, collection);
        return null;
      }
      case 'status':
        return this.store.status();
      default: {
        const [name, ...rest] = args as [string, ...unknown[]];
        const collection = await this.#collection(name);
        const method = collection[op] as (...params: unknown[]) => Promise<unknown>;
        if (typeof method !== 'function') throw new Error(`unknown store operation ${String(op)}`);
        return method.apply(collection, rest);
      }
    }
  }
}
