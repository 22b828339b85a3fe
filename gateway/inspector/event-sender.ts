/**
 * Sending an event to an actor from the engineers' page (docs/inspector.md, "Sending an
 * event"). The event goes through the actor system's own message path (`ask`), so the
 * turn it makes is recorded, replayed and time-travelled like any other, under the
 * message id `admin-api:<request id>`, which says who sent it.
 *
 * What is refused, before anything is sent, so a refusal changes nothing:
 * - on a production node, any actor that is not a sandbox one (its view or context says
 *   `environment: SANDBOX`): live money moves only by the platform's own paths;
 * - an event type the machine does not take, or one that creates an actor (`createdBy`)
 *   or is xstate's own (a delayed event: its timer delivers it);
 * and, by the actor itself, an event its state does not take or its kind's rules refuse,
 * or whose fields its machine cannot read (the turn throws before any write).
 */
import { decode, encode } from '../../actors/codec.js';
import { CommandRejectedError, RuntimeError } from '../../actors/errors.js';
import { ActorHistory } from '../../actors/history/index.js';
import type { ActorAddress } from '../../actors/address.js';
import type { ActorDocument } from '../../actors/runtime/actor-document.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { z } from 'zod';
import { ApiError } from '../envelope.js';
import type { sentEvent } from '../schemas/actor-event-schemas.js';
import { inspectedDocument, summary } from './actor-inspector.js';
import { redact } from './redaction.js';
import { sendableEvents } from './sendable-events.js';

type SentEvent = z.input<typeof sentEvent>;

/** Turns read after the send to find the one it made: the turn and a maintenance write or two. */
const TURNS_AFTER = 10;

export class EventSender {
  readonly #history: ActorHistory;

  constructor(
    private readonly system: ActorSystem,
    /** NODE_ENV: production refuses every actor but sandbox ones. */
    private readonly nodeEnvironment: string,
  ) {
    this.#history = new ActorHistory(system);
  }

  async send(address: ActorAddress, event: { type: string } & Record<string, unknown>, requestId: string): Promise<SentEvent> {
    const before = await inspectedDocument(this.#history, address);
    if (this.nodeEnvironment === 'production' && !isSandbox(before)) {
      throw new ApiError(
        403,
        `${address.kind} ${address.id} is not a sandbox actor: a production node takes events from the admin API for sandbox actors only`,
        'LIVE_ACTOR_PROTECTED',
      );
    }
    const sendable = sendableEvents(this.system, address.kind);
    if (!sendable.includes(event.type)) {
      throw new ApiError(400, `${address.kind} does not take ${event.type} from the admin API; it takes ${sendable.join(', ')}`, 'UNKNOWN_EVENT_TYPE');
    }
    const messageId = `admin-api:${requestId}`;
    let reply: unknown;
    try {
      reply = await this.system.askAt(address, decode<typeof event>(event), { messageId });
    } catch (error) {
      if (error instanceof CommandRejectedError)
        throw new ApiError(409, `${address.kind} ${address.id} refused ${event.type}: ${error.code}: ${error.message}`, 'EVENT_REFUSED', null, undefined, {
          cause: error,
        });
      // Not the runtime's: the machine threw on the event's fields (a turn is pure, so it wrote nothing).
      if (!(error instanceof RuntimeError) && error instanceof Error) {
        throw new ApiError(
          422,
          `${address.kind} ${address.id} could not apply ${event.type}, its fields are not what the machine reads: ${redact(error.message) as string}`,
          'EVENT_FAILED',
          null,
          undefined,
          { cause: error },
        );
      }
      throw error;
    }
    const after = await inspectedDocument(this.#history, address);
    const page = await this.#history.page(after, before.version, TURNS_AFTER);
    const turn = page.turns.find((record) => record.messageId === messageId);
    return { kind: address.kind, id: address.id, messageId, reply: redact(encode(reply ?? null)), turn: turn ? summary(turn) : null };
  }
}

function isSandbox(doc: ActorDocument): boolean {
  const context = (doc.snapshot as { context?: { environment?: unknown } }).context;
  return doc.view.environment === 'SANDBOX' || context?.environment === 'SANDBOX';
}
