/**
 * The `webhook` actor kind: one per merchant endpoint. Its view is the endpoint as the
 * API shows it (Peer's `Webhook`, plus why it is disabled when it is) and what the
 * dispatcher looks endpoints up by. Signing secrets stay in the snapshot: never in the
 * view, so no list or read can return them.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { webhookMachine, type DisabledReason, type WebhookContext, type WebhookEventType, type WebhookHeader } from '../../machines/webhook/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export interface PublicWebhook {
  id: string;
  merchantId: string;
  url: string;
  events: WebhookEventType[];
  active: boolean;
  customHeaders: WebhookHeader[];
  createdAt: string;
  updatedAt: string;
  disabledReason: DisabledReason | null;
}

export type WebhookView = {
  webhook: PublicWebhook;
  merchantId: string;
  active: boolean;
  deleted: boolean;
  createdAt: string;
};

/** What every command to an endpoint answers; the gateway shows the secrets only after a create or a rotation. */
export interface WebhookReply {
  webhook: PublicWebhook;
  secret: string;
  /** Until when the secret before the newest keeps signing; null when there is none. */
  previousSecretExpiresAt: string | null;
}

export function publicWebhook(context: WebhookContext, state: string): PublicWebhook {
  return {
    id: context.id,
    merchantId: context.merchantId,
    url: context.url,
    events: context.events,
    active: state === 'ACTIVE',
    customHeaders: context.customHeaders,
    createdAt: context.createdAt,
    updatedAt: context.updatedAt,
    disabledReason: state === 'DISABLED' ? context.disabled : null,
  };
}

export function webhookContextOf(snapshot: AnyMachineSnapshot): WebhookContext {
  return snapshot.context as WebhookContext;
}

export const webhookKind = defineKind({
  name: 'webhook',
  machine: webhookMachine,
  machineVersion: 1,
  createdBy: ['CREATE'],
  view: (snapshot: AnyMachineSnapshot): WebhookView => {
    const context = webhookContextOf(snapshot);
    const state = String(snapshot.value);
    return {
      webhook: publicWebhook(context, state),
      merchantId: context.merchantId,
      active: state === 'ACTIVE',
      deleted: state === 'DELETED',
      createdAt: context.createdAt,
    };
  },
  // The newest secret, for the create and the rotation that just made it: the only answers that show it.
  reply: (snapshot): WebhookReply => {
    const [newest, previous] = webhookContextOf(snapshot).secrets;
    return {
      webhook: publicWebhook(webhookContextOf(snapshot), String(snapshot.value)),
      secret: newest!.secret,
      previousSecretExpiresAt: previous?.expiresAt ?? null,
    };
  },
  viewIndexes: [{ key: { 'view.merchantId': 1, 'view.active': 1 }, name: 'webhook_by_merchant' }],
});
