/**
 * The dead-letter store: work that failed past its retry policy (an effect, a timer,
 * a bus delivery, a chain fact's delivery) or that nobody could take (a refused tell whose sender declares no
 * handler for refusals). A letter keeps the original payload, the error and the
 * attempt count, and stops blocking what queued behind it. Operators list, retry or
 * discard letters through the admin API; whoever owns a source registers how its
 * letters are retried. Ids are derived from what failed, so the same work failing
 * again reopens its letter instead of adding another.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { ActorAddress } from '../address.js';
import type { Clock } from '../clock.js';
import type { Encoded } from '../codec.js';
import { CommandRejectedError, DuplicateKeyError, PermanentEffectError, UnknownActorError } from '../errors.js';
import type { Collection, Filter, Store, StoredDocument } from '../store/store.js';

export const DEAD_LETTER_SOURCES = ['effect', 'timer', 'bus', 'refusal', 'fact'] as const;
export type DeadLetterSource = (typeof DEAD_LETTER_SOURCES)[number];
export const DEAD_LETTER_STATUSES = ['OPEN', 'RETRIED', 'DISCARDED'] as const;
export type DeadLetterStatus = (typeof DEAD_LETTER_STATUSES)[number];

export interface DeadLetterError {
  name: string;
  message: string;
  /** The refusal code when the target refused (EVENT_NOT_ACCEPTED, a domain code, UNKNOWN_ACTOR). */
  code: string | null;
}

export interface DeadLetter extends StoredDocument {
  /** `dlq_` and 24 hex digits derived from `key`. */
  _id: string;
  /**
   * What failed, unique: `effect:<effect id>`, `timer:<actor>:<timer id>@<due>`,
   * `bus:<consumer>:<event id>`, `refusal:<effect id>`, `fact:<fact message id>:<actor>`.
   */
  key: string;
  source: DeadLetterSource;
  /** The actor whose work it was; null for a bus delivery. */
  actor: ActorAddress | null;
  /** The durable consumer of a bus delivery; null otherwise. */
  consumer: string | null;
  /** The original work: the outbox entry, the timer row, the domain event or the refused message. */
  payload: Encoded;
  error: DeadLetterError;
  attempts: number;
  firstAttemptAt: number;
  lastAttemptAt: number;
  createdAt: number;
  updatedAt: number;
  status: DeadLetterStatus;
  /** Why it was discarded, or `retried`; null while open. */
  resolution: string | null;
  resolvedAt: number | null;
}

export type NewDeadLetter = Pick<DeadLetter, 'key' | 'source' | 'actor' | 'consumer' | 'payload' | 'error' | 'attempts' | 'firstAttemptAt'>;

/** Puts a letter's work back where it came from, with a fresh retry budget. */
export type DeadLetterRetrier = (letter: DeadLetter) => Promise<void>;

export interface DeadLetterQuery {
  status?: DeadLetterStatus;
  source?: DeadLetterSource;
  /** `kind:id` of the actor. */
  actor?: ActorAddress;
  limit: number;
  /** Id of the last letter of the previous page (newest first). */
  startingAfter?: string;
}

export const DEAD_LETTERS_COLLECTION = 'dead_letters';

export class DeadLetterStore {
  readonly #retriers = new Map<DeadLetterSource, DeadLetterRetrier>();

