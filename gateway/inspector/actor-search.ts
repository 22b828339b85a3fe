/**
 * Finding actors for the inspector: by address (`kind:id`), by id in every kind, and
 * by the ids views name. A view field is searched only in the kinds that index it
 * first (`viewIndexes`), so a search never scans a collection: a merchant id finds its
 * orders, payments, endpoints and deliveries; an order id its payments; an endpoint id
 * its deliveries. Exact matches come first, then each kind's newest.
 */
import { parseAddress } from '../../actors/address.js';
import type { ActorDocument } from '../../actors/runtime/actor-document.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { z } from 'zod';
import type { actorSearch } from '../schemas/inspector-schemas.js';
import { iso, snapshotOf } from './actor-inspector.js';

type Hit = z.input<typeof actorSearch>['actors'][number];

/** View fields that name another actor, in the order their hits are listed. */
const RELATIONS = ['merchantId', 'orderId', 'webhookId'] as const;

export async function searchActors(system: ActorSystem, query: string, limit: number): Promise<z.input<typeof actorSearch>> {
  const address = parseAddress(query);
  const kinds = system.stats().kinds;
  const hits: Hit[] = [];
  if (address) {
    const { kind, id } = address;
    const doc = kinds.includes(kind) ? await system.documents(kind).findOne({ _id: id }) : null;
    if (doc) hits.push(hit(system, doc, 'id'));
  } else {
    const exact = await Promise.all(kinds.map((kind) => system.documents(kind).findOne({ _id: query })));
    for (const doc of exact) if (doc) hits.push(hit(system, doc, 'id'));
    const searches = RELATIONS.flatMap((field) => kinds.filter((kind) => leadsAnIndex(system, kind, `view.${field}`)).map((kind) => ({ field, kind })));
    for (const { field, kind } of searches) {
      // One more than the limit tells whether there are more.
      const room = limit + 1 - hits.length;
      if (room <= 0) break;
      const related = await system.documents(kind).find({ [`view.${field}`]: query }, { sort: { 'view.createdAt': -1 }, limit: room });
      hits.push(...related.map((doc) => hit(system, doc, field)));
    }
  }
  return { query, actors: hits.slice(0, limit), hasMore: hits.length > limit, limit };
}

function leadsAnIndex(system: ActorSystem, kind: string, field: string): boolean {
  return (system.kind(kind).viewIndexes ?? []).some((index) => Object.keys(index.key)[0] === field);
}

function hit(system: ActorSystem, doc: ActorDocument, match: Hit['match']): Hit {
  return { ...actorRow(system, doc), match };
}

/** What a list of actors shows of each (a search's hits, the watchlist's rows). */
export function actorRow(system: ActorSystem, doc: ActorDocument): Omit<Hit, 'match'> {
  return {
    kind: doc.kind,
    id: doc._id,
    machine: system.kind(doc.kind).machine.id,
    state: snapshotOf(doc.snapshot).value,
    version: doc.version,
    updatedAt: iso(doc.updatedAt),
  };
}
