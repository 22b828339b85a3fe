/**
 * Remembered message ids beyond an actor's document. A document keeps its most recent
 * applied ids (with their replies) inline, so the common retry is answered from the
 * document it already holds; older ones move here in batches, before the write that
 * drops them from the document, so every applied id is in one place or the other for
 * the whole retention. Lookups happen only for actors that have ever moved ids here.
 */
import type { ActorAddress } from '../address.js';
import { DuplicateKeyError } from '../errors.js';
import type { Collection, Store, StoredDocument } from '../store/store.js';

export interface LoggedMessage extends StoredDocument {
  /** `<kind>:<actor id>:<message id>`. */
  _id: string;
  /** The reply as codec JSON text. */
  reply: string;
  appliedAt: number;
  expiresAt: number;
}

export interface RememberedMessage {
  id: string;
  reply: string;
  appliedAt: number;
}

export const MESSAGE_LOG_COLLECTION = 'actor_messages';

export class MessageLog {
  private constructor(
    private readonly messages: Collection<LoggedMessage>,
    readonly retentionMs: number,
  ) {}

  static async open(store: Store, retentionMs: number): Promise<MessageLog> {
    const messages = await store.collection<LoggedMessage>({
      name: MESSAGE_LOG_COLLECTION,
      indexes: [{ key: { expiresAt: 1 }, name: 'by_expiry' }],
    });
    return new MessageLog(messages, retentionMs);
  }

  /** The stored reply to `messageId`, if the actor applied it within the retention. */
  async reply(actor: ActorAddress, messageId: string, now: number): Promise<string | null> {
    const found = await this.messages.findOne({ _id: key(actor, messageId) });
    return found && found.expiresAt > now ? found.reply : null;
  }

  /** Idempotent: an id already here (a batch written again after a lost write) is left as it is. */
  async append(actor: ActorAddress, batch: readonly RememberedMessage[]): Promise<void> {
    for (const message of batch) {
      try {
        await this.messages.insertOne({
          _id: key(actor, message.id),
          reply: message.reply,
          appliedAt: message.appliedAt,
          expiresAt: message.appliedAt + this.retentionMs,
        });
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    }
  }

  /** Forgets ids past their retention; returns how many. */
  purge(now: number): Promise<number> {
    return this.messages.deleteMany({ expiresAt: { $lte: now } });
  }
}

function key(actor: ActorAddress, messageId: string): string {
  return `${actor.kind}:${actor.id}:${messageId}`;
}
