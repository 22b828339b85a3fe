/**
 * One order's actors over time (docs/inspector.md, "The sequence of an order"): the
 * order, its payments, the transactions they told, and the webhook deliveries of the
 * events they emitted, with every turn of each in one list by time, each naming who sent
 * it and whom it told. Found without a scan:
 *
 * - payments by the index on the order they name (`view.orderId`);
 * - transactions from the payments' turns: a tell's target;
 * - deliveries from the events the order and its payments emitted: a delivery's id is
 *   made from the webhook event's id and the endpoint's (`deliveryIdOf`), and the
 *   endpoints are the merchant's, by their index.
 */
import { parseAddress, type ActorAddress } from '../../actors/address.js';
import { ActorHistory } from '../../actors/history/index.js';
import type { ActorDocument } from '../../actors/runtime/actor-document.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { TurnRecord } from '../../actors/runtime/turn-record.js';
import { deliveryIdOf } from '../../actors/kinds/delivery-kind.js';
import { webhookEventId } from '../../actors/webhooks/payloads.js';
import type { z } from 'zod';
import { ApiError } from '../envelope.js';
import type { orderSequence } from '../schemas/sequence-schemas.js';
import { eventTypeOf } from './watchlist.js';
import { iso, snapshotOf } from './actor-inspector.js';

type OrderSequence = z.input<typeof orderSequence>;

/** Turns read per actor, newest kept: a transaction polling for hours would otherwise drown the rest. */
export const TURNS_PER_ACTOR = 200;
const PAGE = 100;

export async function readOrderSequence(system: ActorSystem, orderId: string): Promise<OrderSequence> {
  const history = new ActorHistory(system);
  const runs = new Set(system.stats().kinds);
  const order = await system.documents('order').findOne({ _id: orderId });
  if (!order) throw new ApiError(404, 'Actor not found', 'ACTOR_NOT_FOUND');

  const payments = runs.has('payment') ? await system.documents('payment').find({ 'view.orderId': orderId }, { sort: { 'view.createdAt': 1 } }) : [];
  const turnsOf = new Map<ActorDocument, { turns: TurnRecord[]; truncated: boolean }>();
  for (const doc of [order, ...payments]) turnsOf.set(doc, await turnsFor(history, doc));

  const told = new Map<string, ActorAddress>();
  for (const doc of payments) {
    for (const turn of turnsOf.get(doc)!.turns) {
      for (const entry of turn.effects.outbox) {
        const to = entry.type === 'tell' && entry.to ? parseAddress(entry.to) : null;
        if (to?.kind === 'transaction' && runs.has('transaction')) told.set(entry.to!, to);
      }
    }
  }
  const transactions = (await Promise.all([...told.values()].map((address) => system.documents(address.kind).findOne({ _id: address.id })))).filter(
    (doc) => doc !== null,
  );

  const deliveries = await deliveriesOf(
    system,
    runs,
    String(order.view.merchantId ?? ''),
    [order, ...payments].flatMap((doc) => turnsOf.get(doc)!.turns),
  );
  for (const doc of [...transactions, ...deliveries]) turnsOf.set(doc, await turnsFor(history, doc));

  const actors = [order, ...payments, ...transactions, ...deliveries];
  const turns = causalOrder(
    actors.flatMap((doc) =>
      turnsOf.get(doc)!.turns.map((turn) => ({
        actor: `${doc.kind}:${doc._id}`,
        version: turn.version,
        at: turn.at,
        event: eventTypeOf(turn.event),
        timer: turn.timer,
        stateBefore: turn.stateBefore as OrderSequence['turns'][number]['stateBefore'],
        stateAfter: turn.stateAfter as OrderSequence['turns'][number]['stateAfter'],
        messageId: turn.messageId,
        told: turn.effects.outbox.flatMap((entry) => (entry.type === 'tell' && entry.to ? [{ to: entry.to, event: entry.event ?? '' }] : [])),
      })),
    ),
  ).map((turn) => ({ ...turn, at: iso(turn.at) }));

  return {
    orderId,
    actors: actors.map((doc) => ({
      kind: doc.kind,
      id: doc._id,
      machine: system.kind(doc.kind).machine.id,
      state: snapshotOf(doc.snapshot).value,
      turnsTruncated: turnsOf.get(doc)!.truncated,
    })),
    turns,
  };
}

interface Timed {
  actor: string;
  version: number;
  at: number;
  messageId: string;
}

/**
 * By time, and within one instant (a test clock stands still; a tell and the turn it
 * causes often share a millisecond) by cause: after the turn that told it (its message
 * id is the sender's outbox entry, `<kind>:<id>:<version>:<n>`) and after its own
 * actor's earlier turns.
 */
function causalOrder<T extends Timed>(turns: T[]): T[] {
  const byTime = [...turns].sort((a, b) => a.at - b.at || (a.actor === b.actor ? a.version - b.version : 0));
  const ordered: T[] = [];
  for (let start = 0; start < byTime.length; ) {
    let end = start;
    while (end < byTime.length && byTime[end]!.at === byTime[start]!.at) end++;
    const instant = byTime.slice(start, end);
    const depth = new Map<T, number>();
    const depthOf = (turn: T, seen: Set<T>): number => {
      const known = depth.get(turn);
      if (known !== undefined) return known;
      if (seen.has(turn)) return 0;
      seen.add(turn);
      const sender = /^(.+):(\d+):\d+(?::refused)?$/.exec(turn.messageId);
      const causes = instant.filter(
        (other) =>
          (sender !== null && other.actor === sender[1] && other.version === Number(sender[2])) || (other.actor === turn.actor && other.version < turn.version),
      );
      const found = causes.reduce((most, cause) => Math.max(most, depthOf(cause, seen) + 1), 0);
      depth.set(turn, found);
      return found;
    };
    ordered.push(
      ...instant
        .map((turn, index) => ({ turn, index, depth: depthOf(turn, new Set()) }))
        .sort((a, b) => a.depth - b.depth || a.index - b.index)
        .map(({ turn }) => turn),
    );
    start = end;
  }
  return ordered;
}

/** The actor's turns, oldest first, the newest TURNS_PER_ACTOR when it has more. */
async function turnsFor(history: ActorHistory, doc: ActorDocument): Promise<{ turns: TurnRecord[]; truncated: boolean }> {
  const turns: TurnRecord[] = [];
  for (let after = 0; ; ) {
    const page = await history.page(doc, after, PAGE);
    turns.push(...page.turns);
    if (!page.hasMore) break;
    after = page.turns.at(-1)!.version;
  }
  return { turns: turns.slice(-TURNS_PER_ACTOR), truncated: turns.length > TURNS_PER_ACTOR };
}

/** The deliveries of the events these turns emitted, to each of the merchant's endpoints. */
async function deliveriesOf(system: ActorSystem, runs: Set<string>, merchantId: string, turns: TurnRecord[]): Promise<ActorDocument[]> {
  if (!runs.has('webhook') || !runs.has('delivery') || !merchantId) return [];
  const endpoints = await system.documents('webhook').find({ 'view.merchantId': merchantId });
  const emitted = turns.flatMap((turn) => turn.effects.outbox.filter((entry) => entry.type === 'event' && entry.event !== undefined));
  const ids = emitted.flatMap((entry) =>
    endpoints.map((endpoint) => deliveryIdOf(webhookEventId({ id: entry.id, type: entry.event!, data: {} }), endpoint._id)),
  );
  const found = await Promise.all(ids.map((id) => system.documents('delivery').findOne({ _id: id })));
  return found.filter((doc) => doc !== null);
}
