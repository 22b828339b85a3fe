/**
 * Verifies the wallet provider's signature headers: Standard Webhooks, as Svix sends
 * them. The signed content is `<id>.<timestamp>.<body>`, HMAC-SHA256 under the
 * configured secret, computed with the `standardwebhooks` package; the library's own
 * `verify` is not used because it reads the wall clock, and the timestamp must be
 * judged against the node's clock (which tests move).
 *
 * The three headers are read as one family: `webhook-*` when the request carries
 * webhook-id, else `svix-*`. Every refusal is a 401 with a code, and nothing of the
 * request has been used yet.
 */
import { timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { ApiError } from '../envelope.js';

/** How far a message's timestamp may be from the node's clock, either way: Standard Webhooks' own default. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/** The id goes into the signed string and a store key; Svix's are short and visible ASCII. */
const MESSAGE_ID = /^[\x21-\x7e]{1,256}$/;
const UNIX_SECONDS = /^\d{1,12}$/;

export interface SignedMessage {
  id: string;
  /** Unix seconds. */
  timestamp: number;
}

export const SIGNATURE_REFUSALS = {
  SIGNATURE_MISSING: 'the message id, timestamp or signature header is missing',
  SIGNATURE_INVALID: 'no v1 signature matches a configured secret, or the id or timestamp is malformed',
  TIMESTAMP_OUT_OF_TOLERANCE: `the timestamp is more than ${TIMESTAMP_TOLERANCE_SECONDS / 60} minutes from the node’s clock, before or after`,
} as const;

export class SignatureVerifier {
  readonly #keys: Webhook[];

  /** `secrets`: one, or two while a rotation overlaps (actors/wallet-transfers/provider-secrets.ts checked them). */
  constructor(
    secrets: readonly string[],
    private readonly nowMs: () => number,
  ) {
    this.#keys = secrets.map((secret) => new Webhook(secret));
  }

  /** `header` reads one request header ('' when absent); `body` is the body as received, before any parsing. */
  verify(header: (name: string) => string, body: string): SignedMessage {
    const family = header('webhook-id') !== '' ? 'webhook' : 'svix';
    const [id, timestampText, signatures] = ['id', 'timestamp', 'signature'].map((part) => header(`${family}-${part}`));
    if (!id || !timestampText || !signatures) throw refusal('SIGNATURE_MISSING', 'Missing webhook signature headers');
    if (!MESSAGE_ID.test(id) || !UNIX_SECONDS.test(timestampText)) throw refusal('SIGNATURE_INVALID', 'Invalid webhook signature');
    const timestamp = Number(timestampText);
    if (Math.abs(Math.floor(this.nowMs() / 1000) - timestamp) > TIMESTAMP_TOLERANCE_SECONDS) {
      throw refusal('TIMESTAMP_OUT_OF_TOLERANCE', 'Webhook timestamp is too old or too far ahead');
    }
    const sent = signatures.split(' ').flatMap((entry) => (entry.startsWith('v1,') ? [Buffer.from(entry.slice(3))] : []));
    const signedAt = new Date(timestamp * 1000);
    const matches = this.#keys.some((key) => {
      const expected = Buffer.from(key.sign(id, signedAt, body).slice(3));
      return sent.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
    });
    if (!matches) throw refusal('SIGNATURE_INVALID', 'Invalid webhook signature');
    return { id, timestamp };
  }
}

function refusal(code: keyof typeof SIGNATURE_REFUSALS, message: string): ApiError {
  return new ApiError(401, message, code);
}
