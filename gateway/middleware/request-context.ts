/**
 * Gives every request an id (the caller's `x-request-id` when it is sane, else a
 * new one), echoes it in the response, and logs one line per request with it.
 *
 * Every line a request writes carries its id (and its merchant once the API key is
 * checked), yet most requests write only the access line: so that line is written
 * with the fields in it (access-line.ts), and a child logger is made only when
 * something else logs. The access line holds only identifiers and figures this
 * middleware puts there, none of them secret, so it skips the redaction every other
 * line pays (pino walks each field of a line through every wildcard path of
 * actors/logger.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { accessLine, type AccessFields, type AccessLine } from './access-line.js';

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export interface RequestState {
  requestId: string;
  /** The request's logger: its lines carry the request's log fields. Made when first read. */
  readonly log: Logger;
  /** Adds identifiers (never secrets: the access line is not redacted) to every line the request writes from now on. */
  addLogFields(fields: Record<string, string>): void;
}

class RequestScope implements RequestState {
  #fields: Record<string, string>;
  #log: Logger | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly writeAccess: AccessLine,
    readonly requestId: string,
  ) {
    this.#fields = { requestId };
  }

  get log(): Logger {
    return (this.#log ??= this.logger.child(this.#fields));
  }

  addLogFields(fields: Record<string, string>): void {
    this.#fields = { ...this.#fields, ...fields };
    this.#log = this.#log?.child(fields);
  }

  /** The access line, with the request's fields in the line: no child for the one line every request writes. */
  access(fields: AccessFields): void {
    this.writeAccess(this.#fields, fields);
  }
}

export function requestContext(logger: Logger): Middleware<RequestState> {
  const writeAccess = accessLine(logger.child({}, { redact: [] }));
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SANE_ID.test(incoming) ? incoming : randomUUID();
    const scope = new RequestScope(logger, writeAccess, requestId);
    // The first middleware: nothing has put anything on the state yet.
    ctx.state = scope;
    ctx.set('x-request-id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      scope.access({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 100) / 100 });
    }
  };
}
