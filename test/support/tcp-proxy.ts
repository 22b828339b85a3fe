/**
 * A loopback TCP proxy in front of a server, so a test can cut one client's link:
 * `blackhole()` keeps the sockets open but forwards nothing (a partition the client
 * only notices by timeouts), `sever()` closes them and refuses new ones, `restore()`
 * heals either. `retarget()` sends new connections to another server, as a service
 * replaced behind one address would.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export class TcpProxy {
  readonly #pairs = new Set<{ client: Socket; upstream: Socket }>();
  #mode: 'open' | 'blackhole' | 'severed' = 'open';
  #target: { host: string; port: number } = { host: '127.0.0.1', port: 0 };

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => proxy!.#accept(client, proxy!.#target.host, proxy!.#target.port));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpProxy(server, (server.address() as AddressInfo).port);
    proxy.#target = { host: targetHost, port: targetPort };
    return proxy;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  blackhole(): void {
    this.#mode = 'blackhole';
  }

  sever(): void {
    this.#mode = 'severed';
    for (const { client, upstream } of this.#pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.#pairs.clear();
  }

  /** Closes the open connections and sends new ones to `port`. */
  retarget(port: number, host = '127.0.0.1'): void {
    this.#target = { host, port };
    this.sever();
    this.#mode = 'open';
  }

  restore(): void {
    // Sockets that sat in a blackhole hold half-delivered frames: close them so the client reconnects cleanly.
    if (this.#mode === 'blackhole') this.sever();
    this.#mode = 'open';
  }

  async close(): Promise<void> {
    this.sever();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  #accept(client: Socket, host: string, port: number): void {
    if (this.#mode === 'severed') {
      client.destroy();
      return;
    }
    const upstream = connect(port, host);
    const pair = { client, upstream };
    this.#pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (this.#mode === 'open') to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.#pairs.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  }
}
