/**
 * The merchant event log: every webhook-type event of a merchant account, with the body
 * its webhooks are sent (payloads.ts), kept 30 days for reconciliation and for the
 * event stream a local listener resumes from.
 *
 * Each row gets a sequence number when it is recorded. Events reach the log in the
 * bus's order but their own times come from the actors' clocks (and a sandbox test
 * clock may run days ahead), so the order of recording, not `timestamp`, is what a
 * stream resumes by and what "newest first" means. Rows are written by the webhook
 * dispatcher, one event at a time on one node (a singleton), and the unique index on
 * `seq` keeps a dispatcher that took over from an old one from reusing a number.
 *
 * The retention is read from the node's clock: a row older than it is not listed from
 * that moment on, and is deleted by the next purge (at most an hour later, or when a
 * test clock is advanced). The store has no TTL index in its embedded form, so the
 * purge is a sweep over the index on `recordedAt`.
 */
import type { Clock } from '../clock.js';
import { DuplicateKeyError } from '../errors.js';
import type { Collection, Filter, Store, StoredDocument } from '../store/store.js';

export const MERCHANT_EVENTS_COLLECTION = 'merchant_events';
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
/** Recorders that collide on `seq` (a handover) read the newest again; more collisions than this is a fault. */
const SEQ_RETRIES = 5;

export interface NewEventRecord {
  /** The webhook event id (`evt_…`): receivers de-duplicate on it, and so does the log. */
  _id: string;
  merchantId: string;
  type: string;
  /** The order and payment the event is about, for the list's filters; null where it names none. */
  orderId: string | null;
  paymentId: string | null;
  /** The webhook body, as the dispatcher builds it. */
  payload: Record<string, unknown>;
}

export interface EventRecord extends NewEventRecord, StoredDocument {
  seq: number;
  /** When the node recorded it, by its clock: what the retention counts from. */
  recordedAt: number;
}

export interface EventFilter {
  merchantId: string;
  types?: readonly string[];
  orderId?: string;
  paymentId?: string;
}

/** Told when a row is recorded on this node, and when the log closes (the node stops). */
export interface EventWatcher {
  recorded(): void;
  closed(): void;
}

export class MerchantEventLog {
  #nextSeq: number | null = null;
  #purgedAt = Number.NEGATIVE_INFINITY;
  #closed = false;
  readonly #watchers = new Set<EventWatcher>();

  private constructor(
    private readonly rows: Collection<EventRecord>,
    private readonly clock: Pick<Clock, 'now'>,
    readonly retentionMs: number,
  ) {}

  static async open(store: Store, clock: Pick<Clock, 'now'>, retentionMs = EVENT_RETENTION_MS): Promise<MerchantEventLog> {
    const rows = await store.collection<EventRecord>({
      name: MERCHANT_EVENTS_COLLECTION,
      indexes: [
        { key: { seq: 1 }, unique: true, name: 'by_seq' },
        { key: { merchantId: 1, seq: -1 }, name: 'by_merchant' },
        { key: { merchantId: 1, type: 1, seq: -1 }, name: 'by_type' },
        { key: { merchantId: 1, orderId: 1, seq: -1 }, name: 'by_order' },
        { key: { merchantId: 1, paymentId: 1, seq: -1 }, name: 'by_payment' },
        { key: { recordedAt: 1 }, name: 'by_time' },
      ],
    });
    return new MerchantEventLog(rows, clock, retentionMs);
  }

  /** Records the event once and answers the row kept: a second delivery of the same id (the bus delivers at least once) gets the first row back, unchanged. */
  async record(event: NewEventRecord): Promise<EventRecord> {
    for (let attempt = 0; attempt <= SEQ_RETRIES; attempt++) {
      const seq = (this.#nextSeq ??= (await this.latestSeq()) + 1);
      const row: EventRecord = { ...event, seq, recordedAt: this.clock.now() };
      try {
        await this.rows.insertOne(row, { handOff: true });
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        // Either the event is recorded already, or another recorder took this number.
        const kept = await this.byId(event._id);
        if (kept) return kept;
        this.#nextSeq = null;
        continue;
      }
      this.#nextSeq = seq + 1;
      for (const watcher of this.#watchers) watcher.recorded();
      return row;
    }
    throw new Error(`event ${event._id}: no free sequence number after ${SEQ_RETRIES + 1} tries; is a second recorder running?`);
  }

  /** The row of an event, whoever's it is: for the recorder, never for an answer. */
  byId(eventId: string): Promise<EventRecord | null> {
    return this.rows.findOne({ _id: eventId });
  }

  /**
   * A page of the account's events, newest first, and how many match, counted up to
   * `countLimit` at most (a list caps its total rather than count every match).
   */
  async page(filter: EventFilter, { page, limit }: { page: number; limit: number }, countLimit: number): Promise<{ rows: EventRecord[]; counted: number }> {
    const query = this.#filter(filter);
    const [rows, counted] = await Promise.all([
      this.rows.find(query, { sort: { seq: -1 }, skip: (page - 1) * limit, limit }),
      this.rows.count(query, { limit: countLimit }),
    ]);
    return { rows, counted };
  }

  /** Up to `limit` of the account's events recorded after `seq`, oldest first: what a stream sends next. */
  after(filter: EventFilter, seq: number, limit: number): Promise<EventRecord[]> {
    return this.rows.find({ ...this.#filter(filter), seq: { $gt: seq } }, { sort: { seq: 1 }, limit });
  }

  /** One of the account's events still kept, or null: another account's id is as unknown as one never made. */
  one(merchantId: string, eventId: string): Promise<EventRecord | null> {
    return this.rows.findOne({ _id: eventId, merchantId, recordedAt: { $gte: this.#cutoff() } });
  }

  /** The newest sequence number recorded (0 for none): a stream with nothing to resume from starts after it. */
  async latestSeq(): Promise<number> {
    return (await this.rows.findOne({}, { sort: { seq: -1 }, projection: { seq: 1 } }))?.seq ?? 0;
  }

  /** Deletes the rows past the retention once an hour at most (by the node's clock); returns how many. */
  async purgeIfDue(): Promise<number> {
    const now = this.clock.now();
    if (now - this.#purgedAt < PURGE_EVERY_MS) return 0;
    this.#purgedAt = now;
    return this.rows.deleteMany({ recordedAt: { $lt: now - this.retentionMs } });
  }

  watch(watcher: EventWatcher): () => void {
    if (this.#closed) {
      watcher.closed();
      return () => {};
    }
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** Tells every watcher the node is stopping (a stream ends its answer); the rows stay. */
  close(): void {
    this.#closed = true;
    for (const watcher of this.#watchers) watcher.closed();
    this.#watchers.clear();
  }

  #cutoff(): number {
    return this.clock.now() - this.retentionMs;
  }

  #filter({ merchantId, types, orderId, paymentId }: EventFilter): Filter {
    const filter: Filter = { merchantId, recordedAt: { $gte: this.#cutoff() } };
    if (types?.length) filter.type = { $in: [...types] };
    if (orderId) filter.orderId = orderId;
    if (paymentId) filter.paymentId = paymentId;
    return filter;
  }
}
