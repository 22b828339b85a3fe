/**
 * The dashboard's calls, same origin, with the session cookie the browser keeps (HttpOnly: the
 * page never sees it) and, on every call that changes something, the session's CSRF token in
 * x-csrf-token (docs/dashboard-auth.md). A refusal arrives as a DashboardError carrying the
 * envelope's errorCode and responseObject (a 422's reason, a 409's actionId).
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type { CheckoutPayment } from '../../../machines/payment/checkout-payment.js';

export type { CheckoutPayment };
export type Role = 'OWNER' | 'MANAGER' | 'CASHIER';
export type Environment = 'LIVE' | 'SANDBOX';
export type OrderStatus = 'CREATED' | 'PARTIALLY_FULFILLED' | 'FULFILLED' | 'CANCELLED';
export type ActionStatus = 'PENDING_APPROVAL' | 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'BLOCKED' | 'FAILED';
export type ActionKind = 'recreate' | 'extend' | 'fulfill-sar';

export interface DashboardSession {
  sessionId: string;
  userId: string;
  email: string;
  role: Role;
  merchantId: string;
  merchantName: string;
  environment: Environment;
  accountId: string;
  expiresAt: string;
  csrfToken: string;
}

export interface Order {
  id: string;
  status: OrderStatus;
  amountMode: 'FIXED' | 'OPEN';
  requestedUsdcAmount: string | null;
  remainingUsdcAmount: string | null;
  createdAt: string;
  cancelledAt: string | null;
  completedAt: string | null;
  notes: unknown;
  hasActivePayment?: boolean;
  hasExpiredPayment?: boolean;
  paymentSelectedRail?: string | null;
}

/** A dispute as GET /api/v1/merchants/me/disputes lists it (docs/disputes.md): the fields the page shows. */
export interface DisputeRow {
  id: string;
  disputeId: string;
  paymentId: string;
  orderId: string;
  status: 'OPEN' | 'PAID' | 'ESCALATED';
  amountUsdc: string;
  caseAmount: string;
  caseCurrency: string;
  sellerAddress: string;
  dueAt: string;
  paidTxHash: string | null;
}

/** What POST …/orders/{orderId}/resize answers: the order now, and the resize its key names. */
export interface OrderResize {
  order: Order;
  resize: { previousAmountUsdc: string; newAmountUsdc: string };
  idempotentReplay: boolean;
}

export interface Page {
  total: number;
  /** More match than the total counted to (docs/api-conventions.md, "List totals"). */
  totalCapped: boolean;
  page: number;
  limit: number;
}

export interface MerchantAction {
  actionId: string;
  actionName: 'RECREATE' | 'EXTEND' | 'FULFILL_SAR';
  paymentId: string;
  status: ActionStatus;
  error: { code: string; message: string } | null;
  result: Record<string, unknown> | null;
  payment: CheckoutPayment;
  createdAt: string;
  finishedAt: string | null;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  disabledReason: { code: string; message: string } | null;
  createdAt: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventType: string;
  eventId: string;
  status: string;
  attempts: number;
  responseCode: number | null;
  createdAt: string;
  failure: { code: string; message: string } | null;
}

export interface DeliveryDetail extends Delivery {
  attemptHistory: Array<{ number: number; at: string; manual: boolean; responseCode: number | null; durationMs: number; error: string | null }>;
  payload: string;
}

export interface Member {
  userId: string;
  email: string;
  role: Role;
  status: 'INVITED' | 'ACTIVE';
  invitedAt: string;
  joinedAt: string | null;
}

/** A passkey of the signed-in member, as GET /api/v1/dashboard/passkeys lists it. */
export interface Passkey {
  passkeyId: string;
  name: string;
  transports: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export interface AuditEntry {
  id: string;
  environment: Environment | null;
  actor: { kind: 'apiKey' } | { kind: 'session'; email: string };
  operationId: string;
  targets: Record<string, string>;
  at: string;
  status: number;
}

export interface Payout {
  payoutId: string;
  merchantReference: string | null;
  status: string;
  payout: { amount: string };
  createdAt: string;
}

/** One payout as GET /api/v1/payouts/{id} answers it: the fields the payout screen shows. */
export interface PayoutDetail extends Payout {
  fundingStatus: string;
  funding: { chainId: number; amount: string; sentAmount: string; receivedAmount: string; depositAddress: string | null; quoteExpiresAt: string };
  depositAmount: string | null;
  paidAmount: string;
}

/** GET /api/v1/payouts/{id}/timeline (docs/payouts.md): what happened, and the money not counted. */
export interface PayoutTimeline {
  timeline: Array<{ type: string; text: string; txHash: string | null; txChainId: number | null; occurredAt: string }>;
  fundingIssues: Array<{
    kind: 'OVERPAYMENT' | 'LATE_FUNDS' | 'ROUTE_REFUND';
    transferId: string | null;
    amount: string;
    unit: string;
    txHash: string | null;
    occurredAt: string;
  }>;
}

/** The checkout's look (docs/branding.md), as GET and PATCH /api/v1/merchants/me/branding answer it. */
export type ThemeMode = 'light' | 'dark' | 'auto';
export interface Branding {
  disableBranding: boolean;
  checkoutTheme: { accentColor: string; mode: ThemeMode } | null;
}

export class DashboardError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    /** The envelope's responseObject on a refusal: a 422's reason, a 409's actionId, a sign-in's businesses. */
    readonly details: Record<string, unknown> | null,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined>;

export class DashboardApi {
  /** The session's CSRF token, once signed in; every call that changes something carries it. */
  csrfToken: string | null = null;

