/**
 * An actor kind binds a pure machine (machines/) to what the runtime needs around
 * it: how it is created, the view it publishes, how it answers, which commands it
 * refuses and with what code, and the handlers of the effects its actions name.
 */
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import type { Logger } from 'pino';
import type { ActorAddress } from '../address.js';
import type { ErrorCode } from '../errors/error-codes.js';
import type { Clock } from '../clock.js';
import type { IndexSpec } from '../store/store.js';
import type { ActorEvent, AskOptions } from './messages.js';

/** What a refused command answers; the gateway turns it into an API error with the status of the code's row in the error table. */
export interface Rejection {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

export interface EffectContext {
  /** The actor whose outbox holds the effect. */
  actor: ActorAddress;
  /** Stable across retries: `<kind>:<id>:<version>:<index>`. Use it as the message id or idempotency key of whatever the effect calls. */
  effectId: string;
  /** Clock time of the turn that queued the effect. */
  at: number;
  /**
   * The lease epoch of the actor's shard this run holds. A downstream that records the
   * highest epoch it has seen per actor can refuse a run from a node that lost the lease.
   */
  epoch: number;
  ask(address: ActorAddress, event: ActorEvent, options?: AskOptions): Promise<unknown>;
  clock: Clock;
  logger: Logger;
}

/** Runs an effect. It may run more than once (at least once), so it must be idempotent by `effectId`. */
export type EffectHandler = (params: unknown, context: EffectContext) => Promise<void>;

export interface ActorKind<TMachine extends AnyStateMachine = AnyStateMachine> {
  /** The `kind` of addresses, for example `order`. */
  name: string;
  machine: TMachine;
  /** Stored with every snapshot; bump it when old snapshots can no longer be read, and add a migration. */
  machineVersion: number;
  /** Migrations from a stored machine version to the next one, keyed by the version they read. */
  migrations?: Record<number, (persisted: Record<string, unknown>) => Record<string, unknown>>;
  /** Event types that create the actor when it has no document yet. */
  createdBy: readonly string[];
  /** The machine's input, from the creating event. Defaults to the event's payload with the actor's id. */
  input?(event: EventObject, id: string): unknown;
  /** The public resource plus the fields list queries filter on. Must be plain data (no bigint). */
  view(snapshot: AnyMachineSnapshot, id: string): Record<string, unknown>;
  /** What a command answers once applied; the view by default. `view` is this turn's, built once for both. */
  reply?(snapshot: AnyMachineSnapshot, event: EventObject, id: string, view: Record<string, unknown>): unknown;
  /** A domain-specific refusal checked before the machine sees the event. */
  check?(snapshot: AnyMachineSnapshot, event: EventObject): Rejection | null;
  /** Handlers for custom action types of the machine, run from the outbox after the write. */
  effects?: Record<string, EffectHandler>;
  /** Indexes on `view.*` fields for the list queries of this kind. */
  viewIndexes?: IndexSpec[];
  /**
   * How many applied message ids (with replies) an actor keeps in its own document, 64
   * by default; past that the older half moves to the message log, where ids are kept
   * for the system's retention. Inline replies are rewritten with every turn, so they should stay small.
   */
  rememberedMessages?: number;
}

export function defineKind<TMachine extends AnyStateMachine>(kind: ActorKind<TMachine>): ActorKind<TMachine> {
  return kind;
}
