/**
 * A Store reached over a loopback socket: the client half of the LOCAL STAND-IN FOR
 * MONGODB that lets several processes share one store (the server half is
 * socket-store-server.ts). `npm run cluster` and the multi-process tests run on it
 * where no MongoDB is at hand; the configuration refuses it in production
 * (SHARED_STORE_URL, actors/config.ts).
 *
 * What it stands in for. A cluster needs what a real deployment gets from MongoDB:
 * ONE store that every node (here, every child process) reaches; single-document atomic conditional writes (`replaceOne`
 * with `{ _id, version, epoch }` in the filter, answered by the EmbeddedStore in the
 * serving process, where every call runs to completion before the next one starts);
 * and unique indexes (including `_id`) that reject a colliding write with a
 * `DuplicateKeyError` that keeps its class, collection and key across the wire.
 *
 * What it does not stand in for. No replication, no majority write concern, no
 * journal (the served store is in memory: everything is gone when the serving
 * process dies, so there is no durability across the parent's death), no failover
 * to another server, and no network partition between a node and the store unless a
 * test makes one (closing the server's sockets): the loopback link does not lose,
 * reorder or delay messages on its own. A test passing over this harness says
 * nothing about how the runtime behaves when the store itself is partitioned away
 * or fails over.
 *
 * Wire: newline-delimited JSON. A request is `{ id, op, args }`, a reply
 * `{ id, ok: true, value }` or `{ id, ok: false, error: { name, message, collection?, key? } }`.
 * Values go through the bigint codec (actors/codec.ts toJson/fromJson); Dates are
 * tagged `{ __date: iso }` and RegExps `{ __regexp: source, flags }` before it, so
 * they come back as the same types (functions, for example `$function` bodies, do
 * not cross and are dropped, as they would be by MongoDB's driver).
 *
 * A lost connection. Every call in flight when the socket closes or errors is
 * rejected with StoreConnectionLostError (`name` 'StoreConnectionLostError'): the
 * call may or may not have been applied, as with a network error from a MongoDB
 * driver; the runtime treats such a failed write as unknown (it drops its cache and
 * reloads). The client reconnects lazily: the next call opens a new connection, and
 * if that fails (refused, or no connection within `connectTimeoutMs`) the call is
 * rejected at once with StoreUnavailableError; nothing is queued or retried behind
 * the caller's back. A call with no reply within `callTimeoutMs` is rejected with
 * StoreConnectionLostError too and the connection is dropped (so a late reply cannot
 * be mistaken for another call's). `status()` never throws: it reports
 * `{ connected: false }` when the server cannot be reached.
 */
import { connect, type Socket } from 'node:net';
import { PlatformError } from '../../errors/platform-error.js';
import type { Collection, CollectionSpec, CountOptions, Filter, FindOptions, Store, StoreStatus, StoredDocument, UpdateSpec } from '../store.js';
import { onLines } from './socket-lines.js';

import { decodeWire, encodeWire, errorFromWire, type StoreOp, type WireStoreReply, type WireStoreRequest } from './socket-wire.js';

/** The connection broke (or a reply never came) while the call was in flight: it may or may not have been applied. */
export class StoreConnectionLostError extends PlatformError {
  override readonly name = 'StoreConnectionLostError';
  readonly code = 'STORE_CONNECTION_LOST';
}

/** The server could not be reached for this call: nothing was sent. */
export class StoreUnavailableError extends PlatformError {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'STORE_UNAVAILABLE';
}

export interface SocketStoreOptions {
  host?: string;
  port: number;
  /** How long opening a connection may take before the call fails (default 2 s). */
  connectTimeoutMs?: number;
  /** How long a call may wait for its reply before it fails and the connection is dropped (default 30 s). */
  callTimeoutMs?: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  op: StoreOp;
  /** Where the call was made: a lost connection's error names its caller, as a driver's would. */
  origin: Error;
}

interface Connection {
  socket: Socket;
  pending: Map<number, Pending>;
  closed: boolean;
}

export class SocketStore implements Store {
  readonly adapter = 'socket' as const;
  readonly #host: string;
  readonly #port: number;
  readonly #connectTimeoutMs: number;
  readonly #callTimeoutMs: number;
  #connection: Connection | undefined;
  #connecting: Promise<Connection> | undefined;
  #nextId = 1;
  #closed = false;

  constructor(options: SocketStoreOptions) {
    this.#host = options.host ?? '127.0.0.1';
    this.#port = options.port;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 2_000;
    this.#callTimeoutMs = options.callTimeoutMs ?? 30_000;
  }

  /** Connects now (otherwise the first call does), so a wrong address fails at start-up. */
  static async connect(options: SocketStoreOptions): Promise<SocketStore> {
    const store = new SocketStore(options);
    await store.#connected();
    return store;
  }

  async collection<T extends StoredDocument = StoredDocument>(spec: CollectionSpec): Promise<Collection<T>> {
    await this.call('collection', [spec]);
    return new SocketCollection<T>(this, spec.name);
  }

