/**
 * What makes the in-process bus durable: its log and its consumers' positions kept in
 * the node's store, so an embedded node that is killed loses no event it has
 * published. An event is written before publish() resolves, and the outbox drops its
 * entry only after that, so an event a turn emitted is either in the journal or still
 * in the actor's outbox. Positions are written a moment after they move (and on stop):
 * after a crash a consumer may see the last few events again, which at-least-once
 * consumers take anyway.
 */
import type { DomainEvent } from './event-bus.js';
import { DuplicateKeyError } from '../errors.js';
import type { Collection, Store, StoredDocument } from '../store/store.js';
import { setOrInsert } from '../store/set-or-insert.js';

interface EventRow extends StoredDocument {
  _id: string;
  seq: number;
  event: DomainEvent;
}

interface PositionRow extends StoredDocument {
  _id: string;
  next: number;
}

export interface JournalContents {
  events: Array<{ seq: number; event: DomainEvent }>;
  positions: Map<string, number>;
}

/** How long a moved position waits before it is written, so a busy consumer writes a few times a second, not once an event. */
const POSITION_SAVE_DELAY_MS = 50;

export class BusJournal {
  readonly #pending = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly events: Collection<EventRow>,
    private readonly positions: Collection<PositionRow>,
  ) {}

  static async open(store: Store): Promise<BusJournal> {
    const events = await store.collection<EventRow>({ name: 'bus_events', indexes: [{ key: { seq: 1 }, unique: true, name: 'bus_events_by_seq' }] });
    const positions = await store.collection<PositionRow>({ name: 'bus_positions', indexes: [] });
    return new BusJournal(events, positions);
  }

  async load(): Promise<JournalContents> {
    const rows = await this.events.find({}, { sort: { seq: 1 } });
    const positions = new Map((await this.positions.find({})).map((row) => [row._id, row.next] as const));
    return { events: rows.map((row) => ({ seq: row.seq, event: row.event })), positions };
  }

  /**
   * Resolves once the event is stored. An id stored before (a republish after a crash) is
   * not stored twice. The event is handed off: the bus never changes what it logged.
   */
  async append(seq: number, event: DomainEvent): Promise<void> {
    try {
      await this.events.insertOne({ _id: event.id, seq, event }, { handOff: true });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }

  /** Forgets events before `seq`, the oldest the log keeps. */
  async trim(seq: number): Promise<void> {
    await this.events.deleteMany({ seq: { $lt: seq } });
  }

  /** Notes that `durable` will next take `next`; written shortly. */
  moved(durable: string, next: number): void {
    this.#pending.set(durable, next);
    if (this.#timer) return;
    this.#timer = setTimeout(() => void this.flush(), POSITION_SAVE_DELAY_MS);
    this.#timer.unref();
  }

  /** Writes every moved position now. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const moved = [...this.#pending];
    this.#pending.clear();
    // A failed write leaves the position behind, which costs only repeated deliveries; the next one may succeed.
    this.#saving = this.#saving.catch(() => undefined).then(() => this.#write(moved));
    await this.#saving;
  }

  async #write(moved: Array<[string, number]>): Promise<void> {
    for (const [durable, next] of moved) await setOrInsert(this.positions, durable, { next });
  }
}
