/**
 * The actors worth a look when nobody has an id (docs/inspector.md, "The watchlist").
 * Each list is read through an index, except stuck:
 *
 * - recent: the history collection's latest rows (index by time), one row per actor;
 * - due timers: per kind, the documents with a timer (`nextTimerAt`), soonest first;
 * - failing effects: per kind, the documents with a pending outbox (`outboxPending`)
 *   whose entries have failed;
 * - stuck: per kind, the documents partway through their work (a nested state value: a
 *   payment's CREATED.SIGNALLING, a transaction's SUBMITTED.waiting) whose last turn is
 *   older than `stuckAfter`. A machine's top-level states are where its actors rest (an
 *   order CREATED waits for a customer, a payment SETTLED is done, an endpoint ACTIVE
 *   lives on), so they are never stuck. The document's own times do not tell the last
 *   turn: a write that only clears done effects moves `updatedAt`, and a timer's turn is
 *   not among the applied message times. So the query takes the documents with no
 *   message applied since the cutoff, and each one's newest turn (its records and the
 *   history's, by the index on the actor) decides. No index serves the query: it reads
 *   each kind's active documents, which is why it is asked only when the page asks.
 * - dead letters: the open ones, newest first.
 */
import { formatAddress } from '../../actors/address.js';
import { firesAt, type ActorDocument } from '../../actors/runtime/actor-document.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { DeadLetterStore } from '../../actors/runtime/dead-letters.js';
import { recordsOf, type TurnRecord } from '../../actors/runtime/turn-record.js';
import type { z } from 'zod';
import type { watchlist } from '../schemas/watchlist-schemas.js';
import { iso, snapshotOf } from './actor-inspector.js';
import { actorRow } from './actor-search.js';
import { redact } from './redaction.js';

type Watchlist = z.input<typeof watchlist>;
type Watched = Watchlist['recent'][number];

/** History rows read per actor wanted: a busy actor's turns come in runs, and one row per actor is listed. */
const ROWS_PER_ACTOR = 5;

export async function readWatchlist(
  system: ActorSystem,
  deadLetters: DeadLetterStore | undefined,
  stuckAfterMinutes: number,
  limit: number,
): Promise<Watchlist> {
  const now = system.clock.now();
  const kinds = system.stats().kinds;
  const [recent, dueTimers, stuck, failingEffects, letters] = await Promise.all([
    recentActors(system, limit),
    perKind(
      system,
      kinds,
      limit,
      (kind) => system.documents(kind).find({ nextTimerAt: { $ne: null } }, { sort: { nextTimerAt: 1 }, limit }),
      (doc) => timerRow(system, doc, now),
    ),
    stuckActors(system, kinds, now - stuckAfterMinutes * 60_000, now, limit),
    perKind(
      system,
      kinds,
      limit,
      (kind) => system.documents(kind).find({ outboxPending: true, 'outbox.attempts': { $gte: 1 } }, { sort: { outboxDueAt: 1 }, limit }),
      (doc) => effectRow(system, doc),
    ),
    deadLetters ? deadLetters.list({ status: 'OPEN', limit }) : { letters: [] },
  ]);
  return {
    asOf: iso(now),
    stuckAfter: stuckAfterMinutes,
    limit,
    recent,
    dueTimers,
    stuck,
    failingEffects,
    deadLetters: letters.letters.map((letter) => ({
      id: letter._id,
      actor: letter.actor ? formatAddress(letter.actor) : null,
      source: letter.source,
      error: redact(letter.error.message) as string,
      attempts: letter.attempts,
      at: iso(letter.lastAttemptAt),
    })),
  };
}

/** One row per actor, from the latest turns of all. */
async function recentActors(system: ActorSystem, limit: number): Promise<Watched[]> {
  const rows = await system.history.latest(limit * ROWS_PER_ACTOR);
  const latest = new Map<string, TurnRecord>();
  for (const row of rows) {
    const key = `${row.kind}:${row.actorId}`;
    if (!latest.has(key) && latest.size < limit) latest.set(key, row);
  }
  const kinds = new Set(system.stats().kinds);
  const listed = await Promise.all(
    [...latest.values()]
      .filter((row) => kinds.has(row.kind))
      .map(async (row) => {
        const doc = await system.documents(row.kind).findOne({ _id: row.actorId });
        return doc ? watched(system, doc, row.at, `${eventTypeOf(row.event)}: ${stateText(row.stateBefore)} → ${stateText(row.stateAfter)}`) : null;
      }),
  );
  return listed.filter((row) => row !== null);
}

