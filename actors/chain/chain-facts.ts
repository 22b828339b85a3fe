/**
 * Chain facts into actors. Actors subscribe to what they care about (an address's
 * USDC transfers, a deposit, an intent); this consumer reads the indexer's fact
 * stream from its saved cursor and asks each subscribed actor to take the fact,
 * with the fact's id as the message id, before it moves the cursor on. Delivery is
 * at least once: after a crash the facts since the last saved cursor come again,
 * with the same message ids, and the runtime applies each message id once.
 *
 * One reader per cluster, with the cursor and log-epoch rules of fact-follower.ts. A
 * new log is read from its first fact, which actors take again harmlessly (same fact
 * ids, same message ids). A fact an actor cannot take after the retry policy becomes a
 * dead letter (source `fact`) so one broken actor does not stop the stream for everyone.
 */
import { Metadata } from '@grpc/grpc-js';
import { ChainFact } from '../../proto/gen/peer/indexer/v1/indexer.js';
import type { ActorAddress } from '../address.js';
import { decode, encode } from '../codec.js';
import { CommandRejectedError, DuplicateKeyError, UnknownActorError } from '../errors.js';
import { FactFollower } from './fact-follower.js';
import type { FactReadModelOptions } from './fact-read-model.js';
import { deadLetterError } from '../runtime/dead-letters.js';
import { DEFAULT_RETRY_POLICY, afterFailure, type RetryPolicy } from '../runtime/retry-policy.js';
import type { Collection } from '../store/store.js';
import { subjectKey, subjectsOf, type ChainSubject } from '../../proto/fact-subjects.js';
import { withDeadline } from '../grpc-call.js';

export { subjectsOf, type ChainSubject };

/** What an actor receives: the fact in its proto JSON form (plain data, amounts as strings). */
export type ChainFactMessage = {
  type: 'CHAIN_FACT';
  fact: ReturnType<typeof ChainFact.toJSON>;
};

type SubscriptionDoc = {
  _id: string;
  owners: ActorAddress[];
};

export interface ChainFactsOptions extends FactReadModelOptions {
  /** How long one fact's delivery to one actor is retried before it becomes a dead letter. */
  retryPolicy?: RetryPolicy;
}

/** The singleton role's name (the reader runs on the holder of the shard this hashes to), and its cursor's id. */
export const CHAIN_FACTS_ROLE = 'chain-facts';

export class ChainFacts {
  readonly #o: Required<ChainFactsOptions>;
  readonly #follower: FactFollower;
  #subscriptions!: Collection<SubscriptionDoc>;

  constructor(options: ChainFactsOptions) {
    this.#o = { minRetryMs: 100, maxRetryMs: 5_000, retryPolicy: DEFAULT_RETRY_POLICY, ...options };
    this.#follower = new FactFollower({
      name: CHAIN_FACTS_ROLE,
      cursorCollection: 'chain_cursors',
      system: options.system,
      store: options.store,
      client: options.client,
      logger: options.logger,
      take: (fact) => this.#take(fact),
      minRetryMs: this.#o.minRetryMs,
      maxRetryMs: this.#o.maxRetryMs,
    });
  }

  /** The last fact every subscriber has taken. */
  get afterSequence(): number {
    return this.#follower.afterSequence;
  }

  /** Opens the subscriptions on this node, and reads facts while this node holds the role. */
  async start(): Promise<void> {
    this.#subscriptions = await this.#o.store.collection<SubscriptionDoc>({ name: 'chain_subscriptions', indexes: [] });
    this.#o.system.deadLetters.onRetry('fact', async (letter) => {
      const { owner, message, messageId } = decode<{ owner: ActorAddress; message: ChainFactMessage; messageId: string }>(letter.payload);
      await this.#o.system.askAt(owner, message, { messageId });
    });
    await this.#follower.start();
  }

  stop(): Promise<void> {
    return this.#follower.stop();
  }

  /** Whether this node is the one reading facts now. */
  get reading(): boolean {
    return this.#follower.reading;
  }

  /** Resolves once every fact up to `sequence` has been delivered. */
  delivered(sequence: number): Promise<void> {
    return this.#follower.delivered(sequence);
  }

  /**
   * Sends `owner` every fact about `subject` from now on. An address is also
   * registered with the indexer, from `fromBlock` when given.
   */
  async subscribe(subject: ChainSubject, owner: ActorAddress, fromBlock = 0): Promise<void> {
    const key = subjectKey(subject);
    const entry = { kind: owner.kind, id: owner.id };
    // One conditional update adds the owner unless present, so concurrent subscribers cannot overwrite each other.
    const join = () => this.#subscriptions.updateOne({ _id: key, owners: { $not: { $elemMatch: entry } } }, { $push: { owners: entry } });
    if (!(await join()) && !(await this.#subscriptions.findOne({ _id: key }))) {
      await this.#subscriptions.insertOne({ _id: key, owners: [entry] }).catch(async (error: unknown) => {
        // Another subscriber created the subject first: join it.
        if (!(error instanceof DuplicateKeyError)) throw error;
        await join();
      });
    }
    if ('address' in subject) {
      const request = { addresses: [subject.address], fromBlock: BigInt(fromBlock) };
      await withDeadline((options, done) => this.#o.client.watchAddresses(request, new Metadata(), options, done));
    }
  }

  async #take(fact: ChainFact): Promise<void> {
    const message: ChainFactMessage = { type: 'CHAIN_FACT', fact: ChainFact.toJSON(fact) };
    const messageId = fact.retracted ? `${fact.id}:retracted` : fact.id;
    for (const owner of await this.#owners(fact)) await this.#deliver(owner, message, messageId);
  }

  async #owners(fact: ChainFact): Promise<ActorAddress[]> {
    const keys = subjectsOf(fact).map(subjectKey);
    if (keys.length === 0) return [];
    const docs = await this.#subscriptions.find({ _id: { $in: keys } });
    const unique = new Map<string, ActorAddress>();
    for (const doc of docs) for (const owner of doc.owners) unique.set(`${owner.kind}/${owner.id}`, owner);
    return [...unique.values()];
  }

  /**
   * Retries until the actor has taken or refused the fact, or the retry policy gives
   * up: then the fact becomes a dead letter an operator can retry, and the stream moves on.
   */
  async #deliver(owner: ActorAddress, message: ChainFactMessage, messageId: string): Promise<void> {
    const firstAttemptAt = this.#o.system.clock.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#o.system.askAt(owner, message, { messageId });
        return;
      } catch (error) {
        if (error instanceof CommandRejectedError) {
          this.#o.logger.debug({ owner, messageId, code: error.code }, 'an actor refused a chain fact');
          return;
        }
        if (error instanceof UnknownActorError) {
          this.#o.logger.warn({ owner, messageId }, 'a chain fact names an actor that does not exist; dropped');
          return;
        }
        if (!this.#follower.reading) throw error;
        const now = this.#o.system.clock.now();
        const decision = afterFailure(this.#o.retryPolicy, attempt, firstAttemptAt, now);
        if (!decision.retry) {
          await this.#o.system.deadLetters.add({
            key: `fact:${messageId}:${owner.kind}:${owner.id}`,
            source: 'fact',
            actor: owner,
            consumer: null,
            payload: encode({ owner, message, messageId }),
            error: deadLetterError(error),
            attempts: attempt,
            firstAttemptAt,
          });
          return;
        }
        this.#o.logger.warn({ err: error, owner, messageId, attempt }, 'chain fact delivery failed; retrying');
        await this.#follower.wait(Math.max(0, decision.at - now));
      }
    }
  }
}