  requestCode(email: string): Promise<{ codeExpiresInSeconds: number }> {
    return this.#call('POST', '/api/v1/dashboard/sign-in/code', { email });
  }

  async signIn(body: { email: string; code: string; merchantId?: string }): Promise<DashboardSession> {
    return this.#keep(await this.#call<DashboardSession>('POST', '/api/v1/dashboard/sign-in', body));
  }

  /** The options navigator.credentials.get() takes; they name nobody. */
  passkeySignInOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return this.#call('POST', '/api/v1/dashboard/sign-in/passkey/options');
  }

  async signInWithPasskey(response: AuthenticationResponseJSON): Promise<DashboardSession> {
    return this.#keep(await this.#call<DashboardSession>('POST', '/api/v1/dashboard/sign-in/passkey', { response }));
  }

  passkeys(): Promise<{ passkeys: Passkey[] }> {
    return this.#call('GET', '/api/v1/dashboard/passkeys');
  }

  passkeyRegistrationOptions(): Promise<PublicKeyCredentialCreationOptionsJSON> {
    return this.#call('POST', '/api/v1/dashboard/passkeys/registration-options');
  }

  registerPasskey(response: RegistrationResponseJSON, name: string | undefined): Promise<Passkey> {
    return this.#call('POST', '/api/v1/dashboard/passkeys', { response, ...(name ? { name } : {}) });
  }

  removePasskey(passkeyId: string): Promise<unknown> {
    return this.#call('DELETE', `/api/v1/dashboard/passkeys/${encodeURIComponent(passkeyId)}`);
  }

  async session(): Promise<DashboardSession> {
    return this.#keep(await this.#call<DashboardSession>('GET', '/api/v1/dashboard/session'));
  }

  async switchEnvironment(environment: Environment): Promise<DashboardSession> {
    return this.#keep(await this.#call<DashboardSession>('POST', '/api/v1/dashboard/session/environment', { environment }));
  }

  async signOut(): Promise<void> {
    await this.#call('POST', '/api/v1/dashboard/sign-out');
    this.csrfToken = null;
  }

  profile(): Promise<{ id: string; name: string; apiKey: string; environment: Environment; tier: string | null }> {
    return this.#call('GET', '/api/v1/merchants/me');
  }

  orders(query: Query): Promise<Page & { orders: Order[] }> {
    return this.#call('GET', `/api/v1/merchants/me/orders${queryString(query)}`);
  }

  order(orderId: string): Promise<{ order: Order; payments: CheckoutPayment[] }> {
    return this.#call('GET', `/api/v1/merchants/me/orders/${encodeURIComponent(orderId)}`);
  }

  cancelOrder(orderId: string): Promise<{ order: Order; payments: CheckoutPayment[] }> {
    return this.#call('POST', `/api/v1/merchants/me/orders/${encodeURIComponent(orderId)}/cancel`);
  }

  /** POST …/resize (docs/resize.md): a FIXED order's new amount, named by `idempotencyKey` so a retry resizes once. */
  resizeOrder(orderId: string, requestedUsdcAmount: string, idempotencyKey: string): Promise<OrderResize> {
    return this.#call('POST', `/api/v1/merchants/me/orders/${encodeURIComponent(orderId)}/resize`, { requestedUsdcAmount, idempotencyKey });
  }

  startAction(orderId: string, paymentId: string, kind: ActionKind, txId?: string): Promise<{ actionId: string; status: ActionStatus }> {
    const path = `/api/v1/merchants/me/orders/${encodeURIComponent(orderId)}/payments/${encodeURIComponent(paymentId)}/${kind}`;
    return this.#call('POST', path, txId === undefined ? undefined : { txId });
  }

