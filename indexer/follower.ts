/**
 * Follows the chain block by block, a confirmed range at a time, and appends what
 * it decodes to the fact log. It is the log's only writer: every write (a range, a
 * re-organisation, a backfill) runs in turn on one queue, so sequences are dense
 * and in order.
 *
 * What it reads comes from log-reader.ts: filtered at the RPC, in halves where a
 * provider refuses a range, never from a backend behind the chain.
 *
 * Re-organisations: before each range the follower checks that the block it stopped
 * at is still on the chain. When it is not, it walks back over the blocks it
 * remembers to the last one still there, retracts every fact above it (a new fact
 * with `retracted` set, under a new sequence) and resumes from there.
 */
import { randomUUID } from 'node:crypto';
import { BlockNotFoundError, getAddress, type Address, type Hash, type Log, type PublicClient } from 'viem';
import type { Logger } from 'pino';
import { ChainFact } from '../proto/gen/peer/indexer/v1/indexer.js';
import { decodeProtocolLog, decodeTransferLog, type FactEvent } from './events.js';
import type { BackfillDocument, BlockMark, CursorDocument, FactDocument, IndexerCollections } from './fact-store.js';
import { subjectKey, subjectsOf } from '../proto/fact-subjects.js';
import type { ChainContracts } from './chain-contracts.js';
import { LogReader } from './log-reader.js';

export type { ChainContracts } from './chain-contracts.js';

export interface FollowerOptions {
  client: PublicClient;
  contracts: ChainContracts;
  collections: IndexerCollections;
  logger: Logger;
  /** First block to read when the log is empty. */
  startBlock: number;
  /** Blocks on top of a block before its facts are taken (0: the head counts), when `finality` is `confirmations`. */
  confirmations: number;
  /** Up to which block facts are taken: `confirmations` under the head, or the chain's `safe` or `finalized` block. */
  finality: Finality;
  /** Most blocks read in one range. */
  batchBlocks: number;
  pollMs: number;
  /** How many processed blocks are remembered: the deepest re-organisation handled. */
  reorgDepth: number;
  /** Blocks the cursor may trail the confirmed head by before the follower reports itself not serving. */
  maxLagBlocks: number;
}

/** Whether the follower keeps the log current, and if not, why. */
export interface FollowerHealth {
  serving: boolean;
  reason: string | null;
  /** Confirmed blocks not read yet. */
  lagBlocks: number;
}

/** Steps failing in a row after which the log is reported stale. */
const FAILURES_BEFORE_NOT_SERVING = 3;

export type Finality = 'confirmations' | 'safe' | 'finalized';

export class ReorgTooDeepError extends Error {
  override readonly name = 'ReorgTooDeepError';
}

const CURSOR_ID = 'cursor';

export class Follower {
  readonly #o: FollowerOptions;
  readonly #reader: LogReader;
  readonly #listeners = new Set<() => void>();
  readonly #healthListeners = new Set<(health: FollowerHealth) => void>();
  #cursor!: CursorDocument;
  /** Why the loop ended for good; null while it runs. */
  #stoppedBy: string | null = null;
  #failures = 0;
  #lastError = '';
  #health: FollowerHealth = { serving: true, reason: null, lagBlocks: 0 };
  /** Whether a backfill job may be running: so at first (a previous run may have left one) and after a watch starts one; cleared when none is found. */
  #backfilling = true;
  /** Lower-case, so filtering a range's transfers costs no checksum per log. */
  #watched = new Set<string>();
  #queue: Promise<unknown> = Promise.resolve();
  #running = false;
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;
  #head = 0;
  /** The last block whose facts may be taken now. */
  #target = 0;
  /**
   * The highest block any fact in the log comes from. A log above it cannot be in the
   * log yet, so only logs at or below it (a restart's leftovers, a re-read after a
   * fork, a backfill) are looked up before they are appended.
   */
  #highestLogged = -1;

  constructor(options: FollowerOptions) {
    this.#o = options;
    this.#reader = new LogReader(options.client, options.contracts, options.logger);
  }

  get cursor(): BlockMark {
    return this.#cursor.block;
  }

  /** The fact log's identity: every sequence counts in it. */
  get epoch(): string {
    return this.#cursor.epoch!;
  }

  get lastSequence(): number {
    return this.#cursor.lastSequence;
  }

  get head(): number {
    return this.#head;
  }

  health(): FollowerHealth {
    return this.#health;
  }

