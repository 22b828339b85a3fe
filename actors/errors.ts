/**
 * Typed errors of the runtime. Each carries a stable `name` so it survives a trip
 * over a transport (see transport/wire.ts) and the gateway can map it to an API error.
 */
export type RuntimeErrorName =
  | 'UnknownActorError'
  | 'UnknownKindError'
  | 'CommandRejectedError'
  | 'ConflictError'
  | 'AskTimeoutError'
  | 'DuplicateKeyError'
  | 'ShuttingDownError'
  | 'ShardNotServedError';

export abstract class RuntimeError extends Error {
  abstract override readonly name: RuntimeErrorName;
}

/** The addressed actor has no document and the message does not create it. */
export class UnknownActorError extends RuntimeError {
  override readonly name = 'UnknownActorError';
  constructor(
    readonly kind: string,
    readonly actorId: string,
  ) {
    super(`no ${kind} actor with id ${actorId}`);
  }
}

export class UnknownKindError extends RuntimeError {
  override readonly name = 'UnknownKindError';
  constructor(readonly kind: string) {
    super(`no actor kind named ${kind} is registered`);
  }
}

/**
 * The actor refused the command in its current state. `code` is what the API puts
 * in `errorCode`; `status` is the HTTP status the gateway answers with.
 */
export class CommandRejectedError extends RuntimeError {
  override readonly name = 'CommandRejectedError';
  constructor(
    readonly code: string,
    message: string,
    readonly status = 422,
    readonly details: unknown = null,
  ) {
    super(message);
  }
}

/** A conditional write lost to another writer more times than the runtime retries. */
export class ConflictError extends RuntimeError {
  override readonly name = 'ConflictError';
  constructor(
    readonly kind: string,
    readonly actorId: string,
    readonly attempts: number,
  ) {
    super(`${kind}:${actorId} lost ${attempts} conditional writes in a row`);
  }
}

/** No reply within the ask's deadline, retries included. The command may still have been applied. */
export class AskTimeoutError extends RuntimeError {
  override readonly name = 'AskTimeoutError';
  constructor(
    readonly kind: string,
    readonly actorId: string,
    readonly timeoutMs: number,
  ) {
    super(`${kind}:${actorId} did not answer within ${timeoutMs} ms`);
  }
}

/** An insert collided with an existing document on `_id` or a unique index. */
export class DuplicateKeyError extends RuntimeError {
  override readonly name = 'DuplicateKeyError';
  constructor(
    readonly collection: string,
    readonly key: string,
  ) {
    super(`duplicate key in ${collection}: ${key}`);
  }
}

/** The node is draining and takes no new messages. */
export class ShuttingDownError extends RuntimeError {
  override readonly name = 'ShuttingDownError';
  constructor() {
    super('the node is shutting down');
  }
}

/**
 * This node does not hold a valid lease on the actor's shard (it never had it, lost
 * it, or could not renew it in time), so it must not run the actor's turns, timers
 * or effects. Retryable: the caller's next attempt reaches whichever node holds it.
 */
export class ShardNotServedError extends RuntimeError {
  override readonly name = 'ShardNotServedError';
  constructor(readonly shard: number) {
    super(`this node does not hold a valid lease on shard ${shard}`);
  }
}
