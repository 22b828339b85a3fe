/**
 * The page's calls: the hosted read (no credential: the order id is one) and the
 * customer's endpoints with the order token. A refusal arrives as a CheckoutError with
 * the envelope's errorCode, which the page turns into words.
 */
import type { CheckoutPayment } from '../../../machines/payment/checkout-payment.js';

export type { CheckoutPayment };

export interface HostedOrder {
  order: {
    id: string;
    status: 'CREATED' | 'PARTIALLY_FULFILLED' | 'FULFILLED' | 'CANCELLED';
    amountMode: 'FIXED' | 'OPEN';
    requestedUsdcAmount: string | null;
    remainingUsdcAmount: string | null;
    requestedFiat: { amount: string; currency: string } | null;
    successUrl: string | null;
    cancelUrl: string | null;
    amountVersion?: number;
    amountLock?: string | null;
    openAmount?: {
      currency: string;
      minAmount: string | null;
      maxAmount: string | null;
      presets: string[];
      effectiveMin: string | null;
      effectiveMax: string | null;
      savedInput: { amount: string; currency: string } | null;
    };
  };
  merchant: {
    name: string;
    logoUrl: string | null;
    environment: 'LIVE' | 'SANDBOX';
    disableBranding: boolean;
    checkoutTheme: CheckoutTheme | null;
    verified: boolean;
  } | null;
  currentPayment: CheckoutPayment | null;
}

/** The merchant's checkout theme (docs/branding.md), as the hosted read carries it. */
export interface CheckoutTheme {
  accentColor: string;
  mode: 'light' | 'dark' | 'auto';
}

export interface Quote {
  platform: string;
  displayAmount: string;
  spreadPercentage: number;
  paymentMethodId: string | null;
  currency: string;
  currencyPerUsdRate: string;
  totalUsdcFeeAmount: string;
  payTo: string;
  recipientRating: number;
}

export class CheckoutError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    /** A validation 400's field and form errors (document 1); empty on every other refusal. */
    readonly fieldErrors: Record<string, string[]> = {},
    readonly formErrors: string[] = [],
  ) {
    super(message);
  }
}

export class CheckoutApi {
  constructor(
    readonly orderId: string,
    private readonly token: string,
  ) {}

  hostedOrder(): Promise<HostedOrder> {
    return call(`/api/v1/orders/${encodeURIComponent(this.orderId)}`, {});
  }

  quotes(): Promise<{ platforms: Quote[] }> {
    return this.#customer('GET', '/quotes');
  }

  setAmount(amount: string, currency: string, amountVersion: number | undefined): Promise<HostedOrder> {
    return this.#customer('POST', '/amount', { amount, currency, ...(amountVersion === undefined ? {} : { amountVersion }) });
  }

  createPayment(body: {
    rail: string;
    fiatCurrency?: string;
    currency?: string;
    paymentMethodId?: string;
    replacementPaymentId?: string;
  }): Promise<CheckoutPayment> {
    return this.#customer('POST', '/payments', body);
  }

  step(paymentId: string, action: 'cancel' | 'sent' | 'simulate'): Promise<CheckoutPayment> {
    return this.#customer('POST', `/payments/${encodeURIComponent(paymentId)}/${action}`);
  }

  submitProof(paymentId: string, proof: { encryptedSessionMaterial: string; params: Record<string, string> }): Promise<CheckoutPayment> {
    return this.#customer('POST', `/payments/${encodeURIComponent(paymentId)}/proof`, proof);
  }

  #customer<T>(method: string, path: string, body?: unknown): Promise<T> {
    return call(`/api/v1/checkout/orders/${encodeURIComponent(this.orderId)}${path}`, { method, token: this.token, body });
  }
}

async function call<T>(path: string, options: { method?: string; token?: string; body?: unknown }): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const envelope = (await response.json().catch(() => null)) as { success?: boolean; message?: string; errorCode?: string; responseObject?: unknown } | null;
  if (!response.ok || !envelope?.success) {
    const invalid = (envelope?.errorCode ? null : envelope?.responseObject) as
      | { fieldErrors?: Record<string, string[]>; formErrors?: string[] }
      | null
      | undefined;
    throw new CheckoutError(
      response.status,
      envelope?.errorCode ?? null,
      envelope?.message ?? `request failed (${response.status})`,
      invalid?.fieldErrors ?? {},
      invalid?.formErrors ?? [],
    );
  }
  return envelope.responseObject as T;
}
