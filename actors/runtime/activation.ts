/**
 * A live actor in this node's memory: its cached document and its mailbox. A turn
 * reads the cache (loading on first use), runs the pure turn, and saves the result
 * with one write conditional on the version it read and on the lease epoch it runs
 * under. Losing that write means another activation wrote first: drop the cache,
 * reload, redo the turn (ARCHITECTURE, Actors §3). A copy of a message already
 * queued or running joins that attempt instead of queueing again.
 *
 * Effects that have run are removed from the stored outbox by the actor's next write,
 * whatever writes it (a turn, a maintenance change, or `saveDone`), so running an
 * effect costs no write of its own. History records the history collection holds are
 * dropped from the document the same way, by whatever writes next.
 */
import type { ActorAddress } from '../address.js';
import type { Clock } from '../clock.js';
import { fromJson } from '../codec.js';
import { CommandRejectedError, ConflictError, DuplicateKeyError, ShardNotServedError, UnknownActorError } from '../errors.js';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.js';
import type { Collection, Filter } from '../store/store.js';
import { outboxFields, type ActorDocument, type OutboxEntry } from './actor-document.js';
import type { ActorKind } from './actor-kind.js';
import { Mailbox } from './mailbox.js';
import type { MessageLog } from './message-log.js';
import type { ActorMessage } from './messages.js';
import { clockOf } from './test-clock-time.js';
import { runTurn } from './turn.js';
import { recordsOf, type TurnRecord } from './turn-record.js';

const MAX_ATTEMPTS = 25;
/** Documents are values here: every change builds a new one, so the store may keep what it is given. */
const HAND_OFF = { handOff: true } as const;
const DEFAULT_INLINE_MESSAGES = 64;

/** The lease a write runs under: `enforced` is false where one node owns every shard and no other can write. */
export interface Fence {
  epoch: number;
  enforced: boolean;
}

export interface ActivationHost {
  clock: Clock;
  collection: Collection<ActorDocument>;
  shard: number;
  messages: MessageLog;
  metrics: RuntimeMetrics;
  /** The lease this node holds on the shard now; throws ShardNotServedError without a valid one. */
  fence(): Fence;
  /** The time of a test clock (test-clock-time.ts), which the turns of the actors attached to it run at. */
  clockTime(clockId: string): Promise<number>;
  /** Called whenever the cached document changes (load or write): schedules timers and effects. */
  documentChanged(activation: Activation, doc: ActorDocument): void;
  /** Called after every attempt to write the document, landed or not (a failed write may still have committed). */
  written(activation: Activation): void;
}

/** A maintenance change of the document outside the machine (effects done, retries recorded); null changes nothing. */
export type DocumentChange = (doc: ActorDocument) => ActorDocument | null;

export class Activation {
  readonly mailbox = new Mailbox();
  /** `undefined` until loaded; `null` when the actor has no document yet. */
  #doc: ActorDocument | null | undefined = undefined;
  readonly #inFlight = new Map<string, Promise<unknown>>();
  /** Ids of outbox entries that have run while the stored outbox still holds them. */
  readonly #done = new Set<string>();
  /** Ids of history records the history collection holds while the stored document still holds them. */
  readonly #recorded = new Set<string>();
  #retired = false;

  constructor(
    readonly kind: ActorKind,
    readonly address: ActorAddress,
    private readonly host: ActivationHost,
  ) {}

  get doc(): ActorDocument | null | undefined {
    return this.#doc;
  }

  /**
   * Set when the node drops this activation (its shard lost, or evicted): it never acts
   * again, even once the node holds the shard anew. A turn or drain still running on it
   * would otherwise act under the new lease beside the activation that replaces it,
   * each knowing only its own done effects, and run one effect twice under one lease.
   */
  retire(): void {
    this.#retired = true;
  }

  get retired(): boolean {
    return this.#retired;
  }

  /** The first outbox entry that has not run yet: effects run in order. */
  nextEffect(): OutboxEntry | undefined {
    return this.#doc?.outbox.find((entry) => !this.#done.has(entry.id));
  }

  /** Records that an entry has run; the next write of this actor removes it from the stored outbox. */
  markDone(entryId: string): void {
    this.#done.add(entryId);
  }

  /** Whether entries have run that the stored outbox still holds: this activation must not leave memory before saving that. */
  get hasUnsavedDone(): boolean {
    return this.#done.size > 0;
  }