/** Each kind's first `limit` by its own query, merged by `at` and cut to `limit`. */
async function perKind(
  system: ActorSystem,
  kinds: string[],
  limit: number,
  query: (kind: string) => Promise<ActorDocument[]>,
  row: (doc: ActorDocument) => Watched | null,
): Promise<Watched[]> {
  const found = await Promise.all(kinds.map(query));
  return found
    .flat()
    .map(row)
    .filter((watched) => watched !== null)
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
    .slice(0, limit);
}

function timerRow(system: ActorSystem, doc: ActorDocument, now: number): Watched | null {
  const timer = [...doc.timers].sort((a, b) => firesAt(a) - firesAt(b))[0];
  if (!timer) return null;
  const due = firesAt(timer);
  const when = due <= now ? `overdue by ${duration(now - due)}` : `in ${duration(due - now)}`;
  const retries = timer.attempts ? `, ${timer.attempts} failed deliveries` : '';
  return watched(system, doc, due, `${timer.id} delivers ${eventTypeOf(timer.event)} ${when}${retries}`);
}

/** Candidates read per actor listed: some have had a timer's turn since the cutoff and drop out. */
const STUCK_CANDIDATES_PER_ROW = 3;

async function stuckActors(system: ActorSystem, kinds: string[], cutoff: number, now: number, limit: number): Promise<Watched[]> {
  const candidates = await Promise.all(
    kinds.map((kind) =>
      system
        .documents(kind)
        .find(
          { 'snapshot.status': 'active', 'snapshot.value': { $type: 'object' }, recentAppliedAt: { $not: { $elemMatch: { $gte: cutoff } } } },
          { sort: { updatedAt: 1 }, limit: limit * STUCK_CANDIDATES_PER_ROW },
        ),
    ),
  );
  const rows = await Promise.all(
    candidates.flat().map(async (doc) => {
      const last = await lastTurnAt(system, doc);
      return last !== null && last < cutoff
        ? watched(system, doc, last, `no turn for ${duration(now - last)} in ${stateText(snapshotOf(doc.snapshot).value)}`)
        : null;
    }),
  );
  return rows
    .filter((row) => row !== null)
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
    .slice(0, limit);
}

/** When the actor's newest turn ran: from the records its document holds, else the history's newest row. */
async function lastTurnAt(system: ActorSystem, doc: ActorDocument): Promise<number | null> {
  const held = recordsOf(doc).at(-1);
  if (held) return held.at;
  return (await system.history.last({ kind: doc.kind, id: doc._id }))?.at ?? null;
}

function effectRow(system: ActorSystem, doc: ActorDocument): Watched | null {
  const entry = doc.outbox.find((candidate) => (candidate.attempts ?? 0) > 0);
  if (!entry) return null;
  const error = entry.lastError === undefined ? '' : `: ${redact(entry.lastError) as string}`;
  return watched(system, doc, entry.nextAttemptAt ?? entry.at, `${entry.type} ${entry.id} failed ${entry.attempts} times${error}`);
}

function watched(system: ActorSystem, doc: ActorDocument, at: number, note: string): Watched {
  return { ...actorRow(system, doc), at: iso(at), note };
}

/** A turn's event type for a row, '?' where the event has none. */
export function eventTypeOf(event: unknown): string {
  const type = (event as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : '?';
}

/** A state value in one line: `CREATED.AWAITING_PAYMENT`; the creation's missing state is ∅. */
export function stateText(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  if (typeof value !== 'object') return String(value);
  const parts = Object.entries(value).map(([key, inner]) =>
    inner && typeof inner === 'object' && Object.keys(inner).length === 0 ? key : `${key}.${stateText(inner)}`,
  );
  return parts.length === 1 ? parts[0]! : `{${parts.join(', ')}}`;
}

/** Whole minutes, hours or days: what an engineer scanning a list reads at a glance. */
function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.floor(ms / 1000)} s`;
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}
