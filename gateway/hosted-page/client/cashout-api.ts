/**
 * The payout checkout page's calls (docs/payout-checkout.md): every one carries the link's
 * token in X-Cashout-Token, and an action the customer's login token as a bearer. A refusal
 * arrives as a CashoutError with the envelope's errorCode, its responseObject (a 409's
 * { status, actions }, a 422's reason) and a 429's wait, which the page turns into words.
 */
import type { IdentityAttestation } from './account-connect.js';

/** What the page reads of GET /api/v1/cashout-checkout/{payoutId} (CashoutState); test/gateway/hosted-page/cashout-words.test.ts holds it to the API's type. */
export interface CashoutState {
  payout: {
    payoutId: string;
    status: PayoutStatus;
    payout: { amount: string };
    depositAmount: string | null;
    paidAmount: string;
    partialFills: { fiat: FiatValue | null; amount: string; txHash: string; paidAt: string }[];
    settlement: {
      buyerPaidAmount: string;
      buyerPaidFiat: FiatValue[] | null;
      sentAmount: string;
      sentTo: string | null;
      returnedAmount: string;
      dustAmount: string;
      refundFeeAmount: string;
    } | null;
    /** A payout sent to the customer's address, once SETTLED: `amount` in the destination token, `txHash` on its network, `usdcTxHash` the USDC leaving the wallet on Base; `provider` null when sent straight in USDC on Base. */
    payoutTransfer: {
      chainId: number;
      tokenAddress: string;
      address: string;
      amount: string;
      txHash: string;
      usdcTxHash: string;
      provider: 'ROUTEA' | 'ROUTEB' | null;
    } | null;
    cancelSource: 'MERCHANT' | 'PEER_APP' | null;
    returnUrl: string | null;
  };
  merchant: { name: string | null };
  sentTo: string;
  /** The customer's own wallet on Base, which holds the payout: what an account connection is attested for. */
  walletAddress: string | null;
  actions: CashoutAction[];
  rails: { rail: string; kind: 'FIAT' | 'CRYPTO' }[];
  method: FiatMethodView | CryptoMethodView | null;
  /** Why the latest confirm did not list or send. */
  listingError: { code: string; message: string } | null;
  /** The fiat method's account connection (Venmo, Cash App, PayPal): connected or skipped, and until when. */
  connection: { status: 'NOT_NEEDED' | 'PENDING' | 'SKIPPED' | 'CONNECTED'; connectedUntil: string | null } | null;
  /** Decimal USDC still to be paid: what a listing, a send or a price is for. */
  unpaidAmount: string;
  /** The newest crypto payout through the conversion provider; null when there is none. */
  payoutBridge: PayoutBridgeView | null;
  /** What settled the payout: a delivered bridge's transaction on its network, else the one on Base; null before. */
  settleTx: { chainId: number; txHash: string } | null;
  timeline: { type: string; text: string; occurredAt: string }[];
}

export type PayoutStatus = 'AWAITING_FUNDING' | 'FUNDED' | 'READY' | 'LISTING' | 'PAYING' | 'SETTLED' | 'CANCELLED' | 'EXPIRED';
export type CashoutAction = 'SIGN_IN' | 'SAVE_METHOD' | 'SKIP_CONNECT' | 'CONFIRM' | 'RELIST' | 'WITHDRAW' | 'SEND_TO_ADDRESS';
export interface FiatValue {
  currency: string;
  amount: string;
}
export interface FiatMethodView {
  rail: string;
  handle: string;
  currency: string;
}
export interface CryptoDestinationView {
  chainId: number;
  tokenAddress: string;
  symbol: string;
  decimals: number;
  address: string;
}
export interface CryptoMethodView {
  rail: string;
  destination: CryptoDestinationView;
}

/** Document 2's CashoutPayoutBridgeView: QUOTED and BRIDGING are on their way; DELIVERED settled the payout; REFUNDED sent the USDC back. */
export interface PayoutBridgeView {
  provider: 'ROUTEA' | 'ROUTEB';
  status: 'QUOTED' | 'BRIDGING' | 'DELIVERED' | 'REFUNDED';
  destination: CryptoDestinationView;
  usdcAmount: string;
  estimatedAmount: string;
  deliveredAmount: string | null;
  destinationTxHash: string | null;
  refundedAmount: string | null;
  refundTxHash: string | null;
}

