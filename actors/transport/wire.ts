/**
 * The NATS wire format of asks and replies: JSON through the bigint codec, and the
 * runtime's typed errors carried by name so the caller rethrows the same class.
 */
import type { ActorAddress } from '../address.js';
import { fromJson, toJson } from '../codec.js';
import {
  AskTimeoutError,
  CommandRejectedError,
  ConflictError,
  ShardNotServedError,
  ShuttingDownError,
  UnknownActorError,
  UnknownKindError,
} from '../errors.js';
import type { ActorMessage } from '../runtime/messages.js';
import { TransportUnavailableError } from './transport.js';

export interface WireRequest {
  address: ActorAddress;
  message: ActorMessage;
}

interface WireError {
  name: string;
  message: string;
  code?: string;
  status?: number;
  details?: unknown;
  kind?: string;
  actorId?: string;
  attempts?: number;
  timeoutMs?: number;
}

type WireReply = { ok: true; value: unknown } | { ok: false; error: WireError };

export const encodeRequest = (request: WireRequest): string => toJson(request);
export const decodeRequest = (text: string): WireRequest => fromJson<WireRequest>(text);

export function encodeReply(value: unknown): string {
  return toJson({ ok: true, value });
}

export function encodeFailure(error: unknown): string {
  const failure: WireError = error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
  if (error instanceof CommandRejectedError) Object.assign(failure, { code: error.code, status: error.status, details: error.details });
  if (error instanceof UnknownActorError || error instanceof ConflictError || error instanceof AskTimeoutError) {
    Object.assign(failure, { kind: error.kind, actorId: error.actorId });
  }
  if (error instanceof UnknownKindError) failure.kind = error.kind;
  if (error instanceof ConflictError) failure.attempts = error.attempts;
  if (error instanceof AskTimeoutError) failure.timeoutMs = error.timeoutMs;
  return toJson({ ok: false, error: failure });
}

/** Returns the reply's value or throws the error it carries, as the class that was thrown remotely. */
export function decodeReply(text: string): unknown {
  const reply = fromJson<WireReply>(text);
  if (reply.ok) return reply.value;
  const error = reply.error;
  switch (error.name) {
    case 'CommandRejectedError':
      throw new CommandRejectedError(error.code ?? 'REJECTED', error.message, error.status, error.details ?? null);
    case 'UnknownActorError':
      throw new UnknownActorError(error.kind ?? '', error.actorId ?? '');
    case 'UnknownKindError':
      throw new UnknownKindError(error.kind ?? '');
    case 'ConflictError':
      throw new ConflictError(error.kind ?? '', error.actorId ?? '', error.attempts ?? 0);
    case 'AskTimeoutError':
      throw new AskTimeoutError(error.kind ?? '', error.actorId ?? '', error.timeoutMs ?? 0);
    case new ShuttingDownError().name:
    case new ShardNotServedError(0).name:
      // The node is draining or lost the shard: another serves it shortly.
      throw new TransportUnavailableError(error.message);
    default:
      throw new Error(`remote ${error.name}: ${error.message}`);
  }
}
