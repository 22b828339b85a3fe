/**
 * The wallet provider's side of its webhook, for tests and the fuzzer: a fixed test
 * secret (test/support/gateway.ts configures nodes with it) and the Standard Webhooks
 * headers a provider sends with a body.
 */
import { Webhook } from 'standardwebhooks';

/** whsec_ and the base64 of 24 bytes; a test value, never a real provider's. */
export const WALLET_PROVIDER_SECRET = 'whsec_dGVzdC13YWxsZXQtcHJvdmlkZXItc2VjcmV0IQ==';

export interface ProviderSignature {
  id: string;
  /** Unix seconds. */
  timestamp: number;
  body: string;
  secret?: string;
  /** `svix` (what the provider sends) or `webhook` (the Standard Webhooks spelling). */
  family?: 'svix' | 'webhook';
}

export function providerHeaders({ id, timestamp, body, secret = WALLET_PROVIDER_SECRET, family = 'svix' }: ProviderSignature): Record<string, string> {
  return {
    [`${family}-id`]: id,
    [`${family}-timestamp`]: String(timestamp),
    [`${family}-signature`]: new Webhook(secret).sign(id, new Date(timestamp * 1000), body),
  };
}

/** Signs each body it is given as a new message at the node's time: what the fuzzer sends as the webhook's credential. */
export function providerSigner(nowMs: () => number, secret = WALLET_PROVIDER_SECRET): (body: string) => Record<string, string> {
  let sent = 0;
  return (body) => providerHeaders({ id: `msg_fuzz_${++sent}`, timestamp: Math.floor(nowMs() / 1000), body, secret });
}
