/**
 * The METRICS_PORT server: GET /metrics in Prometheus' text format on a port of its own,
 * for a scraper on a private network.
 *
 * It is unauthenticated on purpose: Prometheus scrapes without credentials unless each
 * job is configured with them, and this port is meant to be reachable only from the
 * scrape network. It listens on METRICS_HOST, 127.0.0.1 by default; bind it to an
 * address the internet can reach only behind a firewall. The gateway's own
 * `GET /metrics` (behind PEER_ADMIN_TOKEN) is the authenticated way in.
 *
 * It answers as the gateway does: the same exact-path router (gateway/service/metrics-operations.ts),
 * and every other request in the envelope (404 on any other path, 405 with Allow for
 * another method, a 500 logged with its request id if reading the metrics fails, 400 for
 * what Node's HTTP parser refuses). It serves nothing but metrics.
 */
import Koa from 'koa';
import type { Logger } from 'pino';
import { createLogger } from '../actors/logger.js';
import { createGatewayServer, listen } from '../gateway/http-server.js';
import { errorEnvelope } from '../gateway/middleware/errors.js';
import { requestContext } from '../gateway/middleware/request-context.js';
import { unmatched } from '../gateway/middleware/unmatched.js';
import { metricsRouter, type MetricsSource } from '../gateway/service/metrics-operations.js';
import type { GatewayState } from '../gateway/state.js';

export interface MetricsServerOptions {
  /** The address to listen on; 127.0.0.1 unless given. */
  host?: string;
  /** 0 picks a free port (tests). */
  port: number;
  metrics: MetricsSource;
  /** One line per scrape at info, and failures; silent unless given. */
  logger?: Logger;
}

export interface MetricsServer {
  /** Base URL, such as http://127.0.0.1:9464; the metrics are at `${url}/metrics`. */
  url: string;
  /** Stops listening and closes open connections (a scraper keeps its connection alive). */
  close(): Promise<void>;
}

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const app = new Koa<GatewayState>();
  app.proxy = false;
  app.silent = true;
  app.use(requestContext(options.logger ?? createLogger({ level: 'silent' })));
  app.use(errorEnvelope());
  app.use(metricsRouter(options.metrics).routes());
  app.use(unmatched());

  const server = createGatewayServer(app.callback());
  const url = await listen(server, options.port, options.host ?? '127.0.0.1');

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    }));
  return { url, close };
}