  /** Called whenever the follower starts or stops serving. */
  onHealthChange(listener: (health: FollowerHealth) => void): () => void {
    this.#healthListeners.add(listener);
    return () => this.#healthListeners.delete(listener);
  }

  /** Called after each write that appended facts. */
  onAppend(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async start(): Promise<void> {
    const { collections } = this.#o;
    const saved = await collections.state.findOne({ _id: CURSOR_ID });
    if (saved?.epoch) {
      this.#cursor = saved;
    } else if (saved) {
      this.#cursor = { ...saved, epoch: randomUUID() };
      await collections.state.replaceOne({ _id: CURSOR_ID }, this.#cursor);
    } else {
      this.#cursor = { _id: CURSOR_ID, block: { number: this.#o.startBlock - 1, hash: '' }, lastSequence: 0, recent: [], epoch: randomUUID() };
      await collections.state.insertOne(this.#cursor);
    }
    // A run that stopped between a fact and the cursor save took sequences the cursor does not know of.
    const lastStored = (await collections.facts.findOne({}, { sort: { sequence: -1 } }))?.sequence ?? 0;
    this.#cursor.lastSequence = Math.max(this.#cursor.lastSequence, lastStored);
    for (const doc of await collections.watched.find({})) this.#watched.add(doc._id.toLowerCase());
    this.#highestLogged = (await collections.facts.findOne({}, { sort: { blockNumber: -1 } }))?.blockNumber ?? -1;
    await this.#serial(() => this.#retractLeftovers());
    await this.#fileUnderSubjects();
    this.#running = true;
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
    await this.#queue.catch(() => {});
  }

  /** Reads whatever is confirmed now, without waiting for the next poll. */
  poke(): void {
    this.#wake?.();
  }

  /**
   * Watches these addresses' USDC transfers from the next block on, at once, and when
   * `fromBlock` is below the cursor starts a backfill job for their past transfers from
   * there: the answer does not wait for it. An address watched already but from a later
   * block is backfilled down to `fromBlock` too. The job runs beside live following, a
   * batch at a time on the log's one queue, with its own cursor, so a crash resumes it
   * where it was; an address's `fromBlock` is lowered only once its job is done.
   */
  watch(addresses: readonly string[], fromBlock: number): Promise<{ added: Address[]; backfill: BackfillDocument | null }> {
    return this.#serial(async () => {
      const { watched, backfills } = this.#o.collections;
      const cursor = this.#cursor.block.number;
      const from = Math.max(fromBlock || cursor + 1, this.#o.startBlock);
      const added: Address[] = [];
      const behind: Address[] = [];
      // A running job that reads an address from `from` or earlier already: a second would read the same blocks again.
      const running = await backfills.find({ status: 'RUNNING', fromBlock: { $lte: from } });
      const covered = new Set(running.flatMap((job) => job.addresses));
      for (const address of new Set(addresses.map((candidate) => getAddress(candidate)))) {
        const known = await watched.findOne({ _id: address });
        if (!known) {
          await watched.insertOne({ _id: address, fromBlock: cursor + 1 });
          this.#watched.add(address.toLowerCase());
          added.push(address);
        }
        if (from < (known?.fromBlock ?? cursor + 1) && !covered.has(address)) behind.push(address);
      }
      if (behind.length === 0) return { added, backfill: null };
      const backfill: BackfillDocument = {
        _id: `bf_${randomUUID()}`,
        addresses: behind,
        fromBlock: from,
        toBlock: cursor,
        nextBlock: from,
        status: 'RUNNING',
        createdAt: Date.now(),
      };
      await backfills.insertOne(backfill);
      this.#backfilling = true;
      this.#wake?.();
      return { added, backfill };
    });
  }

  /** A backfill job as it stands, or null when there is none of that id. */
  backfill(id: string): Promise<BackfillDocument | null> {
    return this.#o.collections.backfills.findOne({ _id: id });
  }

  isWatched(address: string): boolean {
    return this.#watched.has(address.toLowerCase());
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let more = false;
      try {
        more = await this.#serial(() => this.#step());
        // A backfill batch between live steps: neither waits long for the other.
        if (await this.#serial(() => this.#backfillStep())) more = true;
        this.#failures = 0;
      } catch (error) {
        this.#failures++;
        this.#lastError = error instanceof Error ? error.message.split('\n')[0]! : String(error);
        this.#o.logger.error({ err: error }, 'indexer step failed; retrying after the poll interval');
        if (error instanceof ReorgTooDeepError) {
          this.#running = false;
          this.#stoppedBy = error.message;
        }
      }
      this.#assessHealth();
      if (!more && this.#running) await this.#sleep();
    }
  }

  /** Serving unless the loop stopped, steps keep failing, or the cursor trails the confirmed head by more than allowed. */
  #assessHealth(): void {
    const lagBlocks = Math.max(0, this.#target - this.#cursor.block.number);
    let reason: string | null = null;
    if (this.#stoppedBy) reason = `stopped: ${this.#stoppedBy}`;
    else if (this.#failures >= FAILURES_BEFORE_NOT_SERVING) reason = `${this.#failures} reads failed in a row: ${this.#lastError}`;
    else if (lagBlocks > this.#o.maxLagBlocks) reason = `${lagBlocks} confirmed blocks behind the chain (at most ${this.#o.maxLagBlocks})`;
    const next = { serving: reason === null, reason, lagBlocks };
    // Listeners and the log hear of a change of state, not of every block a lagging follower catches up.
    const changed = next.serving !== this.#health.serving;
    this.#health = next;
    if (!changed) return;
    if (next.serving) this.#o.logger.info({ lagBlocks }, 'indexer serving again');
    else this.#o.logger.error({ reason, lagBlocks }, 'indexer not serving');
    for (const listener of this.#healthListeners) listener(next);
  }

  #sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.#o.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = null;
        done();
      };
    });
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work);
    this.#queue = next.catch(() => {});
    return next;
  }

  /** One range, or one re-organisation. Says whether there is more to read at once. */
  async #step(): Promise<boolean> {
    const { client, confirmations, batchBlocks, finality } = this.#o;
    this.#head = Number(await client.getBlockNumber({ cacheTime: 0 }));
    const target = finality === 'confirmations' ? this.#head - confirmations : Number((await client.getBlock({ blockTag: finality })).number);
    this.#target = target;
    const cursor = this.#cursor.block;
    if (cursor.hash !== '' && (await this.#hashAt(cursor.number)) !== cursor.hash) {
      await this.#unwind();
      return true;
    }
    if (cursor.number >= target) return false;
    const from = cursor.number + 1;
    const to = Math.min(target, cursor.number + batchBlocks);
    const last = await client.getBlock({ blockNumber: BigInt(to) });
    const logs = await this.#logs(from, to);
    await this.#reader.checkAgainstBlooms(from, last, logs, this.#head);
    // A range read across a re-organisation mixes two chains; the next step finds the fork.
    if ((await this.#hashAt(cursor.number)) !== cursor.hash && cursor.hash !== '') return true;
    if ((await this.#hashAt(to)) !== last.hash) return true;
    await this.#append(logs, { number: to, hash: last.hash! });
    return to < target;
  }

  async #hashAt(number: number): Promise<string | null> {
    if (number < 0) return null;
    try {
      return (await this.#o.client.getBlock({ blockNumber: BigInt(number) })).hash;
    } catch (error) {
      // Only a block the node does not have is gone; a timeout or a refusal fails the step, which is tried again.
      if (error instanceof BlockNotFoundError) return null;
      throw error;
    }
  }

  #logs(from: number, to: number): Promise<Log[]> {
    return this.#reader.range(from, to, [...this.#watched] as Address[]);
  }

  async #append(logs: Log[], through: BlockMark | null): Promise<void> {
    const sorted = [...logs].sort((a, b) => Number(a.blockNumber! - b.blockNumber!) || a.logIndex! - b.logIndex!);
    const timestamps = new Map<bigint, bigint>();
    const marks = new Map<number, string>();
    // A backfill reads a transfer between two watched addresses twice, as sent and as received.
    const seen = new Set<string>();
    const knownThrough = this.#highestLogged;
    let appended = 0;
    for (const log of sorted) {
      const event = this.#decode(log);
      if (!event) continue;
      const logId = `${this.#o.contracts.chainId}:${log.blockHash}:${log.logIndex}`;
      marks.set(Number(log.blockNumber), log.blockHash!);
      if (seen.has(logId)) continue;
      seen.add(logId);
      const id = Number(log.blockNumber) <= knownThrough ? await this.#appearanceId(logId) : logId;
      if (id === null) continue;
      const fact: ChainFact = {
        sequence: 0n,
        id,
        chainId: BigInt(this.#o.contracts.chainId),
        blockNumber: log.blockNumber!,
        blockHash: log.blockHash!,
        transactionHash: log.transactionHash!,
        logIndex: log.logIndex!,
        contract: getAddress(log.address),
        blockTimestamp: await this.#timestamp(log, timestamps),
        retracted: false,
        // Stamped when streamed: the log, not the fact, has the identity.
        logEpoch: '',
        event,
      };
      await this.#insert(id, fact, false);
      appended++;
    }
    const recent = [...this.#cursor.recent, ...[...marks].map(([number, hash]) => ({ number, hash }))];
    if (through) recent.push(through);
    await this.#saveCursor(through ?? this.#cursor.block, recent);
    if (appended > 0) this.#notify();
  }

  /**
   * The fact id for a log that may be in the log already: null while an appearance of it
   * stands. A chain can fork away from a block and later come back to the very same
   * block; its logs were retracted meanwhile, so they appear again, under an id of their
   * own (`<log id>#2`, `#3`, …) that consumers have not seen.
   */
  async #appearanceId(logId: string): Promise<string | null> {
    for (let appearance = 1; ; appearance++) {
      const id = appearance === 1 ? logId : `${logId}#${appearance}`;
      const doc = await this.#o.collections.facts.findOne({ _id: id });
      if (!doc) return id;
      if (!doc.retracted) return null;
    }
  }

  #decode(log: Log): FactEvent | null {
    const address = getAddress(log.address);
    if (address === this.#o.contracts.usdc) return decodeTransferLog(log);
    return decodeProtocolLog(log);
  }

  async #timestamp(log: Log, cache: Map<bigint, bigint>): Promise<bigint> {
    const fromLog = (log as Log & { blockTimestamp?: bigint | `0x${string}` }).blockTimestamp;
    if (fromLog !== undefined && fromLog !== null) return BigInt(fromLog);
    const number = log.blockNumber!;
    let timestamp = cache.get(number);
    if (timestamp === undefined) {
      timestamp = (await this.#o.client.getBlock({ blockHash: log.blockHash as Hash })).timestamp;
      cache.set(number, timestamp);
    }
    return timestamp;
  }

  async #insert(id: string, fact: ChainFact, isRetraction: boolean): Promise<void> {
    const sequence = this.#cursor.lastSequence + 1;
    const stored: ChainFact = { ...fact, sequence: BigInt(sequence) };
    const transfer = fact.event?.$case === 'usdcTransfer' ? fact.event.value : null;
    const doc: FactDocument = {
      _id: id,
      sequence,
      blockNumber: Number(fact.blockNumber),
      blockHash: fact.blockHash,
      retracted: false,
      isRetraction,
      ...(transfer && !isRetraction ? { from: transfer.from.toLowerCase(), to: transfer.to.toLowerCase() } : {}),
      subjects: subjectsOf(fact).map(subjectKey),
      fact: ChainFact.toJSON(stored),
    };
    await this.#o.collections.facts.insertOne(doc);
    this.#highestLogged = Math.max(this.#highestLogged, doc.blockNumber);
    // The sequence is taken once the fact is in; after a crash before the cursor is saved, start() finds it in the log.
    this.#cursor.lastSequence = sequence;
  }

  async #saveCursor(block: BlockMark, recent: BlockMark[]): Promise<void> {
    const floor = block.number - this.#o.reorgDepth;
    const kept = new Map<number, string>();
    // The newest mark at or below the floor stays too: marks are only range ends and blocks with
    // logs, so after a range longer than reorgDepth it is the only one a shallow fork leaves standing.
    let below: BlockMark | null = null;
    for (const mark of recent) {
      if (mark.number > block.number) continue;
      if (mark.number > floor) kept.set(mark.number, mark.hash);
      else if (!below || mark.number >= below.number) below = mark;
    }
    if (below) kept.set(below.number, below.hash);
    const next: CursorDocument = {
      _id: CURSOR_ID,
      block,
      lastSequence: this.#cursor.lastSequence,
      recent: [...kept].sort(([a], [b]) => a - b).map(([number, hash]) => ({ number, hash })),
      epoch: this.#cursor.epoch!,
    };
    await this.#o.collections.state.replaceOne({ _id: CURSOR_ID }, next);
    this.#cursor = next;
  }

  /** The cursor's block is gone: back to the last remembered block still on the chain, retracting what lies above. */
  async #unwind(): Promise<void> {
    let ancestor: BlockMark | null = null;
    for (const mark of [...this.#cursor.recent].reverse()) {
      if ((await this.#hashAt(mark.number)) === mark.hash) {
        ancestor = mark;
        break;
      }
    }
    if (!ancestor) {
      const oldest = this.#cursor.recent[0]?.number ?? this.#cursor.block.number;
      if (oldest > this.#o.startBlock)
        throw new ReorgTooDeepError(`the chain forked below block ${oldest}, deeper than the ${this.#o.reorgDepth} blocks remembered`);
      ancestor = { number: this.#o.startBlock - 1, hash: '' };
    }
    const retracted = await this.#retractAbove(ancestor.number, () => true);
    this.#o.logger.warn({ forkedAfter: ancestor.number, from: this.#cursor.block.number, retracted }, 'chain re-organisation: facts above the fork retracted');
    await this.#saveCursor(
      ancestor,
      this.#cursor.recent.filter((mark) => mark.number <= ancestor.number),
    );
  }

  /** Retracts, newest first, the facts above `number` that `shouldRetract` picks. */
  async #retractAbove(number: number, shouldRetract: (doc: FactDocument) => boolean | Promise<boolean>): Promise<number> {
    const docs = await this.#o.collections.facts.find({ blockNumber: { $gt: number }, isRetraction: false, retracted: false }, { sort: { sequence: -1 } });
    let count = 0;
    for (const doc of docs) {
      if (!(await shouldRetract(doc))) continue;
      const original = ChainFact.fromJSON(doc.fact);
      const id = `${doc._id}:retracted`;
      // A run that stopped before marking the fact wrote its retraction already.
      if (!(await this.#o.collections.facts.findOne({ _id: id }))) await this.#insert(id, { ...original, retracted: true }, true);
      await this.#o.collections.facts.updateOne({ _id: doc._id }, { $set: { retracted: true } });
      count++;
    }
    if (count > 0) {
      await this.#saveCursor(this.#cursor.block, this.#cursor.recent);
      this.#notify();
    }
    return count;
  }

  /**
   * Facts above the cursor were written by a run that stopped before saving it. The
   * ones still on the chain will be read again and kept (same ids); the others are
   * retracted now, as nothing else would.
   */
  async #retractLeftovers(): Promise<void> {
    const hashes = new Map<number, string | null>();
    await this.#retractAbove(this.#cursor.block.number, async (doc) => {
      if (!hashes.has(doc.blockNumber)) hashes.set(doc.blockNumber, await this.#hashAt(doc.blockNumber));
      return hashes.get(doc.blockNumber) !== doc.blockHash;
    });
  }

  /** Facts written before facts were filed under their subjects get their subjects, a page at a time. */
  async #fileUnderSubjects(): Promise<void> {
    const { facts } = this.#o.collections;
    for (;;) {
      const page = await facts.find({ subjects: { $exists: false } }, { limit: 500 });
      if (page.length === 0) return;
      for (const doc of page) await facts.updateOne({ _id: doc._id }, { $set: { subjects: subjectsOf(ChainFact.fromJSON(doc.fact)).map(subjectKey) } });
    }
  }

  /** One batch of the oldest running backfill: its facts, then its cursor. Says whether a backfill has more to do. */
  async #backfillStep(): Promise<boolean> {
    // Asked between every two live steps: the store is read only while some job may run.
    if (!this.#backfilling) return false;
    const { backfills, watched } = this.#o.collections;
    const [job] = await backfills.find({ status: 'RUNNING' }, { sort: { createdAt: 1 }, limit: 1 });
    if (!job) return (this.#backfilling = false);
    const to = Math.min(job.toBlock, job.nextBlock + this.#o.batchBlocks - 1);
    // A crash after these facts and before the job's cursor re-reads the batch; #append keeps one of each.
    if (job.nextBlock <= to) await this.#append(await this.#reader.transfersOf(job.addresses as Address[], job.nextBlock, to), null);
    const done = to >= job.toBlock;
    await backfills.updateOne({ _id: job._id }, { $set: { nextBlock: to + 1, status: done ? 'DONE' : 'RUNNING' } });
    if (!done) return true;
    for (const address of job.addresses) {
      const known = await watched.findOne({ _id: address });
      if (known && job.fromBlock < known.fromBlock) await watched.updateOne({ _id: address }, { $set: { fromBlock: job.fromBlock } });
    }
    this.#o.logger.info({ backfill: job._id, addresses: job.addresses.length, fromBlock: job.fromBlock, toBlock: job.toBlock }, 'backfill done');
    return true;
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}
