/**
 * Chain facts into actors. Actors subscribe to what they care about (an address's
 * USDC transfers, a deposit, an intent); this consumer reads the indexer's fact
 * stream from its saved cursor and asks each subscribed actor to take the fact,
 * with the fact's id as the message id, before it moves the cursor on. Delivery is
 * at least once: after a crash the facts since the last saved cursor come again,
 * with the same message ids, and the runtime applies each message id once.
 *
 * One reader per cluster: the reading runs as a singleton role of the actor system,
 * on the node holding the lease of the shard `chain-facts` hashes to, and stops when
 * that node loses the lease. The cursor only moves forward: each move is conditional
 * on the value read, and a reader that finds it moved re-reads it and resumes there.
 * A fact an actor cannot take after the retry policy becomes a dead letter (source
 * `fact`) so one broken actor does not stop the stream for everyone.
 *
 * The cursor counts in one fact log, named by its epoch. When the indexer serves another
 * log (rebuilt from scratch, or another indexer's), the cursor's sequence means nothing
 * there: the reader says so and starts over from the first fact, which actors take again
 * harmlessly (same fact ids, same message ids), rather than skip what lies below it.
 */
import type { ClientReadableStream, ServiceError } from '@grpc/grpc-js';
import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { ChainFact, type IndexerServiceClient, type StreamFactsResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';
import type { ActorAddress } from '../address.js';
import { decode, encode } from '../codec.js';
import { CommandRejectedError, DuplicateKeyError, UnknownActorError } from '../errors.js';
import type { ActorSystem } from '../runtime/actor-system.js';
import { deadLetterError } from '../runtime/dead-letters.js';
import { DEFAULT_RETRY_POLICY, afterFailure, type RetryPolicy } from '../runtime/retry-policy.js';
import type { Collection, Store } from '../store/store.js';
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

type CursorDoc = {
  _id: string;
  afterSequence: number;
  /** The log `afterSequence` counts in; empty (or absent, before epochs) until the first fact names it. */
  epoch?: string;
};

export interface ChainFactsOptions {
  system: ActorSystem;
  store: Store;
  client: IndexerServiceClient;
  logger: Logger;
  /** Backoff bounds when the stream fails. */
  minRetryMs?: number;
  maxRetryMs?: number;
  /** How long one fact's delivery to one actor is retried before it becomes a dead letter. */
  retryPolicy?: RetryPolicy;
}

const CURSOR_ID = 'chain-facts';
/** The singleton role's name: the reader runs on the holder of the shard this hashes to. */
export const CHAIN_FACTS_ROLE = 'chain-facts';

/** Another reader moved the cursor: resume from where it is now. */
class CursorMovedError extends Error {
  override readonly name = 'CursorMovedError';
}

export class ChainFacts {
  readonly #o: Required<ChainFactsOptions>;
  #subscriptions!: Collection<SubscriptionDoc>;
  #cursors!: Collection<CursorDoc>;
  #stream: ClientReadableStream<StreamFactsResponse> | null = null;
  #running = false;
  #done: Promise<void> = Promise.resolve();
  #stopRetry: (() => void) | null = null;
  #delivered = new Set<() => void>();
  #afterSequence = 0;
  #epoch = '';
  #role: { release(): Promise<void> } | null = null;

  constructor(options: ChainFactsOptions) {
    this.#o = { minRetryMs: 100, maxRetryMs: 5_000, retryPolicy: DEFAULT_RETRY_POLICY, ...options };
  }

  /** The last fact every subscriber has taken. */
  get afterSequence(): number {
    return this.#afterSequence;
  }

  /** Opens the subscriptions on this node, and reads facts while this node holds the role. */
  async start(): Promise<void> {
    this.#subscriptions = await this.#o.store.collection<SubscriptionDoc>({ name: 'chain_subscriptions', indexes: [] });
    this.#cursors = await this.#o.store.collection<CursorDoc>({ name: 'chain_cursors', indexes: [] });
    await this.#cursors.insertOne({ _id: CURSOR_ID, afterSequence: 0 }).catch((error: unknown) => {
      if (!(error instanceof DuplicateKeyError)) throw error;
    });
    this.#o.system.deadLetters.onRetry('fact', async (letter) => {
      const { owner, message, messageId } = decode<{ owner: ActorAddress; message: ChainFactMessage; messageId: string }>(letter.payload);
      await this.#o.system.ask(owner, message, { messageId });
    });
    this.#role = this.#o.system.singleton(CHAIN_FACTS_ROLE, { start: () => this.#read(), stop: () => this.#halt() });
  }

  async stop(): Promise<void> {
    await this.#role?.release();
    this.#role = null;
  }

  /** Whether this node is the one reading facts now. */
  get reading(): boolean {
    return this.#running;
  }

  async #read(): Promise<void> {
    // Another node may have read on while this one did not hold the role.
    const cursor = await this.#cursors.findOne({ _id: CURSOR_ID });
    this.#afterSequence = cursor?.afterSequence ?? 0;
    this.#epoch = cursor?.epoch ?? '';
    this.#running = true;
    this.#done = this.#consume();
  }

  async #halt(): Promise<void> {
    this.#running = false;
    this.#stream?.cancel();
    this.#stopRetry?.();
    await this.#done;
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

  /** Resolves once every fact up to `sequence` has been delivered. */
  delivered(sequence: number): Promise<void> {
    if (this.#afterSequence >= sequence) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.#afterSequence < sequence) return;
        this.#delivered.delete(check);
        resolve();
      };
      this.#delivered.add(check);
    });
  }

  async #consume(): Promise<void> {
    let failures = 0;
    while (this.#running) {
      try {
        await this.#follow();
        failures = 0;
      } catch (error) {
        if (!this.#running) break;
        if (error instanceof CursorMovedError) {
          this.#o.logger.warn({ afterSequence: this.#afterSequence }, error.message);
          continue;
        }
        if ((error as ServiceError).code === GrpcStatus.FAILED_PRECONDITION) {
          await this.#startOver((error as ServiceError).details);
          continue;
        }
        failures++;
        const code = (error as ServiceError).code;
        const level = code === GrpcStatus.UNAVAILABLE && failures < 3 ? 'debug' : 'warn';
        this.#o.logger[level]({ err: error, afterSequence: this.#afterSequence }, 'chain fact stream interrupted; resuming from the cursor');
        await this.#pause(Math.min(this.#o.maxRetryMs, this.#o.minRetryMs * 2 ** Math.min(failures, 10)));
      }
    }
  }

  /** One stream, until it fails or the consumer stops. Facts are handled one at a time, in order. */
  #follow(): Promise<void> {
    return new Promise((resolve, reject) => {
      const stream = this.#o.client.streamFacts({ afterSequence: BigInt(this.#afterSequence), logEpoch: this.#epoch });
      this.#stream = stream;
      let chain = Promise.resolve();
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        stream.cancel();
        reject(error);
      };
      stream.on('data', (response: StreamFactsResponse) => {
        stream.pause();
        chain = chain
          .then(() => this.#take(response.fact!))
          .then(
            () => void stream.resume(),
            (error: unknown) => fail(error),
          );
      });
      stream.on('error', (error: ServiceError) => {
        if (!this.#running && error.code === GrpcStatus.CANCELLED) return void chain.then(resolve);
        fail(error);
      });
      stream.on('end', () => void chain.then(() => (this.#running ? fail(new Error('the indexer ended the fact stream')) : resolve())));
    });
  }

  async #take(fact: ChainFact): Promise<void> {
    const sequence = Number(fact.sequence);
    if (sequence <= this.#afterSequence) return;
    const message: ChainFactMessage = { type: 'CHAIN_FACT', fact: ChainFact.toJSON(fact) };
    const messageId = fact.retracted ? `${fact.id}:retracted` : fact.id;
    for (const owner of await this.#owners(fact)) await this.#deliver(owner, message, messageId);
    const previous = this.#afterSequence;
    const epoch = this.#epoch || fact.logEpoch;
    if (!(await this.#cursors.updateOne({ _id: CURSOR_ID, afterSequence: previous }, { $set: { afterSequence: sequence, epoch } }))) {
      const stored = (await this.#cursors.findOne({ _id: CURSOR_ID }))?.afterSequence ?? 0;
      this.#afterSequence = Math.max(previous, stored);
      throw new CursorMovedError(`the chain-facts cursor moved from ${previous} to ${stored} under this reader; resuming from ${this.#afterSequence}`);
    }
    this.#afterSequence = sequence;
    this.#epoch = epoch;
    for (const check of [...this.#delivered]) check();
  }

  /** The indexer serves another log than the cursor counts in: back to its first fact. */
  async #startOver(reason: string): Promise<void> {
    const previous = this.#afterSequence;
    this.#o.logger.warn({ afterSequence: previous, epoch: this.#epoch, reason }, 'the indexer serves another fact log; reading it from the first fact');
    if (await this.#cursors.updateOne({ _id: CURSOR_ID, afterSequence: previous }, { $set: { afterSequence: 0, epoch: '' } })) {
      this.#afterSequence = 0;
      this.#epoch = '';
      return;
    }
    // Another reader moved the cursor meanwhile: resume from what it saved, which the next stream checks again.
    const stored = await this.#cursors.findOne({ _id: CURSOR_ID });
    this.#afterSequence = stored?.afterSequence ?? 0;
    this.#epoch = stored?.epoch ?? '';
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
        await this.#o.system.ask(owner, message, { messageId });
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
        if (!this.#running) throw error;
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
        await this.#pause(Math.max(0, decision.at - now));
      }
    }
  }

  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#stopRetry = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
