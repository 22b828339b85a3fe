/**
 * Typed errors of the runtime. Each carries a stable `name` so it survives a trip
 * over a transport (see transport/wire.ts), and a `code`; errors/error-table.ts says
 * what each answers through the API and whether it is retried.
 */
import { statusOfCode, type ErrorCode } from './errors/error-codes.js';
import { PlatformError } from './errors/platform-error.js';

export type RuntimeErrorName =
  | 'UnknownActorError'
  | 'UnknownKindError'
  | 'CommandRejectedError'
  | 'ConflictError'
  | 'AskTimeoutError'
  | 'DuplicateKeyError'
  | 'ShuttingDownError'
  | 'ShardNotServedError'
  | 'PermanentEffectError';

export abstract class RuntimeError extends PlatformError {
  abstract override readonly name: RuntimeErrorName;
}

/** The addressed actor has no document and the message does not create it. */
export class UnknownActorError extends RuntimeError {
  override readonly name = 'UnknownActorError';
  readonly code = 'UNKNOWN_ACTOR';
  constructor(
    readonly kind: string,
    readonly actorId: string,
    options?: ErrorOptions,
  ) {
    super(`no ${kind} actor with id ${actorId}`, options);
  }
}

export class UnknownKindError extends RuntimeError {
  override readonly name = 'UnknownKindError';
  readonly code = 'UNKNOWN_KIND';
  constructor(
    readonly kind: string,
    options?: ErrorOptions,
  ) {
    super(`no actor kind named ${kind} is registered`, options);
  }
}

/**
 * The actor refused the command in its current state. `code` is what the API puts
 * in `errorCode`; its row in the error table gives the HTTP status the gateway answers with.
 */
export class CommandRejectedError extends RuntimeError {
  override readonly name = 'CommandRejectedError';
  constructor(
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly details: unknown = null,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** The HTTP status of the code's row (422 for a code the table does not hold). */
  get status(): number {
    return statusOfCode(this.code);
  }
}

/** A conditional write lost to another writer more times than the runtime retries. */
export class ConflictError extends RuntimeError {
  override readonly name = 'ConflictError';
  readonly code = 'CONFLICT';
  constructor(
    readonly kind: string,
    readonly actorId: string,
    readonly attempts: number,
    options?: ErrorOptions,
  ) {
    super(`${kind}:${actorId} lost ${attempts} conditional writes in a row`, options);
  }
}

/** No reply within the ask's deadline, retries included. The command may still have been applied. */
export class AskTimeoutError extends RuntimeError {
  override readonly name = 'AskTimeoutError';
  readonly code = 'ASK_TIMEOUT';
  constructor(
    readonly kind: string,
    readonly actorId: string,
    readonly timeoutMs: number,
    options?: ErrorOptions,
  ) {
    super(`${kind}:${actorId} did not answer within ${timeoutMs} ms`, options);
  }
}

/** An insert collided with an existing document on `_id` or a unique index. */
export class DuplicateKeyError extends RuntimeError {
  override readonly name = 'DuplicateKeyError';
  readonly code = 'DUPLICATE_KEY';
  constructor(
    readonly collection: string,
    readonly key: string,
    options?: ErrorOptions,
  ) {
    super(`duplicate key in ${collection}: ${key}`, options);
  }
}

/** The node is draining and takes no new messages. */
export class ShuttingDownError extends RuntimeError {
  override readonly name = 'ShuttingDownError';
  readonly code = 'SHUTTING_DOWN';
  constructor(options?: ErrorOptions) {
    super('the node is shutting down', options);
  }
}

/**
 * This node does not hold a valid lease on the actor's shard (it never had it, lost
 * it, or could not renew it in time), so it must not run the actor's turns, timers
 * or effects. Retryable: the caller's next attempt reaches whichever node holds it.
 */
export class ShardNotServedError extends RuntimeError {
  override readonly name = 'ShardNotServedError';
  readonly code = 'SHARD_NOT_SERVED';
  constructor(
    readonly shard: number,
    options?: ErrorOptions,
  ) {
    super(`this node does not hold a valid lease on shard ${shard}`, options);
  }
}

/**
 * Thrown by an effect handler when running the effect again can never succeed (Temporal's
 * `nonRetryable`): the effect skips the retry ladder and goes to its actor's machine as
 * EFFECT_FAILED when the machine takes it, or straight to the dead letters. `code` is the
 * failure's own, for the machine to branch on.
 */
export class PermanentEffectError extends RuntimeError {
  override readonly name = 'PermanentEffectError';
  readonly code: string;
  constructor(message: string, options: ErrorOptions & { code?: string } = {}) {
    super(message, options);
    this.code = options.code ?? 'EFFECT_FAILED';
  }
}
