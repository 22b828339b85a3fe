/**
 * The inspector's answers as the page reads them (gateway/schemas/inspector-schemas.ts).
 * Written out rather than inferred from the schemas, which would bring the node's
 * modules into the browser's type-check; test/gateway/engineers/inspector-client.test.ts
 * holds them equal to the schemas' types, so a change of shape fails the type-check.
 */
export type StateValue = string | Record<string, unknown>;

type Free = Record<string, unknown>;

export interface InspectedActor {
  kind: string;
  id: string;
  machine: string;
  machineVersion: number;
  version: number;
  state: StateValue;
  status: 'active' | 'done' | 'error' | 'stopped';
  context: Free;
  view: Free;
  timers: Array<{ id: string; dueAt: string; event: Free; attempts: number; retryAt: string | null }>;
  outbox: Array<{ id: string; type: string; queuedAt: string; attempts: number; nextAttemptAt: string | null; lastError: string | null }>;
  createdAt: string;
  updatedAt: string;
  events: string[];
}

export interface Turn {
  version: number;
  at: string;
  messageId: string;
  event: Free;
  timer: string | null;
  stateBefore: StateValue | null;
  stateAfter: StateValue;
  effects: {
    outbox: Array<{ id: string; type: string; event?: string | undefined; to?: string | undefined }>;
    timersSet: Array<{ id: string; dueAt: string; event: string }>;
    timersCancelled: string[];
  };
}

export interface TurnPage {
  kind: string;
  id: string;
  turns: Turn[];
  hasMore: boolean;
  nextAfter: number | null;
  limit: number;
}

export interface ActorAsOf {
  kind: string;
  id: string;
  version: number;
  state: StateValue;
  context: Free;
  source: 'snapshot' | 'replay';
  replayedFrom: number | null;
  turn: Turn;
}

export interface FoundActor {
  kind: string;
  id: string;
  machine: string;
  state: StateValue;
  version: number;
  updatedAt: string;
  match: 'id' | 'merchantId' | 'orderId' | 'webhookId';
}

export interface ActorSearch {
  query: string;
  actors: FoundActor[];
  hasMore: boolean;
  limit: number;
}

export interface WatchedActor {
  kind: string;
  id: string;
  machine: string;
  state: StateValue;
  version: number;
  updatedAt: string;
  at: string;
  note: string;
}

export interface Watchlist {
  asOf: string;
  stuckAfter: number;
  limit: number;
  recent: WatchedActor[];
  dueTimers: WatchedActor[];
  stuck: WatchedActor[];
  failingEffects: WatchedActor[];
  deadLetters: Array<{ id: string; actor: string | null; source: string; error: string; attempts: number; at: string }>;
}

export interface SentEvent {
  kind: string;
  id: string;
  messageId: string;
  reply: unknown;
  turn: Turn | null;
}

export interface OrderSequence {
  orderId: string;
  actors: Array<{ kind: string; id: string; machine: string; state: StateValue; turnsTruncated: boolean }>;
  turns: Array<{
    actor: string;
    version: number;
    at: string;
    event: string;
    timer: string | null;
    stateBefore: StateValue | null;
    stateAfter: StateValue;
    messageId: string;
    told: Array<{ to: string; event: string }>;
  }>;
}
