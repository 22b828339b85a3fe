/**
 * A test gateway that delivers webhooks to a receiver on loopback (WEBHOOK_ALLOW_PRIVATE),
 * with a merchant and an endpoint registered, and helpers to read the delivery log.
 */
import type { ExecutionContext } from 'ava';
import type { Config } from '../../actors/config.js';
import { answerOf, advance } from './checkout.js';
import { startTestGateway, type TestGateway } from './gateway.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

export interface WebhookWorld {
  gateway: TestGateway;
  receiver: Receiver;
  merchant: { liveId: string; sandboxId: string; liveKey: string; sandboxKey: string };
  /** The endpoint registered on the sandbox account (unless asked otherwise). */
  webhook: { id: string; secret: string };
  key: string;
  deliveries(query?: string): Promise<any[]>;
  /** Moves the test clock and lets the attempts it fires run. */
  advance(ms: number): Promise<void>;
}

export async function webhookWorld(
  t: ExecutionContext,
  options: { config?: Partial<Config>; environment?: 'LIVE' | 'SANDBOX'; body?: Record<string, unknown> } = {},
): Promise<WebhookWorld> {
  const gateway = await startTestGateway({ WEBHOOK_ALLOW_PRIVATE: true, WEBHOOK_TIMEOUT_MS: 2_000, ...options.config });
  t.teardown(() => gateway.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const merchant = await gateway.createMerchant();
  const key = options.environment === 'LIVE' ? merchant.liveKey : merchant.sandboxKey;
  const created = answerOf(
    await gateway.request('POST', '/api/v1/webhooks', { key, body: { url: `${receiver.url}/hooks`, ...options.body } }),
    201,
    'webhook create',
  );
  return {
    gateway,
    receiver,
    merchant,
    key,
    webhook: { id: created.id, secret: created.secret },
    async deliveries(query = '') {
      return answerOf(await gateway.request('GET', `/api/v1/webhooks/${created.id}/deliveries?limit=100${query}`, { key }), 200, 'delivery list').deliveries;
    },
    advance: (ms) => advance(gateway, ms),
  };
}
