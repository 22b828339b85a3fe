/**
 * One endpoint, defined once: its method and path, how the document names and
 * describes it, who may call it, what it takes and answers, and its handler. The
 * router (router.ts) and the OpenAPI paths (paths.ts) are both made from these
 * definitions, so a route and its documented operation cannot disagree.
 */
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type { Middleware } from 'koa';
import type { z } from 'zod';
import type { ZodObjectInput } from 'zod-openapi';
import type { MemberRole } from '../../machines/merchant/index.js';
import type { Answers } from '../openapi/answers.js';
import type { GatewayState } from '../state.js';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * Who may call an operation. `apiKey`, `makerToken`, `session` (a merchant dashboard
 * session only) and `merchant` (the API key or a dashboard session) are checked by their guard
 * ahead of the body (gateway/dashboard/session-guard.ts for the last two); `adminToken` by the guarded area the admin API is mounted in;
 * `orderToken` by the handler, so that a wrong token and an unknown order answer alike;
 * `walletProviderSignature` by the handler, over the body as received; `cashoutLink` (a payout's
 * checkout link token) and `cashoutSignedIn` (that and the customer's login token) by the
 * handler, in document 2's order (gateway/cashout/cashout-access.ts).
 */
export type Guard =
  | 'none'
  | 'apiKey'
  | 'session'
  | 'merchant'
  | 'adminToken'
  | 'orderToken'
  | 'makerToken'
  | 'walletProviderSignature'
  | 'cashoutLink'
  | 'cashoutSignedIn';

/** The guards that run as the route's middleware, from `Mounting.guards`. */
export type MountedGuard = Extract<Guard, 'apiKey' | 'session' | 'merchant' | 'makerToken'>;
export const MOUNTED_GUARDS: readonly Guard[] = ['apiKey', 'session', 'merchant', 'makerToken'];

/** What an operation takes, each part validated by its schema before the handler runs, in this order: path, query, header, body. */
export interface RequestSchemas {
  path?: ZodObjectInput & z.ZodType;
  query?: ZodObjectInput & z.ZodType;
  header?: ZodObjectInput & z.ZodType;
  body?: z.ZodType;
}

/** The parsed request: each schema's output, for the parts the operation declares. */
export type Input<R extends RequestSchemas> = { [K in keyof R]: R[K] extends z.ZodType ? z.output<R[K]> : never };

export type OperationContext = RouterContext<GatewayState>;

/** The handler of an operation, given its dependencies: answers the request from its parsed input. */
export type Handler<R extends RequestSchemas> = (ctx: OperationContext, input: Input<R>) => unknown;

/** What the router adds ahead of a handler: the guards that run as middleware and the JSON body parser. */
export interface Mounting {
  guards: Partial<Record<MountedGuard, Middleware<GatewayState>>>;
  /** Unset where no operation takes a body (a router of its own, such as the metrics server's). */
  body?: Middleware<GatewayState>;
  /**
   * Records a call of the operation a dashboard session made, once the guard admitted it (the
   * audit log: docs/dashboard-auth.md); mounted right after the `session` and `merchant` guards.
   * Unset where no area is audited.
   */
  audit?: (operationId: string) => Middleware<GatewayState>;
}

export interface OperationSpec<D, R extends RequestSchemas> {
  method: Method;
  /** The route's path template as the router writes it: `/api/v1/orders/:orderId`. */
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  guard: Guard;
  /** Specification extensions the document carries, such as `x-key-environment`. */
  extensions?: Readonly<Record<`x-${string}`, unknown>>;
  request?: R;
  /**
   * Parts the document declares but the router does not parse: the handler reads them
   * itself and answers what does not fit its own way (a provider template's unknown
   * platform is a 404, not a 400). A documented body still mounts the body parser.
   */
  documented?: RequestSchemas;
  /** Where a part is read from when not from the router's params, `ctx.query`, the headers or the parsed body. */
  read?: Partial<Record<keyof RequestSchemas, (ctx: OperationContext) => unknown>>;
  /** An example of the body, documented on its media type (where the schema is any object, an example on it would read as its shape). */
  bodyExample?: unknown;
  /** The body may be absent (an empty body parses as `{}`); documented as not required. */
  optionalBody?: boolean;
  /** Fields an older API version took in the body, each with the field error saying what replaced it (validation.ts). */
  retiredFields?: Readonly<Record<string, string>>;
  /** Middleware between the guard and the body parser, such as a rate limit of the caller. */
  before?: (deps: D) => Middleware<GatewayState>[];
  /**
   * The dashboard roles a session needs (an API key passes): asked after `before` (so an audited
   * route records the refusal) and ahead of the body and the path, so a member without the role
   * is told 403 ROLE_NOT_ALLOWED whatever they sent.
   */
  roles?: readonly MemberRole[];
  answers: Answers;
  handle(deps: D): Handler<R>;
}

/** An operation with its request types closed over: what an area lists and what the router and the document read. */
export interface Operation<D> {
  readonly spec: Omit<OperationSpec<D, RequestSchemas>, 'handle' | 'before'>;
  /** The route's middleware, guard first and handler last. */
  middleware(deps: D, mounting: Mounting): RouterMiddleware<GatewayState>[];
}
