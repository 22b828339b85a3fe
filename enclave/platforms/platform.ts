/**
 * What the enclave knows of one payment platform: the session material and public
 * params a buyer sends, the one request that reads the payment back from the platform
 * with them, and how the platform's answer, in its own shape, becomes a normalized
 * payment. Each platform is one file; the verifier sees only normalized payments. What a
 * client must know (session fields, params, the request) comes from the platform's
 * definition in machines/platforms through adapter-parts.ts, which the provider templates
 * publish too; an adapter adds how to read the platform's answer.
 */
import type { z } from 'zod';

export type PaymentDirection = 'OUTGOING' | 'INCOMING';

export interface NormalizedPayment {
  /** The platform's own id of the payment. */
  paymentId: string;
  /** Fiat base units (cents), always positive: the direction is read into `direction`. */
  amount: bigint;
  /** From the session's account (OUTGOING) or to it, as the platform writes it (a sign, a type word, the sender). */
  direction: PaymentDirection;
  /**
   * The sender, on a platform whose payment reads can show other people's payments (Venmo's
   * public stories); null on a platform that serves only the session's own ledger, where the
   * payer of an outgoing payment is the session's account by the platform's own scoping.
   */
  payerId: string | null;
  /** ISO 4217 code, upper case. */
  currency: string;
  /** The recipient as the platform names them, normalized as the maker registered it. */
  payeeId: string;
  /** When the platform says the payment was made, in Unix milliseconds. */
  timestampMs: number;
  /** Completed and not reversed: only such a payment proves anything. */
  completed: boolean;
  /** What the payer wrote with it, where the platform reads it back (the seller path needs it). */
  memo?: string | null;
}

export interface PlatformRequest {
  method: 'GET' | 'POST';
  /** Path and query, appended to the platform's base URL. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface PaymentPlatform<S = unknown> {
  /** The path segment and payment-method name, for example `venmo` or `zelle-chase`. */
  id: string;
  /** The buyer-TEE action type, for example `transfer_venmo`. */
  actionType: string;
  /** The session material the buyer encrypts, by the platform's own header names. */
  session: z.ZodType<S>;
  /** Public params beside it; PAYMENT_ID names the payment on every platform. */
  params: z.ZodType<Record<string, string>>;
  /**
   * The params naming the session's own account (Wise's PROFILE_ID). On the seller path the
   * enclave fills them with the kept session's account, so a caller names only the payment.
   */
  accountParams?: readonly string[];
  paymentRequest(session: S, params: Record<string, string>): PlatformRequest;
  /**
   * How to read the session's own account: for a platform whose payments name their payer
   * (`payerId` not null) the payer must be this account, and on the seller path the payee.
   * Absent on ledger platforms the seller path does not serve.
   */
  account?: { request(session: S): PlatformRequest; read(response: unknown): string };
  /**
   * Whether the seller path serves it: the same read works with the receiver's session and
   * shows direction, both parties and the memo from that side too.
   */
  sellerPath?: boolean;
  /** The payment named by params.PAYMENT_ID out of the platform's answer; throws PlatformResponseError. */
  normalize(response: unknown, params: Record<string, string>): NormalizedPayment;
}

/** The platform answered, but not with what this client understands. */
export class PlatformResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlatformResponseError';
  }
}

/** The payment the params name is not in the platform's answer. */
export class PaymentNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentNotFoundError';
  }
}

/** Parses with `schema` or throws PlatformResponseError naming only field paths, never values. */
export function parsePlatformResponse<T>(platform: string, schema: z.ZodType<T>, response: unknown): T {
  const parsed = schema.safeParse(response);
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)'))].join(', ');
  throw new PlatformResponseError(`${platform} answered in an unexpected shape (fields: ${fields})`);
}
