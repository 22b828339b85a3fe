/** The inspector's reads of the admin API (docs/inspector.md), under /internal/v1 like every admin call. */
import { adminGet, adminPost } from './admin-api.js';
import type { ActorAsOf, ActorSearch, InspectedActor, OrderSequence, SentEvent, TurnPage, Watchlist } from './inspector-types.js';

const actorPath = (kind: string, id: string) => `/internal/v1/actors/${encodeURIComponent(kind)}/${encodeURIComponent(id)}`;

export function searchActors(query: string, token: string): Promise<ActorSearch> {
  return adminGet(`/internal/v1/actors?${new URLSearchParams({ query })}`, token);
}

export function readActor(kind: string, id: string, token: string): Promise<InspectedActor> {
  return adminGet(actorPath(kind, id), token);
}

export function readTurns(kind: string, id: string, after: number, limit: number, token: string): Promise<TurnPage> {
  return adminGet(`${actorPath(kind, id)}/history?${new URLSearchParams({ after: String(after), limit: String(limit) })}`, token);
}

export function readAsOf(kind: string, id: string, version: number, token: string): Promise<ActorAsOf> {
  return adminGet(`${actorPath(kind, id)}/history/${version}`, token);
}

export function readWatchlist(stuckAfter: number, token: string): Promise<Watchlist> {
  return adminGet(`/internal/v1/actors/watchlist?${new URLSearchParams({ stuckAfter: String(stuckAfter) })}`, token);
}

export function sendEvent(kind: string, id: string, event: Record<string, unknown>, token: string): Promise<SentEvent> {
  return adminPost(`${actorPath(kind, id)}/events`, { event }, token);
}

export function readOrderSequence(orderId: string, token: string): Promise<OrderSequence> {
  return adminGet(`/internal/v1/actors/order/${encodeURIComponent(orderId)}/sequence`, token);
}
