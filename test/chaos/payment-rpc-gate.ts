/**
 * A JSON-RPC gate between a node process and the chain, for payment-kill.chaos.ts: it
 * passes every call through to `upstream` until the node sends the transaction
 * `closesOn` picks. That send is forwarded and answered (the transaction is mined,
 * anvil mining each at once, and the node has its hash); from then on the gate is
 * closed and holds every call the node makes, unanswered, so nothing it asks the chain
 * afterwards (the receipt above all) comes back. `beforeClosing` runs first, while the
 * transaction is not yet on chain. `open()` lets calls through again, for the node
 * started after the kill, and drops what was held. Loopback only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keccak256, type Hex } from 'viem';

interface RpcCall {
  method: string;
  params?: unknown[];
}

export interface HeldCall {
  method: string;
  params: unknown[];
  heldAt: number;
}

export interface GateOptions {
  /** Whether this raw transaction, sent by the node, is the one after which the gate closes. */
  closesOn(raw: Hex): boolean;
  /** Runs before that transaction is forwarded to the chain. */
  beforeClosing(raw: Hex): Promise<void>;
}

export interface Closed {
  /** The hash of the transaction the gate closed on: keccak256 of its raw bytes. */
  hash: Hex;
  /** When that transaction was forwarded, and when its answer reached the node. */
  forwardedAt: number;
  answeredAt: number;
}

export class RpcGate {
  /** Every call held since the gate closed, oldest first. */
  readonly held: HeldCall[] = [];
  readonly #responses = new Set<ServerResponse>();
  #closed = false;
  #closing: Closed | null = null;
  #settleClosed!: (closed: Closed) => void;
  #failClosed!: (error: Error) => void;
  /** Resolves once the transaction the gate closes on was forwarded and answered. */
  readonly closed: Promise<Closed>;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {
    this.closed = new Promise((resolve, reject) => {
      this.#settleClosed = resolve;
      this.#failClosed = reject;
    });
    // Nobody may be waiting on it when the test fails early.
    this.closed.catch(() => undefined);
  }

  static async start(upstream: string, options: GateOptions): Promise<RpcGate> {
    let gate: RpcGate | undefined;
    const server = createServer((request, response) => void gate!.#handle(request, response, upstream, options));
    server.keepAliveTimeout = 1_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    gate = new RpcGate(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return gate;
  }

  get isClosed(): boolean {
    return this.#closed;
  }

  /** Lets calls through again; what was held is dropped (its caller is gone). */
  open(): void {
    this.#closed = false;
    for (const response of this.#responses) response.destroy();
    this.#responses.clear();
  }

  async stop(): Promise<void> {
    this.open();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse, upstream: string, options: GateOptions): Promise<void> {
    try {
      const text = await readBody(request);
      const calls = parseCalls(text);
      if (this.#closed) {
        for (const call of calls) this.held.push({ method: call.method, params: call.params ?? [], heldAt: Date.now() });
        this.#responses.add(response);
        response.once('close', () => this.#responses.delete(response));
        return;
      }
      const raw = calls.find((call) => call.method === 'eth_sendRawTransaction')?.params?.[0] as Hex | undefined;
      const closing = raw !== undefined && this.#closing === null && options.closesOn(raw);
      if (closing) {
        // Closed before the transaction leaves: no call the node makes from now on is answered.
        this.#closed = true;
        await options.beforeClosing(raw);
      }
      const forwardedAt = Date.now();
      const answer = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
      const body = await answer.text();
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      await new Promise<void>((resolve) => response.end(body, resolve));
      if (closing) {
        this.#closing = { hash: keccak256(raw), forwardedAt, answeredAt: Date.now() };
        this.#settleClosed(this.#closing);
      }
    } catch (error) {
      if (!response.headersSent) response.writeHead(502).end();
      if (this.#closed && this.#closing === null) this.#failClosed(error as Error);
    }
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/** The calls of a JSON-RPC request, batched or not; none when it is not JSON-RPC. */
function parseCalls(text: string): RpcCall[] {
  try {
    const parsed = JSON.parse(text) as RpcCall | RpcCall[];
    return (Array.isArray(parsed) ? parsed : [parsed]).filter((call) => typeof call?.method === 'string');
  } catch {
    return [];
  }
}
