/**
 * A small Koa app over real HTTP for middleware tests: request context and the error
 * envelope as in gateway/app.ts, then whatever the test adds, then the answer to what
 * nothing served. Closed at test teardown.
 */
import type { ExecutionContext } from 'ava';
import Koa from 'koa';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../../actors/logger.js';
import { respond, type Envelope } from '../../gateway/envelope.js';
import { errorEnvelope } from '../../gateway/middleware/errors.js';
import { unmatched } from '../../gateway/middleware/unmatched.js';
import { requestContext, type RequestState } from '../../gateway/middleware/request-context.js';

export interface MiddlewareApp {
  url: string;
  /** Every JSON log line the app wrote. */
  logs: string[];
  call(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: Envelope }>;
}

export async function serveMiddleware(
  t: ExecutionContext,
  build: (app: Koa<RequestState>) => void,
  options: { host?: string; urlHost?: string } = {},
): Promise<MiddlewareApp> {
  const logs: string[] = [];
  const app = new Koa<RequestState>();
  app.silent = true;
  app.use(requestContext(createLogger({ level: 'info', destination: { write: (line: string) => void logs.push(line) } })));
  app.use(errorEnvelope());
  build(app);
  app.use(unmatched());
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.urlHost ?? '127.0.0.1'}:${port}`;
  return {
    url,
    logs,
    async call(path, init) {
      const response = await fetch(url + path, init);
      return { status: response.status, headers: response.headers, body: (await response.json()) as Envelope };
    },
  };
}

/** Echoes the state a middleware set, in the envelope. */
export function echoState<S extends RequestState>(pick: (state: S) => unknown): Koa.Middleware<S> {
  return (ctx) => respond(ctx, 200, 'ok', pick(ctx.state));
}
