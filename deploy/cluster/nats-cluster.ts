/**
 * Three nats-servers clustered with JetStream on loopback, each with its own JetStream
 * folder, routes to the other two and a name of its own (JetStream's cluster needs both).
 * The cluster is ready once every server serves clients and JetStream has a meta leader.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { freePort, listening } from './free-port.js';
import { ServiceProcess } from './service-process.js';

export const NATS_SERVER = '/usr/sbin/nats-server';
const CLUSTER_NAME = 'peer-local';

export interface NatsServerSpec {
  name: string;
  clientPort: number;
  routePort: number;
}

export class NatsCluster {
  readonly processes: ServiceProcess[] = [];

  private constructor(
    readonly servers: NatsServerSpec[],
    private readonly folder: string,
  ) {}

  /** The NATS_URL a node is given: every server, so it can move to another when one restarts. */
  get url(): string {
    return this.servers.map((server) => `nats://127.0.0.1:${server.clientPort}`).join(',');
  }

  static async start(folder: string, size = 3, timeoutMs = 30_000): Promise<NatsCluster> {
    const servers: NatsServerSpec[] = [];
    for (let index = 1; index <= size; index++) servers.push({ name: `nats-${index}`, clientPort: await freePort(), routePort: await freePort() });
    const cluster = new NatsCluster(servers, folder);
    for (const server of servers) cluster.processes.push(cluster.#spawn(server));
    try {
      await Promise.all(cluster.processes.map((proc, index) => proc.ready(() => listening(servers[index]!.clientPort), timeoutMs)));
      await cluster.#jetStreamReady(timeoutMs);
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  #spawn(server: NatsServerSpec): ServiceProcess {
    const store = join(this.folder, server.name);
    mkdirSync(store, { recursive: true });
    const routes = this.servers
      .filter((other) => other !== server)
      .map((other) => `nats://127.0.0.1:${other.routePort}`)
      .join(',');
    return ServiceProcess.spawn({
      name: server.name,
      command: NATS_SERVER,
      args: [
        ...['-a', '127.0.0.1', '-p', String(server.clientPort), '-n', server.name, '-js', '-sd', store],
        ...['--cluster_name', CLUSTER_NAME, '--cluster', `nats://127.0.0.1:${server.routePort}`, '--routes', routes],
      ],
      env: {},
      cwd: this.folder,
      logFile: join(this.folder, `${server.name}.log`),
    });
  }

  /** JetStream answers once the servers have elected a meta leader; until then account info fails. */
  async #jetStreamReady(timeoutMs: number): Promise<void> {
    const nc = await connect({ servers: this.url.split(',') });
    try {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          const jsm = await jetstreamManager(nc, { timeout: 2_000 });
          await jsm.getAccountInfo();
          return;
        } catch (error) {
          if (Date.now() > deadline) throw new Error(`JetStream had no meta leader within ${timeoutMs} ms: ${(error as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    } finally {
      await nc.close();
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes.map((proc) => proc.stop(5_000)));
  }
}
