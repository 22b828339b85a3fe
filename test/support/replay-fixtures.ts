/**
 * Stored actor documents written by an older machine version (test/fixtures/<kind>/),
 * put into a current system's store as they were, so the next message to the actor
 * restores it through the current kind and its migrations, as a node upgraded over an
 * existing store would (Temporal's test-replay, for snapshots instead of histories).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { ActorDocument, ActorSystem } from '../../actors/index.js';

const FIXTURES = new URL('../fixtures/', import.meta.url);

export interface ReplayFixture {
  writtenBy: { commit: string; kind: string; machineVersion: number };
  document: ActorDocument;
  /** Beside a payment: the order document it reports to, as the same commit wrote it. */
  order?: ActorDocument;
}

export function replayFixture(kind: string, name: string): ReplayFixture {
  return JSON.parse(readFileSync(new URL(`${kind}/${name}.json`, FIXTURES), 'utf8')) as ReplayFixture;
}

/** The names of every fixture of `kind` written by `machineVersion`. */
export function replayFixtureNames(kind: string, machineVersion: number): string[] {
  return readdirSync(new URL(`${kind}/`, FIXTURES))
    .filter((file) => file.startsWith(`v${machineVersion}-`) && file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/** Stores the fixture's documents as they were written; nothing is activated yet. */
export async function storeFixture(system: ActorSystem, fixture: ReplayFixture): Promise<void> {
  await system.documents(fixture.writtenBy.kind).insertOne(structuredClone(fixture.document));
  if (fixture.order) await system.documents('order').insertOne(structuredClone(fixture.order));
}
