/**
 * Remembered message ids beyond an actor's document. A document keeps its most recent
 * applied ids (with their replies) inline, so the common retry is answered from the
 * document it already holds; older ones move here, a batch per document, before the
 * write that drops them from the actor's document, so every applied id is in one
 * place or the other for the whole retention. A batch is one insert for dozens of
 * messages, and a lookup is one indexed read, made only for actors that have ever
 * moved ids here.
 */
import type { ActorAddress } from '../address.js';
import { DuplicateKeyError } from '../errors.js';
import type { Collection, Store, StoredDocument } from '../store/store.js';

export interface LoggedBatch extends StoredDocument {
  /** `<kind>:<actor id>:<first message id>`: a batch written again after a lost write is the same document. */
  _id: string;
  /** `<kind>:<actor id>`. */
  actor: string;
  ids: string[];
  /** The reply to each of `ids`, as codec JSON text. */
  replies: string[];
  appliedAt: number[];
  /** When the newest of the batch leaves the retention: the whole batch can go then. */
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
    private readonly batches: Collection<LoggedBatch>,
    readonly retentionMs: number,
  ) {}

  static async open(store: Store, retentionMs: number): Promise<MessageLog> {
    const batches = await store.collection<LoggedBatch>({
      name: MESSAGE_LOG_COLLECTION,
      // Message ids lead: they are near unique, so a lookup reads one batch whatever the actor's history.
      indexes: [
        { key: { ids: 1, actor: 1 }, name: 'by_message' },
        { key: { expiresAt: 1 }, name: 'by_expiry' },
      ],
    });
    return new MessageLog(batches, retentionMs);
  }

  /** The stored reply to `messageId`, if the actor applied it within the retention. */
  async reply(actor: ActorAddress, messageId: string, now: number): Promise<string | null> {
    const batch = await this.batches.findOne({ ids: messageId, actor: actorKey(actor) });
    const index = batch ? batch.ids.indexOf(messageId) : -1;
    if (!batch || index < 0 || batch.appliedAt[index]! <= now - this.retentionMs) return null;
    return batch.replies[index]!;
  }

  /**
   * Idempotent: a batch written again after a lost write is left as it is, and ids a
   * longer batch holds beyond the one already here go into a batch of their own.
   */
  async append(actor: ActorAddress, messages: readonly RememberedMessage[]): Promise<void> {
    const first = messages[0];
    if (!first) return;
    const _id = `${actorKey(actor)}:${first.id}`;
    try {
      await this.batches.insertOne({
        _id,
        actor: actorKey(actor),
        ids: messages.map((message) => message.id),
        replies: messages.map((message) => message.reply),
        appliedAt: messages.map((message) => message.appliedAt),
        expiresAt: Math.max(...messages.map((message) => message.appliedAt)) + this.retentionMs,
      });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      const stored = new Set((await this.batches.findOne({ _id }))?.ids ?? []);
      const missing = messages.filter((message) => !stored.has(message.id));
      if (missing.length < messages.length) await this.append(actor, missing);
      else throw error;
    }
  }

  /** Forgets batches whose every id is past the retention; returns how many. */
  purge(now: number): Promise<number> {
    return this.batches.deleteMany({ expiresAt: { $lte: now } });
  }
}

function actorKey(actor: ActorAddress): string {
  return `${actor.kind}:${actor.id}`;
}
