/**
 * Whose event it is: the merchant account a domain event belongs to, read the same
 * way for every consumer that hands events to merchants (the webhook dispatcher, the
 * event log), so an event never reaches one merchant by one path and another by the other.
 */
import type { DomainEvent } from '../events/event-bus.js';
import type { ActorSystem } from '../runtime/actor-system.js';

export interface EventOwner {
  /** The account (live or sandbox) the event belongs to; null for an event of no merchant. */
  merchantId: string | null;
  /** For an event that carries only its order's id, the order as it reads now; null otherwise. */
  order: Record<string, unknown> | null;
}

export async function eventOwner(system: Pick<ActorSystem, 'documents'>, event: DomainEvent): Promise<EventOwner> {
  const carried = event.data.order as { merchantId?: string } | undefined;
  if (carried?.merchantId) return { merchantId: carried.merchantId, order: null };
  if (typeof event.data.orderId === 'string') {
    const doc = await system.documents('order').findOne({ _id: event.data.orderId }, { projection: { 'view.merchantId': 1, 'view.order': 1 } });
    return { merchantId: (doc?.view.merchantId as string | undefined) ?? null, order: (doc?.view.order as Record<string, unknown> | undefined) ?? null };
  }
  return { merchantId: typeof event.data.merchantId === 'string' ? event.data.merchantId : null, order: null };
}