  action(orderId: string, actionId: string): Promise<MerchantAction> {
    return this.#call('GET', `/api/v1/merchants/me/orders/${encodeURIComponent(orderId)}/actions/${encodeURIComponent(actionId)}`);
  }

  webhooks(): Promise<{ webhooks: Webhook[] }> {
    return this.#call('GET', '/api/v1/webhooks');
  }

  createWebhook(url: string): Promise<Webhook & { secret: string }> {
    return this.#call('POST', '/api/v1/webhooks', { url });
  }

  deleteWebhook(webhookId: string): Promise<unknown> {
    return this.#call('DELETE', `/api/v1/webhooks/${encodeURIComponent(webhookId)}`);
  }

  testWebhook(webhookId: string): Promise<{ success: boolean; deliveryId: string; responseCode: number | null; error: string | null }> {
    return this.#call('POST', `/api/v1/webhooks/${encodeURIComponent(webhookId)}/test`, {});
  }

  deliveries(webhookId: string, page: number): Promise<Page & { deliveries: Delivery[] }> {
    return this.#call('GET', `/api/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries${queryString({ page, limit: 20 })}`);
  }

  delivery(webhookId: string, deliveryId: string): Promise<DeliveryDetail> {
    return this.#call('GET', `/api/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}`);
  }

  redeliver(webhookId: string, deliveryId: string): Promise<Delivery> {
    return this.#call('POST', `/api/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);
  }

  rotateApiKey(): Promise<{ apiKey: string; apiKeyHint: string; environment: Environment }> {
    return this.#call('POST', '/api/v1/merchants/me/api-key/rotate');
  }

  team(): Promise<{ users: Member[] }> {
    return this.#call('GET', '/api/v1/merchants/me/users');
  }

  invite(email: string, role: Role): Promise<Member> {
    return this.#call('POST', '/api/v1/merchants/me/users', { email, role });
  }

  changeRole(userId: string, role: Role): Promise<Member> {
    return this.#call('PATCH', `/api/v1/merchants/me/users/${encodeURIComponent(userId)}`, { role });
  }

  removeMember(userId: string): Promise<unknown> {
    return this.#call('DELETE', `/api/v1/merchants/me/users/${encodeURIComponent(userId)}`);
  }

  auditLog(page: number, reads: boolean): Promise<Page & { entries: AuditEntry[] }> {
    return this.#call('GET', `/api/v1/merchants/me/audit-log${queryString({ page, limit: 25, reads: reads ? 'include' : 'exclude' })}`);
  }

  payout(payoutId: string): Promise<PayoutDetail> {
    return this.#call('GET', `/api/v1/payouts/${encodeURIComponent(payoutId)}`);
  }

  payoutTimeline(payoutId: string): Promise<PayoutTimeline> {
    return this.#call('GET', `/api/v1/payouts/${encodeURIComponent(payoutId)}/timeline`);
  }

  payouts(page: number): Promise<Page & { items: Payout[] }> {
    return this.#call('GET', `/api/v1/payouts${queryString({ page, limit: 20 })}`);
  }

  disputes(query: { page: number; status?: string }): Promise<Page & { disputes: DisputeRow[] }> {
    return this.#call('GET', `/api/v1/merchants/me/disputes${queryString({ ...query, limit: 20 })}`);
  }

  /** Records the Base transaction that paid the dispute (docs/disputes.md); the answer is the dispute, PAID. */
  payDispute(disputeId: string, txHash: string): Promise<DisputeRow> {
    return this.#call('POST', `/api/v1/merchants/me/disputes/${encodeURIComponent(disputeId)}/payment`, { txHash });
  }

  #keep(session: DashboardSession): DashboardSession {
    this.csrfToken = session.csrfToken;
    return session;
  }

  branding(): Promise<Branding> {
    return this.#call('GET', '/api/v1/merchants/me/branding');
  }

  updateBranding(change: Partial<Branding>): Promise<Branding> {
    return this.#call('PATCH', '/api/v1/merchants/me/branding', change);
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (method !== 'GET' && this.csrfToken) headers['x-csrf-token'] = this.csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
    const envelope = (await response.json().catch(() => null)) as { success?: boolean; message?: string; errorCode?: string; responseObject?: unknown } | null;
    if (!response.ok || !envelope?.success) {
      const details = envelope?.responseObject && typeof envelope.responseObject === 'object' ? (envelope.responseObject as Record<string, unknown>) : null;
      throw new DashboardError(response.status, envelope?.errorCode ?? null, envelope?.message ?? `request failed (${response.status})`, details);
    }
    return envelope.responseObject as T;
  }
}

function queryString(query: Query): string {
  const entries = Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '');
  return entries.length ? `?${new URLSearchParams(entries.map(([key, value]): [string, string] => [key, String(value)])).toString()}` : '';
}