  async status(): Promise<StoreStatus> {
    const started = performance.now();
    try {
      const remote = (await this.call('status', [])) as StoreStatus;
      return { connected: remote.connected, responseTimeMs: performance.now() - started };
    } catch {
      return { connected: false };
    }
  }

  /** Closes this client's connection; the served store stays open for other clients. */
  async close(): Promise<void> {
    this.#closed = true;
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection) this.#fail(connection, new StoreConnectionLostError('the remote store client was closed'));
  }

  /** One RPC. Rejects with StoreUnavailableError when no connection can be had, StoreConnectionLostError when it breaks mid-call. */
  async call(op: StoreOp, args: unknown[]): Promise<unknown> {
    if (this.#closed) throw new StoreUnavailableError('the remote store client is closed');
    const origin = new Error('called');
    const connection = await this.#connected();
    const id = this.#nextId++;
    const line = `${encodeWire({ id, op, args } satisfies WireStoreRequest)}\n`;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#fail(connection, new StoreConnectionLostError(`no reply to ${op} within ${this.#callTimeoutMs} ms; the connection is dropped`));
      }, this.#callTimeoutMs);
      timer.unref();
      connection.pending.set(id, { resolve, reject, timer, op, origin });
      connection.socket.write(line);
    });
  }

  async #connected(): Promise<Connection> {
    if (this.#connection && !this.#connection.closed) return this.#connection;
    this.#connecting ??= this.#open().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  #open(): Promise<Connection> {
    return new Promise<Connection>((resolve, reject) => {
      const socket = connect({ host: this.#host, port: this.#port });
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new StoreUnavailableError(`could not connect to the store at ${this.#host}:${this.#port} within ${this.#connectTimeoutMs} ms`));
      }, this.#connectTimeoutMs);
      const refused = (error: Error) => {
        clearTimeout(timer);
        reject(new StoreUnavailableError(`could not connect to the store at ${this.#host}:${this.#port}: ${error.message}`));
      };
      socket.once('error', refused);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('error', refused);
        const connection: Connection = { socket, pending: new Map(), closed: false };
        this.#attach(connection);
        if (this.#closed) {
          this.#fail(connection, new StoreConnectionLostError('the remote store client was closed'));
          reject(new StoreUnavailableError('the remote store client is closed'));
          return;
        }
        this.#connection = connection;
        resolve(connection);
      });
    });
  }

  #attach(connection: Connection): void {
    const { socket } = connection;
    onLines(socket, (line) => this.#reply(connection, line));
    const lost = (error?: Error) =>
      this.#fail(
        connection,
        new StoreConnectionLostError(`the connection to the store was lost${error ? `: ${error.message}` : ''}; the call may or may not have been applied`),
      );
    socket.on('error', lost);
    socket.on('close', () => lost());
  }

  #reply(connection: Connection, line: string): void {
    let reply: WireStoreReply;
    try {
      reply = decodeWire<WireStoreReply>(line);
    } catch (error) {
      this.#fail(connection, new StoreConnectionLostError(`unreadable reply from the store: ${(error as Error).message}`));
      return;
    }
    const pending = connection.pending.get(reply.id);
    if (!pending) return;
    connection.pending.delete(reply.id);
    clearTimeout(pending.timer);
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(errorFromWire(reply.error));
  }

  /** Ends a connection: every call still waiting on it is rejected with `error`. */
  #fail(connection: Connection, error: Error): void {
    if (!connection.closed) {
      connection.closed = true;
      connection.socket.destroy();
    }
    if (this.#connection === connection) this.#connection = undefined;
    const pending = [...connection.pending.values()];
    connection.pending.clear();
    for (const call of pending) {
      clearTimeout(call.timer);
      const lost = new StoreConnectionLostError(`${call.op}: ${error.message}`);
      lost.stack = `${lost.stack}\n${call.origin.stack}`;
      call.reject(lost);
    }
  }
}

class SocketCollection<T extends StoredDocument> implements Collection<T> {
  constructor(
    private readonly store: SocketStore,
    readonly name: string,
  ) {}

  async findOne(filter: Filter, options?: Pick<FindOptions, 'sort' | 'projection'>): Promise<T | null> {
    return (await this.store.call('findOne', [this.name, filter, options ?? {}])) as T | null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return (await this.store.call('find', [this.name, filter, options ?? {}])) as T[];
  }

  async count(filter: Filter, options?: CountOptions): Promise<number> {
    return (await this.store.call('count', [this.name, filter, options ?? {}])) as number;
  }

  async insertOne(doc: T): Promise<void> {
    await this.store.call('insertOne', [this.name, doc]);
  }

  async replaceOne(filter: Filter, doc: T): Promise<boolean> {
    return (await this.store.call('replaceOne', [this.name, filter, doc])) as boolean;
  }

  async updateOne(filter: Filter, update: UpdateSpec): Promise<boolean> {
    return (await this.store.call('updateOne', [this.name, filter, update])) as boolean;
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    return (await this.store.call('deleteOne', [this.name, filter])) as boolean;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.store.call('deleteMany', [this.name, filter])) as number;
  }
}
