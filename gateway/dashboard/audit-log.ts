/**
 * The business's audit log (docs/dashboard-auth.md): who changed what through the dashboard,
 * and every sign-in and sign-out. One collection on the node's store, appended to and never
 * changed: an entry is a record of a request, not a resource an actor owns. Entries of a
 * business (its LIVE account's id, whichever environment the call was on) are read newest first.
 *
 * `audited(log, operationId, targets)` is the middleware a route puts after its guard: it
 * records the call once answered, refused or failed alike, with the status it was answered with.
 */
import type { Middleware } from 'koa';
import type { Environment } from '../../machines/merchant/index.js';
import { answerOf } from '../../actors/errors/error-table.js';
import type { Collection, Store } from '../../actors/store/store.js';
import { ApiError } from '../envelope.js';
import { newId } from '../ids.js';
import { cappedTotal, countLimit, type PageTotal } from '../paged-views.js';
import type { GatewayState } from '../state.js';
import type { Principal } from './principal.js';

export type AuditActor = { kind: 'apiKey' } | { kind: 'session'; userId: string; email: string; sessionId: string };

export interface AuditEntry {
  id: string;
  /** The business: its LIVE account. */
  merchantId: string;
  /** The environment the call was on; null for a sign-in refused before one was chosen. */
  environment: Environment | null;
  actor: AuditActor;
  /** The operation, by its OpenAPI operationId (signInDashboard, cancelMerchantOrder, …). */
  operationId: string;
  /** The ids the call named: orderId, userId, paymentId, … */
  targets: Record<string, string>;
  at: string;
  clientIp: string;
  /** The HTTP status the call was answered with. */
  status: number;
  /** A GET or HEAD: a read, which changes nothing (listed apart: `reads=exclude`). */
  read: boolean;
}

/**
 * `order` sorts entries of one instant in the order this node recorded them (a clock read to the
 * millisecond, or a test clock standing still, gives many entries one `at`); entries of two nodes
 * in one millisecond are in no particular order.
 */
type AuditDoc = Omit<AuditEntry, 'id' | 'read'> & { _id: string; order: string; read?: boolean };

export class AuditLog {
  #collection: Promise<Collection<AuditDoc>> | null = null;
  #recorded = 0;

  constructor(
    private readonly store: Store,
    private readonly now: () => string,
    /** Where a page's total stops counting (paged-views.ts). */
    private readonly totalCap: number,
  ) {}

  async record(entry: Omit<AuditEntry, 'id' | 'at' | 'read'> & { at?: string; read?: boolean }): Promise<AuditEntry> {
    const recorded: AuditEntry = { ...entry, read: entry.read ?? false, id: newId('aud'), at: entry.at ?? this.now() };
    const { id, ...rest } = recorded;
    const order = `${recorded.at}|${String(this.#recorded++).padStart(12, '0')}`;
    await (await this.#entries()).insertOne({ _id: id, ...rest, order });
    return recorded;
  }

  /** A page of the business's entries, newest first; without the reads when `reads` is false. */
  async page(merchantId: string, page: number, limit: number, reads = true): Promise<{ entries: AuditEntry[] } & PageTotal> {
    const entries = await this.#entries();
    // Entries from before reads were recorded carry no `read`: they are changes.
    const filter = reads ? { merchantId } : { merchantId, read: { $ne: true } };
    const [docs, counted] = await Promise.all([
      entries.find(filter, { sort: { order: -1 }, skip: (page - 1) * limit, limit }),
      entries.count(filter, countLimit(this.totalCap)),
    ]);
    return { entries: docs.map(({ _id, order: _order, ...rest }) => ({ id: _id, ...rest, read: rest.read ?? false })), ...cappedTotal(counted, this.totalCap) };
  }

  #entries() {
    this.#collection ??= this.store.collection<AuditDoc>({
      name: 'dashboard_audit_log',
      indexes: [{ key: { merchantId: 1, order: -1 }, name: 'audit_by_business' }],
    });
    return this.#collection;
  }
}

export function auditActorOf(principal: Principal): AuditActor {
  return principal.kind === 'apiKey'
    ? { kind: 'apiKey' }
    : { kind: 'session', userId: principal.userId, email: principal.email, sessionId: principal.sessionId };
}

/** Runs the rest of the chain, then `record` with the answer's status (the error's, when it threw), whichever way it ended. */
async function afterAnswer(
  ctx: Parameters<Middleware<GatewayState>>[0],
  next: () => Promise<unknown>,
  record: (status: number) => Promise<void>,
): Promise<void> {
  let status = 500;
  try {
    await next();
    status = ctx.status;
  } catch (error) {
    status = statusOf(error);
    throw error;
  } finally {
    await record(status);
  }
}

/**
 * Records the call a guarded route answers: who (ctx.state.principal), on which business and
 * environment (ctx.state.account), the operation and its targets, the client address and the
 * status, whether the handler answered or threw. For the remediation routes as for the
 * dashboard's own. `targets` reads the ids from the request (by default, the path's parameters).
 */
export function audited(
  log: AuditLog,
  operationId: string,
  targets: (ctx: Parameters<Middleware<GatewayState>>[0]) => Record<string, string> = (ctx) => ({ ...(ctx as { params?: Record<string, string> }).params }),
): Middleware<GatewayState> {
  return (ctx, next) =>
    afterAnswer(ctx, next, async (status) => {
      recorded.add(ctx);
      await log.record(entryOf(ctx, operationId, targets(ctx), status));
    });
}

/**
 * The audit of every call a dashboard session makes (document 1: "every dashboard and action
 * call", reads included), mounted after the session and merchant guards: what the guard admitted
 * is recorded once answered, with the path's ids as targets. A call an operation's own `audited`
 * recorded (with its own targets) is not recorded twice; an API key's calls are the business's
 * backend, not the dashboard, and are recorded only where the operation says `audited` (the
 * remediation actions and their poll).
 */
export function auditSessions(log: AuditLog): (operationId: string) => Middleware<GatewayState> {
  return (operationId) => (ctx, next) =>
    afterAnswer(ctx, next, async (status) => {
      if (ctx.state.principal?.kind === 'session' && !recorded.has(ctx)) {
        await log.record(entryOf(ctx, operationId, { ...(ctx as { params?: Record<string, string> }).params }, status));
      }
    });
}

/** The requests an operation's own `audited` recorded. */
const recorded = new WeakSet<object>();

function statusOf(error: unknown): number {
  return error instanceof ApiError ? error.statusCode : (answerOf(error)?.status ?? 500);
}

function entryOf(ctx: Parameters<Middleware<GatewayState>>[0], operationId: string, targets: Record<string, string>, status: number) {
  const { account, principal } = ctx.state;
  return {
    merchantId: account.environment === 'LIVE' ? account.merchantId : account.twinId,
    environment: account.environment,
    actor: auditActorOf(principal),
    operationId,
    targets,
    clientIp: ctx.state.clientIp,
    status,
    read: ctx.method === 'GET' || ctx.method === 'HEAD',
  };
}
