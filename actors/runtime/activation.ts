/**
 * A live actor in this node's memory: its cached document and its mailbox. A turn
 * reads the cache (loading on first use), runs the pure turn, and saves the result
 * with one write conditional on the version it read. Losing that write means another
 * activation wrote first: drop the cache, reload, redo the turn (ARCHITECTURE, Actors §3).
 */
import type { ActorAddress } from '../address.js';
import type { Clock } from '../clock.js';
import { CommandRejectedError, ConflictError, DuplicateKeyError, UnknownActorError } from '../errors.js';
import type { Collection } from '../store/store.js';
import type { ActorDocument } from './actor-document.js';
import type { ActorKind } from './actor-kind.js';
import { Mailbox } from './mailbox.js';
import type { ActorMessage } from './messages.js';
import { runTurn } from './turn.js';

const MAX_ATTEMPTS = 25;

export interface ActivationHost {
  clock: Clock;
  collection: Collection<ActorDocument>;
  shard: number;
  /** Called whenever the cached document changes (load or write): schedules timers and effects. */
  documentChanged(activation: Activation, doc: ActorDocument): void;
}

export class Activation {
  readonly mailbox = new Mailbox();
  /** `undefined` until loaded; `null` when the actor has no document yet. */
  #doc: ActorDocument | null | undefined = undefined;

  constructor(
    readonly kind: ActorKind,
    readonly address: ActorAddress,
    private readonly host: ActivationHost,
  ) {}

  get doc(): ActorDocument | null | undefined {
    return this.#doc;
  }

  deliver(message: ActorMessage): Promise<unknown> {
    return this.mailbox.run(() => this.#turn(message));
  }

  /** Loads the document if it is not cached, so pending effects and timers are picked up. */
  load(): Promise<ActorDocument | null> {
    return this.mailbox.run(async () => (this.#doc === undefined ? this.#reload() : this.#doc));
  }

  /** Removes effects that have run from the outbox, in a turn of its own. */
  acknowledge(effectIds: ReadonlySet<string>): Promise<void> {
    return this.mailbox.run(async () => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const doc = this.#doc === undefined ? await this.#reload() : this.#doc;
        if (!doc || !doc.outbox.some((entry) => effectIds.has(entry.id))) return;
        const outbox = doc.outbox.filter((entry) => !effectIds.has(entry.id));
        const next: ActorDocument = { ...doc, version: doc.version + 1, outbox, outboxPending: outbox.length > 0, updatedAt: this.host.clock.now() };
        if (await this.host.collection.replaceOne({ _id: doc._id, version: doc.version }, next)) {
          this.#doc = next;
          return;
        }
        this.#doc = undefined;
      }
      throw new ConflictError(this.address.kind, this.address.id, MAX_ATTEMPTS);
    });
  }

  async #turn(message: ActorMessage): Promise<unknown> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const cached = this.#doc !== undefined;
      const doc = cached ? this.#doc! : await this.#reload();
      let outcome;
      try {
        outcome = runTurn({ kind: this.kind, address: this.address, doc, message, now: this.host.clock.now(), shard: this.host.shard });
      } catch (error) {
        // A refusal read from a cache another node has since overtaken would be wrong: check before answering.
        if (cached && (error instanceof CommandRejectedError || error instanceof UnknownActorError) && (await this.#isStale())) {
          this.#doc = undefined;
          continue;
        }
        throw error;
      }
      if (outcome.type !== 'write') {
        if (cached && (await this.#isStale())) {
          this.#doc = undefined;
          continue;
        }
        return outcome.type === 'replay' ? outcome.reply : null;
      }
      if (await this.#save(doc, outcome.doc)) {
        this.#setDoc(outcome.doc);
        return outcome.reply;
      }
      this.#doc = undefined;
    }
    throw new ConflictError(this.address.kind, this.address.id, MAX_ATTEMPTS);
  }

  async #save(previous: ActorDocument | null, next: ActorDocument): Promise<boolean> {
    if (previous) return this.host.collection.replaceOne({ _id: previous._id, version: previous.version }, next);
    try {
      await this.host.collection.insertOne(next);
      return true;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      // Another activation created this actor first: reload and redo. A clash on a unique view index is a refusal instead.
      if (await this.host.collection.findOne({ _id: next._id }, { projection: { _id: 1 } })) return false;
      throw new CommandRejectedError('DUPLICATE', `${this.address.kind} ${this.address.id} would duplicate an existing ${this.address.kind} (${error.key})`, 409);
    }
  }

  async #reload(): Promise<ActorDocument | null> {
    const doc = await this.host.collection.findOne({ _id: this.address.id });
    this.#setDoc(doc);
    return doc;
  }

  #setDoc(doc: ActorDocument | null): void {
    this.#doc = doc;
    if (doc) this.host.documentChanged(this, doc);
  }

  async #isStale(): Promise<boolean> {
    const stored = await this.host.collection.findOne({ _id: this.address.id }, { projection: { version: 1 } });
    return (stored?.version ?? 0) !== (this.#doc?.version ?? 0);
  }
}
