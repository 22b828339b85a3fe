/**
 * Gives every request an id (the caller's `x-request-id` when it is sane, else a
 * new one), echoes it in the response, and logs one line per request with it.
 */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export interface RequestState {
  requestId: string;
  log: Logger;
}

export function requestContext(logger: Logger): Middleware<RequestState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SANE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('x-request-id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      ctx.state.log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 100) / 100 }, 'request');
    }
  };
}