  /** Writes the removal of the entries that have run, unless another write has carried it already. */
  async saveDone(): Promise<void> {
    await this.rewrite((doc) => {
      if (doc.outbox.some((entry) => this.#done.has(entry.id))) return doc;
      // None is stored any more (an earlier write that reported an error had landed): nothing is left to save.
      this.#done.clear();
      return null;
    });
  }

  /** The records the document holds that the history collection may not hold yet. */
  unrecorded(): TurnRecord[] {
    if (!this.#doc?.history?.length) return [];
    return recordsOf(this.#doc).filter((record) => !this.#recorded.has(record._id));
  }

  /** Notes that the history collection holds a record; the actor's next write drops it from the document. */
  markRecorded(recordId: string): void {
    this.#recorded.add(recordId);
  }

  deliver(message: ActorMessage): Promise<unknown> {
    const running = this.#inFlight.get(message.id);
    if (running) return running;
    const result = this.mailbox.run(() => this.#turn(message));
    this.#inFlight.set(message.id, result);
    const forget = () => this.#inFlight.delete(message.id);
    result.then(forget, forget);
    return result;
  }

  /** Loads the document if it is not cached, so pending effects and timers are picked up. */
  load(): Promise<ActorDocument | null> {
    return this.mailbox.run(async () => (this.#doc === undefined ? this.#reload() : this.#doc));
  }

  /**
   * Applies a maintenance change in a turn of its own, conditional like any turn, and
   * redone on the current document after a lost write. Resolves with the saved document.
   */
  rewrite(change: DocumentChange): Promise<ActorDocument | null> {
    return this.mailbox.run(async () => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const fence = this.#fence();
        const doc = this.#doc === undefined ? await this.#reload() : this.#doc;
        if (!doc) return null;
        const changed = change(doc);
        if (!changed) return doc;
        const { doc: folded, settles } = this.#withoutSettled(changed);
        const next: ActorDocument = { ...folded, version: doc.version + 1, epoch: fence.epoch, updatedAt: this.host.clock.now() };
        let landed;
        try {
          landed = await this.host.collection.replaceOne(this.#condition(doc, fence), next, HAND_OFF);
        } finally {
          this.host.written(this);
        }
        if (landed) {
          this.#settle(settles);
          this.#setDoc(next);
          return next;
        }
        await this.#lostWrite(fence, attempt);
      }
      throw new ConflictError(this.address.kind, this.address.id, MAX_ATTEMPTS);
    });
  }

  async #turn(message: ActorMessage): Promise<unknown> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const fence = this.#fence();
      const cached = this.#doc !== undefined;
      const doc = cached ? this.#doc! : await this.#reload();
      const clockId = clockOf(doc, message.event);
      const now = clockId ? await this.host.clockTime(clockId) : this.host.clock.now();
      const logged = doc?.messagesArchived && !doc.recentMessageIds.includes(message.id) ? await this.host.messages.reply(this.address, message.id, now) : null;
      if (logged !== null) {
        this.host.metrics.turn(this.address.kind, 'replayed');
        return fromJson(logged);
      }
      let outcome;
      try {
        outcome = runTurn({
          kind: this.kind,
          address: this.address,
          doc,
          message,
          now,
          shard: this.host.shard,
          epoch: fence.epoch,
          retentionMs: this.host.messages.retentionMs,
        });
      } catch (error) {
        // A refusal read from a cache another node has since overtaken would be wrong: check before answering.
        if (cached && (error instanceof CommandRejectedError || error instanceof UnknownActorError) && (await this.#isStale())) {
          this.#doc = undefined;
          continue;
        }
        this.host.metrics.turn(this.address.kind, error instanceof CommandRejectedError || error instanceof UnknownActorError ? 'rejected' : 'error');
        throw error;
      }
      if (outcome.type !== 'write') {
        if (cached && (await this.#isStale())) {
          this.#doc = undefined;
          continue;
        }
        if (outcome.type === 'replay') this.host.metrics.turn(this.address.kind, 'replayed');
        return outcome.type === 'replay' ? outcome.reply : null;
      }
      const { doc: next, settles } = this.#withoutSettled(await this.#archiveOldMessages(outcome.doc));
      if (await this.#save(doc, next, fence)) {
        this.#settle(settles);
        this.#setDoc(next);
        this.host.metrics.turn(this.address.kind, 'applied');
        return outcome.reply;
      }
      this.host.metrics.conflict(this.address.kind);
      await this.#lostWrite(fence, attempt);
    }
    throw new ConflictError(this.address.kind, this.address.id, MAX_ATTEMPTS);
  }

  /**
   * Past its inline capacity, the oldest half of a document's applied ids go to the
   * message log before the write that drops them: a crash in between leaves them in
   * both places, never in neither.
   */
  async #archiveOldMessages(doc: ActorDocument): Promise<ActorDocument> {
    const capacity = Math.max(2, this.kind.rememberedMessages ?? DEFAULT_INLINE_MESSAGES);
    if (doc.recentMessageIds.length <= capacity) return doc;
    const move = doc.recentMessageIds.length - Math.floor(capacity / 2);
    await this.host.messages.append(
      this.address,
      doc.recentMessageIds.slice(0, move).map((id, index) => ({ id, reply: doc.recentReplies[index]!, appliedAt: doc.recentAppliedAt[index]! })),
    );
    return {
      ...doc,
      recentMessageIds: doc.recentMessageIds.slice(move),
      recentReplies: doc.recentReplies.slice(move),
      recentAppliedAt: doc.recentAppliedAt.slice(move),
      messagesArchived: true,
    };
  }

  /**
   * `doc` without the entries that have run and the history records already inserted,
   * and the ids whose removal it carries once written.
   */
  #withoutSettled(doc: ActorDocument): { doc: ActorDocument; settles: string[] } {
    if (this.#done.size === 0 && this.#recorded.size === 0) return { doc, settles: [] };
    const settles = [...this.#done, ...this.#recorded];
    let next = doc;
    const outbox = doc.outbox.filter((entry) => !this.#done.has(entry.id));
    if (outbox.length !== doc.outbox.length) next = { ...next, ...outboxFields(outbox) };
    const history = doc.history?.filter((record) => !this.#recorded.has(record._id));
    if (history && history.length !== doc.history!.length) next = { ...next, history };
    return { doc: next, settles };
  }

  /** After a write landed: entries marked done, or records inserted, while it was in flight are still to be removed. */
  #settle(ids: readonly string[]): void {
    for (const id of ids) {
      this.#done.delete(id);
      this.#recorded.delete(id);
    }
  }

  /** The lease to act under: none once retired, whatever the node holds now. */
  #fence(): Fence {
    if (this.#retired) throw new ShardNotServedError(this.host.shard);
    return this.host.fence();
  }

  #condition(previous: ActorDocument, fence: Fence): Filter {
    const condition: Filter = { _id: previous._id, version: previous.version };
    // A document last written under a newer lease belongs to that lease's holder.
    if (fence.enforced) condition.epoch = { $not: { $gt: fence.epoch } };
    return condition;
  }

  async #save(previous: ActorDocument | null, next: ActorDocument, fence: Fence): Promise<boolean> {
    try {
      if (previous) return await this.host.collection.replaceOne(this.#condition(previous, fence), next, HAND_OFF);
      try {
        await this.host.collection.insertOne(next, HAND_OFF);
        return true;
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        // Another activation created this actor first: reload and redo. A clash on a unique view index is a refusal instead.
        if (await this.host.collection.findOne({ _id: next._id }, { projection: { _id: 1 } })) return false;
        throw new CommandRejectedError(
          'DUPLICATE',
          `${this.address.kind} ${this.address.id} would duplicate an existing ${this.address.kind} (${error.key})`,
          null,
          { cause: error },
        );
      }
    } catch (error) {
      // The write may have committed although it reported an error: nothing cached can be trusted now.
      this.#doc = undefined;
      throw error;
    } finally {
      this.host.written(this);
    }
  }

  /** After a write lost its condition: reload, and stop if a newer lease has written the document. */
  async #lostWrite(fence: Fence, attempt: number): Promise<void> {
    this.#doc = undefined;
    // Two writers that lost to each other would otherwise retry in lockstep and can keep losing (a store that answers
    // without I/O makes that exact): from the second loss on, each waits a random few milliseconds, growing with the losses.
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempt, 100)));
    const current = await this.#reload();
    if (fence.enforced && current && current.epoch > fence.epoch) throw new ShardNotServedError(this.host.shard);
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
