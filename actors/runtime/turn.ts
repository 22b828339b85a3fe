/**
 * One turn of one actor, as a pure function: the stored document and a message in,
 * the next document and the reply out. Everything the machine asked for (delayed
 * events, cancellations, emitted events, effects) and the turn's history record are
 * folded into the document so that a single conditional write saves it all. No I/O
 * happens here.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { ActorAddress } from '../address.js';
import { decode, encode, fromJson, toJson, type Encoded } from '../codec.js';
import { CommandRejectedError, UnknownActorError } from '../errors.js';
import { outboxFields, nextTimerAt, type ActorDocument, type OutboxEntry, type TimerRow } from './actor-document.js';
import type { ActorKind } from './actor-kind.js';
import { stepsOf } from './machine-steps.js';
import { diff } from './snapshot-patch.js';
import { isTimerFire, type ActorMessage } from './messages.js';
import { clockOf } from './test-clock-time.js';
import { eventType, recordsOf, turnRecord, type TurnEffects } from './turn-record.js';

export type TurnOutcome =
  /** The message id was seen before: answer what was answered then, change nothing. */
  | { type: 'replay'; reply: unknown }
  /** A timer whose row is gone (cancelled or already fired): nothing to do. */
  | { type: 'stale-timer' }
  | { type: 'write'; doc: ActorDocument; reply: unknown; created: boolean };

export interface TurnInput {
  kind: ActorKind;
  address: ActorAddress;
  doc: ActorDocument | null;
  message: ActorMessage;
  now: number;
  shard: number;
  /** Lease epoch the turn runs under, stored on the document it writes. */
  epoch: number;
  /** How long applied message ids are remembered; older inline ones are dropped. */
  retentionMs: number;
}

/** Built-in effect that delivers an event to another actor, with the effect id as message id. */
export const TELL_EFFECT = 'tell';
/** Outbox type of a domain event from the machine's `emit()` action. */
export const EVENT_EFFECT = 'event';

export function runTurn({ kind, address, doc, message, now, shard, epoch, retentionMs }: TurnInput): TurnOutcome {
  const remembered = doc ? doc.recentMessageIds.lastIndexOf(message.id) : -1;
  if (doc && remembered >= 0 && (doc.recentAppliedAt[remembered] ?? now) > now - retentionMs) {
    return { type: 'replay', reply: fromJson(doc.recentReplies[remembered]!) };
  }

  let timers = doc ? [...doc.timers] : [];
  let event: EventObject = message.event;
  let snapshot: AnyMachineSnapshot;
  let actions: Array<{ type: string; params: unknown }>;
  let before: unknown = null;

  if (isTimerFire(event)) {
    const { timerId, dueAt } = event;
    const row = timers.find((timer) => timer.id === timerId && timer.dueAt === dueAt);
    if (!doc || !row) return { type: 'stale-timer' };
    timers = timers.filter((timer) => timer !== row);
    event = decode<EventObject>(row.event);
    const current = restore(kind, doc);
    before = current.value;
    [snapshot, actions] = stepsOf(kind.machine).next(current, event);
  } else if (!doc) {
    if (!kind.createdBy.includes(event.type)) throw new UnknownActorError(address.kind, address.id);
    [snapshot, actions] = stepsOf(kind.machine).initial(creationInput(kind, event, address.id));
  } else {
    const current = restore(kind, doc);
    const refusal = kind.check?.(current, event);
    if (refusal) throw new CommandRejectedError(refusal.code, refusal.message, refusal.details ?? null);
    if (kind.createdBy.includes(event.type)) {
      throw new CommandRejectedError('ALREADY_EXISTS', `${address.kind} ${address.id} already exists`);
    }
    if (!current.can(event)) {
      throw new CommandRejectedError(
        'EVENT_NOT_ACCEPTED',
        `${address.kind} ${address.id} does not accept ${event.type} in state ${JSON.stringify(current.value)}`,
      );
    }
    before = current.value;
    [snapshot, actions] = stepsOf(kind.machine).next(current, event);
  }
  if (snapshot.status === 'error') throw snapshot.error instanceof Error ? snapshot.error : new Error(String(snapshot.error));

  const version = (doc?.version ?? 0) + 1;
  const outbox = doc ? [...doc.outbox] : [];
  const queued: TurnEffects['outbox'] = [];
  const timersSet: TimerRow[] = [];
  const timersCancelled: string[] = [];
  actions.forEach((action, index) => {
    const entryId = `${address.kind}:${address.id}:${version}:${index}`;
    const effect = effectOf(kind, action, entryId, now);
    if (effect.timer) {
      timers = [...timers.filter((timer) => timer.id !== effect.timer!.id), effect.timer];
      timersSet.push(effect.timer);
    }
    if (effect.cancel) {
      timers = timers.filter((timer) => timer.id !== effect.cancel);
      timersCancelled.push(effect.cancel);
    }
    if (effect.outbox) {
      outbox.push(effect.outbox);
      queued.push(queuedSummary(effect.outbox, action.params));
    }
  });
  const persisted = persistedSnapshot(kind, snapshot);
  // The record rides in this write: a write that loses its condition (a newer version, a newer lease) leaves no history.
  // A record written before patches were kept gets the snapshot it stood for now that the document's moves on; the
  // activation drops the records already inserted.
  const history = [
    ...(doc ? recordsOf(doc) : []),
    turnRecord({
      address,
      version,
      machineVersion: kind.machineVersion,
      at: now,
      messageId: message.id,
      event: encode(event),
      timer: isTimerFire(message.event) ? message.event.timerId : null,
      stateBefore: before,
      stateAfter: snapshot.value,
      queued,
      timersSet,
      timersCancelled,
      undo: doc ? diff(persisted, doc.snapshot) : null,
    }),
  ];

  const view = kind.view(snapshot, address.id);
  const reply = kind.reply ? kind.reply(snapshot, event, address.id, view) : view;
  // Ids past the retention are forgotten; the activation moves the oldest of the rest to the message log.
  const applied = doc?.recentAppliedAt ?? [];
  let live = 0;
  while (live < applied.length && applied[live]! <= now - retentionMs) live++;
  let recentMessageIds = doc ? doc.recentMessageIds.slice(live) : [];
  let recentReplies = doc ? doc.recentReplies.slice(live) : [];
  let recentAppliedAt = applied.slice(live);
  if (!isTimerFire(message.event)) {
    recentMessageIds = [...recentMessageIds, message.id];
    recentReplies = [...recentReplies, toJson(reply)];
    recentAppliedAt = [...recentAppliedAt, now];
  }

  const clockId = clockOf(doc, message.event);
  const next: ActorDocument = {
    _id: address.id,
    kind: address.kind,
    shard,
    version,
    machineVersion: kind.machineVersion,
    snapshot: persisted,
    view,
    timers,
    nextTimerAt: nextTimerAt(timers),
    ...outboxFields(outbox),
    recentMessageIds,
    recentReplies,
    recentAppliedAt,
    messagesArchived: doc?.messagesArchived ?? false,
    history,
    epoch,
    ...(clockId ? { clockId } : {}),
    createdAt: doc?.createdAt ?? now,
    updatedAt: now,
  };
  return { type: 'write', doc: next, reply, created: !doc };
}

