/**
 * Signing a webhook request. Every request carries two signatures over the same raw body:
 *
 * - `X-Webhook-*` is the scheme Peer's public integrations already verify. Keeping it
 *   byte-for-byte as it was means no merchant has to change code for anything else here.
 * - `webhook-*` is Standard Webhooks (https://www.standardwebhooks.com), so a merchant
 *   starting today can verify with an off-the-shelf library in their language instead
 *   of hand-written HMAC code; it also binds the message id, which the old scheme does not.
 *
 * Both are keyed by the same endpoint secret, so there is one secret to store and rotate.
 * During a rotation each header lists one signature per live secret, newest first, and a
 * verifier accepts the request if any of them matches.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const PREFIX = 'whsec_';
/** Standard Webhooks asks for 24 to 64 bytes; 24 bytes (192 bits) is beyond guessing. */
const SECRET_BYTES = 24;
/** 24 bytes is a whole number of base64 groups, so the encoding never carries padding. */
const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;
/** The id is written into a header and into the signed string verbatim, so no spaces or control characters. */
const HEADER_SAFE_ID = /^[\x21-\x7e]{1,256}$/;

export const SIGNATURE_HEADER_NAMES: readonly string[] = Object.freeze([
  'x-webhook-id',
  'x-webhook-timestamp',
  'x-webhook-signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function isWebhookSecret(text: string): boolean {
  return SECRET.test(text);
}

export interface SignInput {
  id: string;
  /** Unix seconds. */
  timestamp: number;
  /** The exact body sent; merchants verify these bytes, not a re-serialisation. */
  body: string;
  /** Newest first: one secret, or two while a rotation's 24-hour overlap lasts. */
  secrets: readonly string[];
}

export function signatureHeaders(input: SignInput): Record<string, string> {
  const { id, timestamp, body, secrets } = input;
  if (!HEADER_SAFE_ID.test(id)) throw new TypeError(`webhook id ${JSON.stringify(id)} is not 1 to 256 visible ASCII characters`);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError(`webhook timestamp ${timestamp} is not whole Unix seconds`);
  if (secrets.length < 1 || secrets.length > 2) throw new TypeError(`a webhook is signed with 1 or 2 secrets, not ${secrets.length}`);
  // The message names the position only: a secret must never reach a log.
  secrets.forEach((secret, i) => {
    if (!isWebhookSecret(secret)) throw new TypeError(`webhook secret #${i + 1} is not whsec_ followed by 24 bytes of base64`);
  });

  const sentAt = new Date(timestamp * 1000);
  return {
    'x-webhook-id': id,
    'x-webhook-timestamp': String(timestamp),
    // Keyed with the whole secret string, prefix included, as the existing integrations expect.
    'x-webhook-signature': secrets.map((secret) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')).join(','),
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, sentAt, body)).join(' '),
  };
}
