/**
 * What the inspector never shows: a credential anywhere in a context, view, event or
 * error it answers. Contexts keep secrets the API never returns (a webhook endpoint's
 * signing secrets, key and token hashes, headers a merchant sends its receiver), so
 * every value passes through `redact` on its way out. Three rules, each for a way a
 * secret can hide: by the name of its field, by the name of the HTTP header it is the
 * value of, and by its own form (a webhook secret or an API key quoted in any string).
 */
export const REDACTED = '[redacted]';

/** Field names (lower case, separators dropped) whose values are credentials or what verifies them. */
const SECRET_FIELD =
  /(secret|secrets|password|passphrase|privatekey|privatekeys|mnemonic|credential|credentials|authorization|cookie|apikey|apikeyhash|tokenhash|accesstoken|refreshtoken|sessiontoken|bearertoken|ordertoken)$/;

/** Header names whose values a merchant's receiver may take as a credential. */
const SECRET_HEADER = /auth|token|secret|key|signature|cookie|password|session/;

/**
 * Webhook signing secrets and merchant API keys, by their prefixes and length (24 and
 * 32 random bytes: actors/webhooks/signing.ts, gateway/auth/api-keys.ts), so a key's
 * hint (`pk_live_…a1B2`) stays readable.
 */
const SECRET_VALUE = /whsec_[A-Za-z0-9+/=_-]{16,}|pk_(?:live|test)_[A-Za-z0-9_-]{16,}/g;

export function redact(value: unknown): unknown {
  return redactIn(value, false);
}

function redactIn(value: unknown, headers: boolean): unknown {
  if (typeof value === 'string') return value.replace(SECRET_VALUE, REDACTED);
  if (Array.isArray(value)) return value.map((item) => redactIn(item, headers));
  if (value === null || typeof value !== 'object') return value;
  // A header as { key, value } (custom headers): the name is in `key`.
  const pairName = headers && 'key' in value && 'value' in value ? String(value.key) : null;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const name = normal(key);
    const secret =
      SECRET_FIELD.test(name) ||
      (pairName !== null && key === 'value' && SECRET_HEADER.test(normal(pairName))) ||
      (headers && pairName === null && SECRET_HEADER.test(name));
    out[key] = secret ? REDACTED : redactIn(item, name.endsWith('headers'));
  }
  return out;
}

function normal(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}
