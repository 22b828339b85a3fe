/** Turns an operation's spec into the route middleware that parses its input and calls its handler. */
import type { RouterMiddleware } from '@koa/router';
import { roleGate } from '../dashboard/principal.js';
import { parseOrThrow } from '../validation.js';
import {
  MOUNTED_GUARDS,
  type Input,
  type MountedGuard,
  type Mounting,
  type Operation,
  type OperationContext,
  type OperationSpec,
  type RequestSchemas,
} from './operation.js';
import type { GatewayState } from '../state.js';

export function defineOperation<D, R extends RequestSchemas = Record<never, never>>(spec: OperationSpec<D, R>): Operation<D> {
  const { handle, before, ...described } = spec;
  return {
    spec: described,
    middleware(deps: D, mounting: Mounting): RouterMiddleware<GatewayState>[] {
      const handler = handle(deps);
      const request: RequestSchemas = spec.request ?? {};
      const parse = (ctx: OperationContext): Input<R> => {
        const input: Partial<Record<keyof RequestSchemas, unknown>> = {};
        const read = spec.read ?? {};
        if (request.path) input.path = parseOrThrow(request.path, read.path ? read.path(ctx) : ctx.params);
        if (request.query) input.query = parseOrThrow(request.query, read.query ? read.query(ctx) : ctx.query);
        if (request.header) input.header = parseOrThrow(request.header, read.header ? read.header(ctx) : ctx.headers);
        if (request.body) input.body = parseOrThrow(request.body, read.body ? read.body(ctx) : ctx.request.body, spec.retiredFields);
        // Each part is its schema's output, which is what Input<R> says of it; TypeScript cannot follow a generic record built key by key.
        return input as Input<R>;
      };
      const mounted = MOUNTED_GUARDS.includes(spec.guard);
      const guard = mounted ? mounting.guards[spec.guard as MountedGuard] : undefined;
      if (mounted && !guard) {
        throw new Error(`${spec.operationId}: no ${spec.guard} guard to mount it behind`);
      }
      const body = request.body || spec.documented?.body ? mounting.body : undefined;
      if ((request.body || spec.documented?.body) && !body) throw new Error(`${spec.operationId}: no body parser to mount`);
      const audit = mounting.audit && (spec.guard === 'session' || spec.guard === 'merchant') ? mounting.audit(spec.operationId) : undefined;
      return [
        ...(guard ? [guard] : []),
        ...(audit ? [audit] : []),
        ...(before ? before(deps) : []),
        ...(spec.roles ? [roleGate(spec.roles)] : []),
        ...(body ? [body] : []),
        async (ctx) => {
          await handler(ctx, parse(ctx));
        },
      ];
    },
  };
}
