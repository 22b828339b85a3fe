/**
 * Takes a create's persistence away on a bench node, to measure what the rest of a
 * create costs over HTTP and so what any store could at best give. Only the order's
 * CREATE is touched; everything the gateway does around the ask runs as built.
 *
 * - `turn`: the ask is answered by the order's pure turn (actors/runtime/turn.ts: the
 *   machine's initial state, the view, the reply, the history record and the encoded
 *   snapshot). Nothing is stored, logged as an event or delivered.
 * - `canned`: the first create runs as built; every later one is answered with its
 *   reply under the new id, so only the HTTP side runs (Koa, key, zod, create rules,
 *   the answer).
 *
 * Orders made on such a node do not exist afterwards: it serves only its create rows.
 */
import { randomUUID } from 'node:crypto';
import type { ActorSystem } from '../../actors/index.js';
import { orderKind } from '../../actors/kinds/order-kind.js';
import type { AnyActorKind, CommandOf, ReplyOf } from '../../actors/runtime/actor-kind.js';
import type { AskOptions } from '../../actors/runtime/messages.js';
import { runTurn } from '../../actors/runtime/turn.js';
import type { EventObject } from 'xstate';

export type CreateAblation = 'turn' | 'canned';

const DAY_MS = 86_400_000;

export function ablateCreates(system: ActorSystem, mode: CreateAblation): void {
  const ask = system.ask.bind(system);
  let canned: ReplyOf<typeof orderKind> | null = null;
  const ablated = async (kind: AnyActorKind, id: string, command: EventObject, options?: AskOptions): Promise<unknown> => {
    if (kind !== orderKind || command.type !== 'CREATE') return ask(kind, id, command, options);
    if (mode === 'turn') {
      const outcome = runTurn({
        kind: orderKind,
        address: { kind: orderKind.name, id },
        doc: null,
        message: { id: randomUUID(), event: command },
        now: Date.now(),
        shard: 0,
        epoch: 1,
        retentionMs: DAY_MS,
      });
      if (outcome.type !== 'write') throw new Error(`a create's turn came out ${outcome.type}`);
      return outcome.reply;
    }
    if (canned) return { ...canned, order: { ...canned.order, id }, orderTokenHash: (command as { orderTokenHash?: string }).orderTokenHash };
    const reply = await ask(orderKind, id, command as CommandOf<typeof orderKind>, options);
    canned = reply;
    return reply;
  };
  // A bench stand-in answers what the order's create would: the typed signature is the system's own.
  system.ask = ablated as ActorSystem['ask'];
}

export function createAblation(value: string | undefined): CreateAblation | null {
  if (value === undefined || value === '') return null;
  if (value === 'turn' || value === 'canned') return value;
  throw new Error(`BENCH_ABLATION must be turn or canned, not ${value}`);
}
