/**
 * Waits on an actor's view: for the few answers that report what the actor's effects
 * did (a test event's first answer, a test order's fulfilment) rather than the turn the
 * request made. Reads the view until `done` holds or `timeoutMs` passes, and gives the
 * last view read either way (null when there is none), for the caller to judge.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ViewCollection } from '../actors/runtime/view-collection.js';

const EVERY_MS = 20;

export async function untilView<V>(documents: ViewCollection<V>, id: string, done: (view: V) => boolean, timeoutMs: number): Promise<V | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = (await documents.findOne({ _id: id }, { projection: { view: 1 } }))?.view ?? null;
    if ((view !== null && done(view)) || Date.now() >= deadline) return view;
    await sleep(EVERY_MS);
  }
}
