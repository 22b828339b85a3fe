/**
 * A merchant's webhook endpoint: where its events go, which types it takes, the
 * headers it wants, and the secrets its deliveries are signed with. ACTIVE endpoints
 * receive events; DISABLED ones are sent nothing, whether the merchant switched them
 * off, the receiver answered 410 Gone, or deliveries failed for the whole retry
 * schedule (the reason is kept so the merchant can see why), but their events are
 * still made deliveries, suspended until redelivered. DELETED is final: nothing more.
 *
 * Secrets come in through events (the machine has no randomness): a rotation keeps
 * the previous secret signing for SECRET_OVERLAP_MS, so receivers can switch without
 * losing a delivery.
 */
import { assertEvent, assign, setup } from 'xstate';
import type { WebhookEventType } from './event-types.js';
import { isoAfter } from '../iso-time.js';

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export type Environment = 'LIVE' | 'SANDBOX';

export interface WebhookHeader {
  key: string;
  value: string;
}

export interface SigningSecret {
  secret: string;
  createdAt: string;
  /** When it stops signing; null for the newest. */
  expiresAt: string | null;
}

export type DisabledCode = 'MERCHANT' | 'GONE' | 'FAILING';

export interface DisabledReason {
  code: DisabledCode;
  message: string;
  at: string;
}

export interface WebhookInput {
  id: string;
  merchantId: string;
  environment: Environment;
  url: string;
  /** Empty: every type. */
  events: WebhookEventType[];
  customHeaders: WebhookHeader[];
  secret: string;
  at: string;
}

export interface WebhookContext extends Omit<WebhookInput, 'secret' | 'at'> {
  /** Newest first. */
  secrets: SigningSecret[];
  disabled: DisabledReason | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface WebhookChanges {
  url?: string;
  events?: WebhookEventType[];
  customHeaders?: WebhookHeader[];
  active?: boolean;
}

export type WebhookEvent =
  | ({ type: 'CREATE' } & WebhookInput)
  | { type: 'UPDATE'; changes: WebhookChanges; at: string }
  | { type: 'ROTATE_SECRET'; secret: string; at: string }
  /** From a delivery: the receiver said 410 Gone, or failed for the whole schedule. */
  | { type: 'DISABLE'; code: Exclude<DisabledCode, 'MERCHANT'>; message: string; at: string }
  | { type: 'DELETE'; at: string };

/** The secrets that sign at `now`, newest first. */
export function signingSecrets(context: Pick<WebhookContext, 'secrets'>, now: number): string[] {
  return context.secrets.filter((entry) => entry.expiresAt === null || Date.parse(entry.expiresAt) > now).map((entry) => entry.secret);
}

export const webhookMachine = setup({
  types: { input: {} as WebhookInput, context: {} as WebhookContext, events: {} as WebhookEvent },
  guards: {
    enables: ({ event }) => event.type === 'UPDATE' && event.changes.active === true,
    disables: ({ event }) => event.type === 'UPDATE' && event.changes.active === false,
  },
  actions: {
    applyChanges: assign(({ event }) => {
      assertEvent(event, 'UPDATE');
      const { active: _active, ...fields } = event.changes;
      return { ...fields, updatedAt: event.at };
    }),
    rotate: assign(({ context, event }) => {
      assertEvent(event, 'ROTATE_SECRET');
      // Only the secret in use keeps signing through the overlap; one rotated out earlier stops now.
      const current = context.secrets[0]!;
      return {
        secrets: [
          { secret: event.secret, createdAt: event.at, expiresAt: null },
          { ...current, expiresAt: isoAfter(event.at, SECRET_OVERLAP_MS) },
        ],
        updatedAt: event.at,
      };
    }),
    enable: assign(({ event }) => {
      assertEvent(event, 'UPDATE');
      return { disabled: null, updatedAt: event.at };
    }),
    disableByMerchant: assign(({ event }) => {
      assertEvent(event, 'UPDATE');
      return { disabled: { code: 'MERCHANT' as const, message: 'Disabled by the merchant', at: event.at }, updatedAt: event.at };
    }),
    disableByDelivery: assign(({ event }) => {
      assertEvent(event, 'DISABLE');
      return { disabled: { code: event.code, message: event.message, at: event.at }, updatedAt: event.at };
    }),
    markDeleted: assign(({ event }) => {
      assertEvent(event, 'DELETE');
      return { deletedAt: event.at, updatedAt: event.at };
    }),
    /** Takes the message and changes nothing (a transition without actions is not taken). */
    acknowledge: assign(() => ({})),
  },
}).createMachine({
  id: 'webhook',
  context: ({ input }) => {
    const { secret, at, ...fields } = input;
    return { ...fields, secrets: [{ secret, createdAt: at, expiresAt: null }], disabled: null, createdAt: at, updatedAt: at, deletedAt: null };
  },
  initial: 'ACTIVE',
  states: {
    ACTIVE: {
      on: {
        UPDATE: [{ guard: 'disables', target: 'DISABLED', actions: ['applyChanges', 'disableByMerchant'] }, { actions: 'applyChanges' }],
        DISABLE: { target: 'DISABLED', actions: 'disableByDelivery' },
        ROTATE_SECRET: { actions: 'rotate' },
        DELETE: { target: 'DELETED', actions: 'markDeleted' },
      },
    },
    DISABLED: {
      on: {
        UPDATE: [{ guard: 'enables', target: 'ACTIVE', actions: ['applyChanges', 'enable'] }, { actions: 'applyChanges' }],
        // Already off: the first reason stands.
        DISABLE: { actions: 'acknowledge' },
        ROTATE_SECRET: { actions: 'rotate' },
        DELETE: { target: 'DELETED', actions: 'markDeleted' },
      },
    },
    // Not final: deliveries still in flight may report on it, and are told nothing changed.
    DELETED: {
      on: {
        DISABLE: { actions: 'acknowledge' },
      },
    },
  },
});
