/**
 * The wallet provider's webhook signing secrets, as WALLET_PROVIDER_WEBHOOK_SECRET
 * gives them: Standard Webhooks secrets (`whsec_` and the base64 of 24 to 64 bytes),
 * comma-separated, at most two so a rotation can overlap. Problems name the position of
 * a secret, never its text, so no secret reaches a log.
 */
import { commaList } from '../comma-list.js';

const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

const MIN_BYTES = 24;
const MAX_BYTES = 64;

export function secretsProblem(text: string): string | null {
  const secrets = commaList(text);
  if (secrets.length < 1 || secrets.length > 2) return `must be one secret, or two comma-separated during a rotation, not ${secrets.length}`;
  for (const [index, secret] of secrets.entries()) {
    const bytes = SECRET.test(secret) && secret.length % 4 === 2 ? Buffer.from(secret.slice('whsec_'.length), 'base64').length : 0;
    if (bytes < MIN_BYTES || bytes > MAX_BYTES) return `secret #${index + 1} is not whsec_ followed by the base64 of ${MIN_BYTES} to ${MAX_BYTES} bytes`;
  }
  return null;
}
