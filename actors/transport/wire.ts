/**
 * The NATS wire format of asks and replies: JSON through the bigint codec, and the
 * runtime's typed errors carried by name so the caller rethrows the same class.
 */
import type { ActorAddress } from '../address.js';
import { fromJson, toJson } from '../codec.js';
import { CommandRejectedError } from '../errors.js';
import { RUNTIME_ERRORS, runtimeRowOf, type RuntimeErrorRow, type WireFields } from '../errors/error-table.js';
import type { ActorMessage } from '../runtime/messages.js';
import { RemoteError, TransportUnavailableError } from './transport.js';

export interface WireRequest {
  address: ActorAddress;
  message: ActorMessage;
}

/** A thrown error on the wire: its name, message and own fields (a refusal's code and details, an address, a count). */
type WireError = WireFields & { name: string };

type WireReply = { ok: true; value: unknown } | { ok: false; error: WireError };

export const encodeRequest = (request: WireRequest): string => toJson(request);
export const decodeRequest = (text: string): WireRequest => fromJson<WireRequest>(text);

export function encodeReply(value: unknown): string {
  return toJson({ ok: true, value });
}

export function encodeFailure(error: unknown): string {
  if (!(error instanceof Error)) return toJson({ ok: false, error: { name: 'Error', message: String(error) } });
  // A class's own fields are what its row's `revive` reads; cause and stack stay on this node. Other errors go by name and message.
  const failure: WireError = { ...(runtimeRowOf(error)?.wire ? error : {}), name: error.name, message: error.message };
  // Nodes of the previous version read a refusal's status from the wire.
  if (error instanceof CommandRejectedError) failure.status = error.status;
  return toJson({ ok: false, error: failure });
}

/** Returns the reply's value or throws the error it carries, as the class that was thrown remotely (its row in the error table). */
export function decodeReply(text: string): unknown {
  const reply = fromJson<WireReply>(text);
  if (reply.ok) return reply.value;
  const { name, ...fields } = reply.error;
  const wire = Object.hasOwn(RUNTIME_ERRORS, name) ? (RUNTIME_ERRORS[name as keyof typeof RUNTIME_ERRORS] as RuntimeErrorRow).wire : undefined;
  if (!wire) throw new RemoteError(`remote ${name}: ${fields.message}`, { cause: Object.assign(new Error(fields.message), { name }) });
  const error = wire.revive(fields);
  // The node is draining or lost the shard: another serves it shortly.
  if (wire.unavailable) throw new TransportUnavailableError(fields.message, { cause: error });
  throw error;
}