/** A live snapshot in the form a document stores it (and a replay must reach it). */
export function persistedSnapshot(kind: ActorKind, snapshot: AnyMachineSnapshot): Encoded {
  return encode(kind.machine.getPersistedSnapshot(snapshot));
}

/** The machine's input from the event that creates an actor: the kind's `input`, or the event's payload with the actor's id. */
export function creationInput(kind: ActorKind, event: EventObject, id: string): unknown {
  const { type: _type, clockId: _clockId, ...payload } = event as EventObject & { clockId?: unknown };
  return kind.input ? kind.input(event, id) : { ...payload, id };
}

/** An effect as the history record names it: a domain event by its type, a tell by its target and event type. */
function queuedSummary(entry: OutboxEntry, params: unknown): TurnEffects['outbox'][number] {
  if (entry.type === EVENT_EFFECT) return { id: entry.id, type: entry.type, event: eventType(entry.params) };
  const tell = params as { to?: { kind: string; id: string }; event?: { type?: unknown } } | undefined;
  if (entry.type === TELL_EFFECT && tell?.to) return { id: entry.id, type: entry.type, to: `${tell.to.kind}:${tell.to.id}`, event: String(tell.event?.type) };
  return { id: entry.id, type: entry.type };
}

interface Effect {
  timer?: TimerRow;
  cancel?: string;
  outbox?: OutboxEntry;
}

function effectOf(kind: ActorKind, action: { type: string; params: unknown }, entryId: string, now: number): Effect {
  const params = (action.params ?? {}) as Record<string, unknown>;
  switch (action.type) {
    case 'xstate.raise': {
      if (typeof params.delay !== 'number') return {};
      // A delayed raise without an explicit id still needs a stable one to be cancellable and de-duplicated.
      const id = typeof params.id === 'string' ? params.id : entryId;
      return { timer: { id, event: encode(params.event), dueAt: now + params.delay } };
    }
    case 'xstate.cancel':
      return { cancel: String(params.sendId) };
    case 'xstate.emit': {
      const { type, ...data } = params.event as EventObject & Record<string, unknown>;
      return { outbox: { id: entryId, type: EVENT_EFFECT, params: encode({ type, data }), at: now } };
    }
    case 'xstate.sendTo':
    case 'xstate.spawnChild':
      throw new Error(`${kind.name}: ${action.type} is not supported; machines reach other actors through the ${TELL_EFFECT} effect`);
    default:
      if (action.type === TELL_EFFECT || kind.effects?.[action.type]) {
        return { outbox: { id: entryId, type: action.type, params: encode(params), at: now } };
      }
      if (action.type.startsWith('xstate.')) return {};
      throw new Error(`${kind.name}: the machine names action ${action.type} but the kind has no effect handler for it`);
  }
}

/** A stored snapshot (an actor's, or a history record's) as a live one of the kind's machine, migrated to its version. */
export function restore(kind: ActorKind, doc: Pick<ActorDocument, '_id' | 'snapshot' | 'machineVersion'>): AnyMachineSnapshot {
  let persisted = decode<Record<string, unknown>>(doc.snapshot);
  if (doc.machineVersion > kind.machineVersion) {
    throw new Error(`${kind.name}:${doc._id} was written by machine version ${doc.machineVersion}; this node runs ${kind.machineVersion}`);
  }
  for (let version = doc.machineVersion; version < kind.machineVersion; version++) {
    const migrate = kind.migrations?.[version];
    if (!migrate) throw new Error(`${kind.name}: no migration from machine version ${version}`);
    persisted = migrate(persisted);
  }
  const snapshot = kind.machine.resolveState(persisted as Parameters<typeof kind.machine.resolveState>[0]);
  // resolveState keeps history values as the persisted `{ id }` objects; a transition into a history state needs the state nodes.
  const history = persisted.historyValue as Record<string, Array<{ id: string }>> | undefined;
  if (history) {
    snapshot.historyValue = Object.fromEntries(
      Object.entries(history).map(([historyId, nodes]) => [historyId, nodes.map((node) => kind.machine.getStateNodeById(node.id))]),
    );
  }
  return snapshot;
}
