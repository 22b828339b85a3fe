/**
 * gateway/inspector: the admin API's view into actors (docs/inspector.md). This file
 * answers for one actor: as its document stands, its turns, and the actor as of one
 * turn, from the stored snapshot or by replay; actor-search.ts finds actors, and
 * redaction.ts keeps secrets out of every answer. It reads documents and the history
 * collection only and never wakes an actor.
 */
import type { ActorAddress } from '../../actors/address.js';
import type { Encoded } from '../../actors/codec.js';
import { UnknownKindError } from '../../actors/errors.js';
import { ActorHistory } from '../../actors/history/index.js';
import type { ActorDocument } from '../../actors/runtime/actor-document.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { TurnRecord } from '../../actors/runtime/turn-record.js';
import type { z } from 'zod';
import { ApiError } from '../envelope.js';
import type { actorAsOf, inspectedActor, turnPage, turnSummary } from '../schemas/inspector-schemas.js';
import { sendableEvents } from './sendable-events.js';
import { redact } from './redaction.js';

type InspectedActor = z.input<typeof inspectedActor>;
type TurnSummary = z.input<typeof turnSummary>;

/** The parts of a persisted snapshot the inspector shows. */
interface StoredSnapshot {
  value: InspectedActor['state'];
  status: InspectedActor['status'];
  context: Record<string, unknown>;
}

export class ActorInspector {
  readonly #history: ActorHistory;

  constructor(private readonly system: ActorSystem) {
    this.#history = new ActorHistory(system);
  }

  async actor(address: ActorAddress): Promise<InspectedActor> {
    const doc = await inspectedDocument(this.#history, address);
    const snapshot = snapshotOf(doc.snapshot);
    return {
      kind: doc.kind,
      id: doc._id,
      machine: this.system.kind(doc.kind).machine.id,
      machineVersion: doc.machineVersion,
      version: doc.version,
      state: snapshot.value,
      status: snapshot.status,
      context: redactedObject(snapshot.context),
      view: redactedObject(doc.view),
      timers: doc.timers.map((timer) => ({
        id: timer.id,
        dueAt: iso(timer.dueAt),
        event: redactedObject(timer.event),
        attempts: timer.attempts ?? 0,
        retryAt: timer.retryAt === undefined ? null : iso(timer.retryAt),
      })),
      outbox: doc.outbox.map((entry) => ({
        id: entry.id,
        type: entry.type,
        queuedAt: iso(entry.at),
        attempts: entry.attempts ?? 0,
        nextAttemptAt: entry.nextAttemptAt === undefined ? null : iso(entry.nextAttemptAt),
        lastError: entry.lastError === undefined ? null : (redact(entry.lastError) as string),
      })),
      createdAt: iso(doc.createdAt),
      updatedAt: iso(doc.updatedAt),
      events: sendableEvents(this.system, doc.kind),
    };
  }

  async turns(address: ActorAddress, after: number, limit: number): Promise<z.input<typeof turnPage>> {
    const doc = await inspectedDocument(this.#history, address);
    const page = await this.#history.page(doc, after, limit);
    return {
      kind: doc.kind,
      id: doc._id,
      turns: page.turns.map(summary),
      hasMore: page.hasMore,
      nextAfter: page.hasMore ? page.turns.at(-1)!.version : null,
      limit,
    };
  }

  async asOf(address: ActorAddress, version: number, replay: boolean): Promise<z.input<typeof actorAsOf>> {
    const doc = await inspectedDocument(this.#history, address);
    const travelled = await this.#history.travel(doc, version, replay ? 'replay' : 'stored');
    if (!travelled) throw new ApiError(404, 'Turn not found', 'TURN_NOT_FOUND');
    const snapshot = snapshotOf(travelled.snapshot);
    return {
      kind: doc.kind,
      id: doc._id,
      version,
      state: snapshot.value,
      context: redactedObject(snapshot.context),
      source: replay ? 'replay' : 'snapshot',
      replayedFrom: travelled.replayedFrom,
      turn: summary(travelled.record),
    };
  }
}

/** An actor's document, or the admin API's 404 for an unknown kind or actor. */
export async function inspectedDocument(history: ActorHistory, address: ActorAddress): Promise<ActorDocument> {
  let doc: ActorDocument | null;
  try {
    doc = await history.document(address);
  } catch (error) {
    if (error instanceof UnknownKindError) throw new ApiError(404, 'Unknown actor kind', 'KIND_NOT_FOUND', null, undefined, { cause: error });
    throw error;
  }
  if (!doc) throw new ApiError(404, 'Actor not found', 'ACTOR_NOT_FOUND');
  return doc;
}

export function summary(record: TurnRecord): TurnSummary {
  return {
    version: record.version,
    at: iso(record.at),
    messageId: record.messageId,
    event: redactedObject(record.event),
    timer: record.timer,
    stateBefore: record.stateBefore as TurnSummary['stateBefore'],
    stateAfter: record.stateAfter as TurnSummary['stateAfter'],
    effects: {
      outbox: record.effects.outbox,
      timersSet: record.effects.timersSet.map((timer) => ({ ...timer, dueAt: iso(timer.dueAt) })),
      timersCancelled: record.effects.timersCancelled,
    },
  };
}

const SNAPSHOT_STATUSES = ['active', 'done', 'error', 'stopped'] as const;

/**
 * A persisted snapshot as stored (codec form), decoded: its state value, status and
 * context. Each is checked to be what XState persists; a document that is not is
 * corrupt, and the inspector says so rather than show it as an actor.
 */
export function snapshotOf(snapshot: Encoded): StoredSnapshot {
  if (!isEncodedObject(snapshot)) throw new Error('The stored snapshot is not an object');
  const { value, status, context } = snapshot;
  if (typeof value !== 'string' && !isEncodedObject(value)) throw new Error('The stored snapshot’s state value is neither a name nor an object');
  const known = SNAPSHOT_STATUSES.find((candidate) => candidate === status);
  if (!known) throw new Error(`The stored snapshot’s status ${JSON.stringify(status)} is not a snapshot status`);
  return { value, status: known, context: isEncodedObject(context) ? context : {} };
}

function isEncodedObject(value: Encoded | undefined): value is { [key: string]: Encoded } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function redactedObject(value: unknown): Record<string, unknown> {
  return redact(value ?? {}) as Record<string, unknown>;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
