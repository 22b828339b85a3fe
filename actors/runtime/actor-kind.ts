/**
 * An actor kind binds a pure machine (machines/) to what the runtime needs around
 * it: how it is created, the view it publishes, how it answers, which commands it
 * refuses and with what code, and the handlers of the effects its actions name.
 *
 * A kind carries its types the way Temporal's `proxyActivities<typeof activities>` does:
 * its commands are its machine's events, its view and reply are what `view` and `reply`
 * return, and each effect handler takes the params its machine action declares. Callers
 * ask and read through the kind object (`system.askAt(orderKind, id, command)`,
 * `system.views(orderKind)`), so a reply or a view needs no cast.
 */
import type { AnyStateMachine, EventFromLogic, EventObject, InputFrom, NonReducibleUnknown, SnapshotFrom, StateMachine } from 'xstate';
import type { Logger } from 'pino';
import type { ActorAddress } from '../address.js';
import type { ErrorCode } from '../errors/error-codes.js';
import type { Clock } from '../clock.js';
import type { NodeMetrics } from '../metrics/node-metrics.js';
import type { IndexSpec } from '../store/store.js';
import type { AskOptions } from './messages.js';

/** What a refused command answers; the gateway turns it into an API error with the status of the code's row in the error table. */
export interface Rejection {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** Asks an actor of `kind` and resolves with the reply its kind declares. */
export type AskKind = <K extends AnyActorKind>(kind: K, id: string, command: CommandOf<K>, options?: AskOptions) => Promise<ReplyOf<K>>;

/** Asks an actor whose kind is only known at run time (its own, an attached one, one a message names). */
export type AskAddress = <TEvent extends EventObject>(address: ActorAddress, event: TEvent, options?: AskOptions) => Promise<unknown>;

/** `AskKind` over an address-based ask: where a reply off the transport takes the type its kind's `reply` gave it. */
export function askByKind(askAt: (address: ActorAddress, event: EventObject, options?: AskOptions) => Promise<unknown>): AskKind {
  return (kind, id, command, options) => askAt({ kind: kind.name, id }, command, options).then((reply) => reply as ReplyOf<typeof kind>);
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
  ask: AskKind;
  askAt: AskAddress;
  /** The node's clock: what a party outside reads as now (a signature's timestamp, a deadline on the wire). */
  clock: Clock;
  /**
   * The time the actor's turns run at now: its test clock's for an actor attached to one
   * (test-clock-time.ts), the node's otherwise. What an effect reports as when it happened.
   */
  actorNow(): Promise<number>;
  logger: Logger;
  /** The node's metrics: what an effect's outcome adds to them (a webhook attempt, a relayer receipt). */
  metrics: NodeMetrics;
}

/** The actions a machine's `setup()` declares, each with its params. */
// biome-ignore lint/suspicious/noExplicitAny: a type-level pattern over any machine or kind; each any is a position inferred or ignored, never a value's type
type ActionsOf<TMachine> = TMachine extends StateMachine<any, any, any, any, infer TAction, any, any, any, any, any, any, any, any, any, any> ? TAction : never;

/**
 * The actions of a machine that may be effects: the custom actions that declare params
 * (an `assign` declares none), less the runtime's own `tell`. The runtime queues each one
 * its kind has a handler for (turn.ts). A parameterised `emit` is among them too: its
 * type is a custom action's, so no handler is required, and none may name an action the
 * machine lacks.
 */
type EffectActions<TMachine> =
  ActionsOf<TMachine> extends infer TAction
    ? TAction extends { type: infer TType; params: infer TParams }
      ? TType extends 'tell'
        ? never
        : NonReducibleUnknown extends TParams
          ? never
          : TAction
      : never
    : never;

/** The name of each effect action of a machine. */
export type EffectName<TMachine> = EffectActions<TMachine>['type'];

/** The params an effect action of a machine declares. */
export type EffectParams<TMachine, TName extends EffectName<TMachine>> = Extract<EffectActions<TMachine>, { type: TName }>['params'];

/** Runs an effect. It may run more than once (at least once), so it must be idempotent by `effectId`. */
// biome-ignore lint/suspicious/noExplicitAny: a type-level pattern over any machine or kind; each any is a position inferred or ignored, never a value's type
export type EffectHandler<TParams = any> = (params: TParams, context: EffectContext) => Promise<void>;

/**
 * Handlers of the effect actions of the machine, each typed by its action's params: a
 * handler for an action the machine does not name (a renamed one) does not compile.
 */
export type EffectHandlers<TMachine extends AnyStateMachine> =
  // A kind whose machine is not known (the runtime's view of every kind) has handlers by any name.
  0 extends 1 & ActionsOf<TMachine>
    ? Record<string, EffectHandler>
    : { [TAction in EffectActions<TMachine> as TAction['type'] & string]?: EffectHandler<TAction['params']> };

/**
 * The event that creates an actor of a kind without its own `input`: the creating type
 * and the machine's input, whose `id` the runtime fills in with the actor's.
 */
export type InputCreation<TMachine extends AnyStateMachine, TCreated extends string> = { type: TCreated; id?: string; clockId?: string } & Omit<
  InputFrom<TMachine>,
  'id'
>;

export interface ActorKind<
  TMachine extends AnyStateMachine = AnyStateMachine,
  TView = Record<string, unknown>,
  TReply = unknown,
  TCreated extends string = string,
  TCreate extends EventObject = EventObject,
  // A parameter of its own, not EffectHandlers<TMachine> inline: that would make every kind's type invariant in its machine.
  TEffects extends Partial<Record<string, EffectHandler>> = Partial<Record<string, EffectHandler>>,
> {
  /** The `kind` of addresses, for example `order`. */
  name: string;
  machine: TMachine;
  /** Stored with every snapshot; bump it when old snapshots can no longer be read, and add a migration. */
  machineVersion: number;
  /** Migrations from a stored machine version to the next one, keyed by the version they read. */
  migrations?: Record<number, (persisted: Record<string, unknown>) => Record<string, unknown>>;
  /** Event types that create the actor when it has no document yet. */
  createdBy: readonly TCreated[];
  /** The machine's input, from the creating event. Defaults to the event's payload with the actor's id. */
  input?(event: TCreate, id: string): InputFrom<TMachine>;
  /** The public resource plus the fields list queries filter on. Must be plain data (no bigint). */
  view(snapshot: SnapshotFrom<TMachine>, id: string): TView;
  /** What a command answers once applied; the view by default. `view` is this turn's, built once for both. */
  reply?(snapshot: SnapshotFrom<TMachine>, event: EventFromLogic<TMachine> | TCreate, id: string, view: TView): TReply;
  /** A domain-specific refusal checked before the machine sees the event. */
  check?(snapshot: SnapshotFrom<TMachine>, event: EventFromLogic<TMachine> | TCreate): Rejection | null;
  /** Handlers for the effect actions of the machine, run from the outbox after the write; none on a node that runs none. */
  effects?: TEffects;
  /** Indexes on `view.*` fields for the list queries of this kind. */
  viewIndexes?: IndexSpec[];
  /**
   * How many applied message ids (with replies) an actor keeps in its own document, 64
   * by default; past that the older half moves to the message log, where ids are kept
   * for the system's retention. Inline replies are rewritten with every turn, so they should stay small.
   */
  rememberedMessages?: number;
}

/** Any kind, whatever its machine, view and reply. */
// biome-ignore lint/suspicious/noExplicitAny: a type-level pattern over any machine or kind; each any is a position inferred or ignored, never a value's type
export type AnyActorKind = ActorKind<any, any, any, any, any, any>;

/** The event that creates an actor of kind `K`. */
// biome-ignore lint/suspicious/noExplicitAny: a type-level pattern over any machine or kind; each any is a position inferred or ignored, never a value's type
export type CreationOf<K extends AnyActorKind> = K extends ActorKind<any, any, any, any, infer TCreate, any> ? TCreate : never;
/** What callers may send an actor of kind `K`: the event that creates it and its machine's events. */
export type CommandOf<K extends AnyActorKind> = CreationOf<K> | EventFromLogic<K['machine']>;
/** What a kind publishes as the view of each actor. */
export type ViewOf<K extends AnyActorKind> = ReturnType<K['view']>;
/** What an applied command of kind `K` answers: `reply`'s result, or the view. */
export type ReplyOf<K extends AnyActorKind> = ReturnType<NonNullable<K['reply']>>;
/** The snapshot of a kind's machine. */
export type SnapshotOf<K extends AnyActorKind> = SnapshotFrom<K['machine']>;

export function defineKind<
  TMachine extends AnyStateMachine,
  TView,
  TReply = TView,
  TCreated extends string = string,
  TCreate extends EventObject = InputCreation<TMachine, TCreated>,
>(
  kind: ActorKind<TMachine, TView, TReply, TCreated, TCreate, EffectHandlers<TMachine>>,
): ActorKind<TMachine, TView, TReply, TCreated, TCreate, EffectHandlers<TMachine>> {
  return kind;
}

/** The kind as a node that runs its effects registers it, with the handlers of its machine's effect actions. */
export function withEffects<K extends AnyActorKind>(kind: K, effects: EffectHandlers<K['machine']>): K {
  return { ...kind, effects };
}
