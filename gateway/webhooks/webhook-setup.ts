/**
 * The merchant's webhook endpoints: create, read, list, change, delete, rotate the
 * secret. Reads query the `webhook` actors' views of the key's own account (live and
 * sandbox are separate accounts, so a sandbox key sees sandbox endpoints only); every
 * change is a message to the endpoint's actor. A deleted endpoint reads as not found.
 */
import { newWebhookSecret } from '../../actors/webhooks/signing.js';
import { checkWebhookUrl, type DestinationPolicy } from '../../actors/webhooks/destination-guard.js';
import { webhookKind, type PublicWebhook, type WebhookReply } from '../../actors/kinds/webhook-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { parseSubscription, type Environment, type WebhookChanges, type WebhookEventType, type WebhookHeader } from '../../machines/webhook/index.js';
import { ApiError, fieldError } from '../envelope.js';
import { newId } from '../ids.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';

/** Endpoints an account may have; deleted ones do not count. */
export const MAX_WEBHOOKS = 16;

export interface WebhookSetupDependencies {
  system: ActorSystem;
  /** Where an endpoint of each environment may point. */
  webhookPolicy(environment: Environment): DestinationPolicy;
  now(): string;
}

export function webhookNotFound(): ApiError {
  return new ApiError(404, 'Webhook not found', 'NOT_FOUND');
}

export class WebhookSetup {
  constructor(private readonly deps: WebhookSetupDependencies) {}

  async create(account: MerchantAccount, body: { url: string; events?: string[]; customHeaders?: WebhookHeader[] }) {
    const url = this.#url(account, body.url);
    const events = subscription(body.events ?? []);
    const live = await this.deps.system.views(webhookKind).count({ 'view.merchantId': account.merchantId, 'view.deleted': false });
    if (live >= MAX_WEBHOOKS) throw new ApiError(409, `An account may have at most ${MAX_WEBHOOKS} webhooks; delete one first`, 'WEBHOOK_LIMIT_REACHED');
    const id = newId('whk');
    const reply = await this.deps.system.ask(webhookKind, id, {
      type: 'CREATE',
      id,
      merchantId: account.merchantId,
      environment: account.environment,
      url,
      events,
      customHeaders: body.customHeaders ?? [],
      secret: newWebhookSecret(),
      at: this.deps.now(),
    });
    return withSecret(reply);
  }

  async list(account: MerchantAccount) {
    const docs = await this.deps.system
      .views(webhookKind)
      .find({ 'view.merchantId': account.merchantId, 'view.deleted': false }, { sort: { 'view.createdAt': 1, _id: 1 }, projection: { view: 1 } });
    return { webhooks: docs.map((doc) => doc.view.webhook) };
  }

  /** The endpoint, when it is this account's and not deleted; 404 otherwise. */
  async read(account: MerchantAccount, webhookId: string): Promise<PublicWebhook> {
    const doc = await this.deps.system
      .views(webhookKind)
      .findOne({ _id: webhookId, 'view.merchantId': account.merchantId, 'view.deleted': false }, { projection: { view: 1 } });
    if (!doc) throw webhookNotFound();
    return doc.view.webhook;
  }

  async update(account: MerchantAccount, webhookId: string, body: { url?: string; events?: string[]; active?: boolean; customHeaders?: WebhookHeader[] }) {
    await this.read(account, webhookId);
    const changes: WebhookChanges = {};
    if (body.url !== undefined) changes.url = this.#url(account, body.url);
    if (body.events !== undefined) changes.events = subscription(body.events);
    if (body.customHeaders !== undefined) changes.customHeaders = body.customHeaders;
    if (body.active !== undefined) changes.active = body.active;
    const reply = await this.deps.system.ask(webhookKind, webhookId, { type: 'UPDATE', changes, at: this.deps.now() });
    return reply.webhook;
  }

  async remove(account: MerchantAccount, webhookId: string) {
    await this.read(account, webhookId);
    await this.deps.system.ask(webhookKind, webhookId, { type: 'DELETE', at: this.deps.now() });
    return { id: webhookId, deleted: true as const };
  }

  async rotateSecret(account: MerchantAccount, webhookId: string) {
    await this.read(account, webhookId);
    const reply = await this.deps.system.ask(webhookKind, webhookId, { type: 'ROTATE_SECRET', secret: newWebhookSecret(), at: this.deps.now() });
    return withSecret(reply);
  }

  #url(account: MerchantAccount, text: string): string {
    const check = checkWebhookUrl(text, this.deps.webhookPolicy(account.environment));
    if (!check.ok) throw fieldError('url', check.reason);
    return check.url.href;
  }
}

/** The answer of a create or a rotation: the endpoint with the secret it now signs with. */
function withSecret({ webhook, secret, previousSecretExpiresAt }: WebhookReply) {
  return { ...webhook, secret, previousSecretExpiresAt };
}

function subscription(names: string[]): WebhookEventType[] {
  const parsed = parseSubscription(names);
  if (!parsed.ok) throw fieldError('events', `has names that are neither an event type nor a v0 name with an equivalent: ${parsed.unknown.join(', ')}`);
  return parsed.events;
}