/** POST …/payout-quote's answer: what the USDC would deliver to the address now; it binds nothing. */
export interface PayoutQuote {
  destination: CryptoDestinationView;
  usdcAmount: string;
  estimatedAmount: string;
  quotedAt: string;
}

/** Document 2's destination body: of PUT …/method, payout-quote and send-to-address. */
export interface DestinationBody {
  rail: string;
  tokenAddress: string;
  address: string;
}

/** PUT …/method's body: a fiat rail with the handle (a currency on PayPal and Revolut, PayPal's e-mail), or a crypto destination. */
export type SaveMethodBody = { rail: string; payeeHandle: string; currency?: string; paypalEmail?: string } | DestinationBody;

export interface CodeSent {
  sentTo: string;
  expiresAt: string;
}

export interface SignedIn {
  loginToken: string;
  expiresAt: string;
}

export class CashoutError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    /** The envelope's responseObject: a 409's { status, actions }, a 422's { reason }; null otherwise. */
    readonly details: Record<string, unknown> | null = null,
    /** A 429's x-retry-after. */
    readonly retryAfterSeconds: number | null = null,
    /** A validation 400's field errors (the API's field names); empty on every other refusal. */
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

export class CashoutApi {
  constructor(
    readonly payoutId: string,
    private readonly linkToken: string,
    /** The login token now, if the customer is signed in. */
    private readonly login: () => string | null,
  ) {}

  state(): Promise<CashoutState> {
    return this.#call('GET', '');
  }

  sendCode(): Promise<CodeSent> {
    return this.#call('POST', '/sign-in/code');
  }

  signIn(code: string): Promise<SignedIn> {
    return this.#call('POST', '/sign-in', { code });
  }

  attachSigner(): Promise<CashoutState> {
    return this.#call('POST', '/signer');
  }

  saveMethod(body: SaveMethodBody): Promise<CashoutState> {
    return this.#call('PUT', '/method', body);
  }

  skipConnect(): Promise<CashoutState> {
    return this.#call('POST', '/skip-connect');
  }

  /** The account's identity attestation, as the attestation service answered it (account-connect.ts). */
  connect(attestation: IdentityAttestation): Promise<CashoutState> {
    return this.#call('POST', '/connect', { attestation });
  }

  confirm(): Promise<CashoutState> {
    return this.#call('POST', '/confirm');
  }

  payoutQuote(body: DestinationBody): Promise<PayoutQuote> {
    return this.#call('POST', '/payout-quote', body);
  }

  sendToAddress(body: DestinationBody): Promise<CashoutState> {
    return this.#call('POST', '/send-to-address', body);
  }

  withdraw(): Promise<CashoutState> {
    return this.#call('POST', '/withdraw');
  }

  relist(): Promise<CashoutState> {
    return this.#call('POST', '/relist');
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { 'x-cashout-token': this.linkToken };
    const login = this.login();
    if (login) headers.authorization = `Bearer ${login}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`/api/v1/cashout-checkout/${encodeURIComponent(this.payoutId)}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = (await response.json().catch(() => null)) as { success?: boolean; message?: string; errorCode?: string; responseObject?: unknown } | null;
    if (response.ok && envelope?.success) return envelope.responseObject as T;
    const details = envelope?.responseObject && typeof envelope.responseObject === 'object' ? (envelope.responseObject as Record<string, unknown>) : null;
    const wait = Number(response.headers.get('x-retry-after'));
    throw new CashoutError(
      response.status,
      envelope?.errorCode ?? null,
      envelope?.message ?? `request failed (${response.status})`,
      details,
      Number.isFinite(wait) && wait > 0 ? wait : null,
      // A 400 without a code is the validation shape.
      !envelope?.errorCode && details?.fieldErrors ? (details.fieldErrors as Record<string, string[]>) : {},
    );
  }
}