  private constructor(
    private readonly letters: Collection<DeadLetter>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  static async open(store: Store, clock: Clock, logger: Logger): Promise<DeadLetterStore> {
    const letters = await store.collection<DeadLetter>({
      name: DEAD_LETTERS_COLLECTION,
      indexes: [
        { key: { status: 1, createdAt: -1, _id: -1 }, name: 'by_status' },
        { key: { 'actor.kind': 1, 'actor.id': 1 }, name: 'by_actor' },
      ],
    });
    return new DeadLetterStore(letters, clock, logger);
  }

  static idOf(key: string): string {
    return `dlq_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;
  }

  /** Registers how letters of `source` are retried; one owner per source. */
  onRetry(source: DeadLetterSource, retrier: DeadLetterRetrier): void {
    this.#retriers.set(source, retrier);
  }

  /** Files a letter, or reopens the one already filed for the same work. */
  async add(letter: NewDeadLetter): Promise<DeadLetter> {
    const now = this.clock.now();
    const _id = DeadLetterStore.idOf(letter.key);
    const existing = await this.letters.findOne({ _id });
    const doc: DeadLetter = {
      ...letter,
      _id,
      attempts: (existing?.attempts ?? 0) + letter.attempts,
      firstAttemptAt: existing?.firstAttemptAt ?? letter.firstAttemptAt,
      lastAttemptAt: now,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
      status: 'OPEN',
      resolution: null,
      resolvedAt: null,
    };
    if (existing) {
      await this.letters.replaceOne({ _id }, doc);
    } else {
      try {
        await this.letters.insertOne(doc);
      } catch (error) {
        // Two nodes filed the same work at once: one letter is enough.
        if (!(error instanceof DuplicateKeyError)) throw error;
        await this.letters.replaceOne({ _id }, doc);
      }
    }
    this.logger.error(
      { deadLetter: _id, key: letter.key, source: letter.source, actor: letter.actor, consumer: letter.consumer, attempts: doc.attempts, error: letter.error },
      'work moved to the dead letters',
    );
    return doc;
  }

  get(id: string): Promise<DeadLetter | null> {
    return this.letters.findOne({ _id: id });
  }

  async list(query: DeadLetterQuery): Promise<{ letters: DeadLetter[]; hasMore: boolean }> {
    const filter: Filter = {};
    if (query.status) filter.status = query.status;
    if (query.source) filter.source = query.source;
    if (query.actor) Object.assign(filter, { 'actor.kind': query.actor.kind, 'actor.id': query.actor.id });
    if (query.startingAfter) {
      const after = await this.letters.findOne({ _id: query.startingAfter }, { projection: { _id: 1, createdAt: 1 } });
      if (!after) throw new CommandRejectedError('DEAD_LETTER_NOT_FOUND', `no dead letter ${query.startingAfter}`);
      filter.$or = [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after._id } }];
    }
    const rows = await this.letters.find(filter, { sort: { createdAt: -1, _id: -1 }, limit: query.limit + 1 });
    return { letters: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  }

  count(status: DeadLetterStatus = 'OPEN'): Promise<number> {
    return this.letters.count({ status });
  }

  /**
   * Hands an open letter back to its source with a fresh retry budget. The letter is
   * claimed first, so two operators retrying at once put the work back only once; if
   * the source cannot take it back the letter stays open.
   */
  async retry(id: string, by: string): Promise<DeadLetter> {
    const letter = await this.#open(id);
    const retrier = this.#retriers.get(letter.source);
    if (!retrier) {
      throw new CommandRejectedError('DEAD_LETTER_NOT_RETRYABLE', `no ${letter.source} retrier runs on this node`);
    }
    const now = this.clock.now();
    if (!(await this.letters.updateOne({ _id: id, status: 'OPEN' }, { $set: { status: 'RETRIED', resolution: 'retried', resolvedAt: now, updatedAt: now } }))) {
      throw notOpen(id);
    }
    try {
      await retrier(letter);
    } catch (error) {
      await this.letters.updateOne({ _id: id }, { $set: { status: 'OPEN', resolution: null, resolvedAt: null, updatedAt: this.clock.now() } });
      throw error;
    }
    this.logger.warn({ deadLetter: id, key: letter.key, source: letter.source, by }, 'dead letter retried');
    return { ...letter, status: 'RETRIED', resolution: 'retried', resolvedAt: now, updatedAt: now };
  }

  /** Closes an open letter without running its work again; the reason is kept. */
  async discard(id: string, reason: string, by: string): Promise<DeadLetter> {
    const letter = await this.#open(id);
    const now = this.clock.now();
    if (!(await this.letters.updateOne({ _id: id, status: 'OPEN' }, { $set: { status: 'DISCARDED', resolution: reason, resolvedAt: now, updatedAt: now } }))) {
      throw notOpen(id);
    }
    this.logger.warn({ deadLetter: id, key: letter.key, source: letter.source, reason, by }, 'dead letter discarded');
    return { ...letter, status: 'DISCARDED', resolution: reason, resolvedAt: now, updatedAt: now };
  }

  async #open(id: string): Promise<DeadLetter> {
    const letter = await this.letters.findOne({ _id: id });
    if (!letter) throw new CommandRejectedError('DEAD_LETTER_NOT_FOUND', `no dead letter ${id}`);
    if (letter.status !== 'OPEN') throw notOpen(id, letter.status);
    return letter;
  }
}

function notOpen(id: string, status?: DeadLetterStatus): CommandRejectedError {
  return new CommandRejectedError('DEAD_LETTER_NOT_OPEN', `dead letter ${id} is ${status ?? 'no longer open'}`);
}

/** The error part of a letter, from whatever was thrown. */
export function deadLetterError(error: unknown): DeadLetterError {
  if (error instanceof CommandRejectedError) return { name: error.name, message: error.message, code: error.code };
  if (error instanceof UnknownActorError || error instanceof PermanentEffectError) return { name: error.name, message: error.message, code: error.code };
  if (error instanceof Error) return { name: error.name, message: error.message, code: null };
  return { name: 'Error', message: String(error), code: null };
}
