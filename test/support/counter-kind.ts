/**
 * A small machine of the tests' own, to prove the runtime without any domain
 * machine: a counter that records which values it was given (now or on a timer),
 * arms and cancels delayed events, emits domain events and tells other actors.
 */
import { assign, cancel, emit, raise, setup } from 'xstate';
import { defineKind, type EffectHandler } from '../../actors/index.js';

export interface CounterContext {
  id: string;
  total: bigint;
  applied: number[];
  rings: number;
}

type CounterEvent =
  | { type: 'OPEN' }
  | { type: 'ADD'; n: number }
  | { type: 'ARM'; ms: number }
  | { type: 'LATER'; ms: number; n: number }
  | { type: 'DISARM' }
  | { type: 'CLOSE' }
  | { type: 'RING' }
  | { type: 'FORWARD'; to: string; n: number }
  | { type: 'PROBE'; label: string };

export const counterMachine = setup({
  types: {
    context: {} as CounterContext,
    events: {} as CounterEvent,
    input: {} as { id: string },
  },
  actions: {
    tell: (_, _params: { to: { kind: string; id: string }; event: { type: string } & Record<string, unknown> }) => {},
    probe: (_, _params: { label: string }) => {},
  },
}).createMachine({
  id: 'counter',
  context: ({ input }) => ({ id: input.id, total: 0n, applied: [], rings: 0 }),
  initial: 'OPEN',
  entry: emit(({ context }) => ({ type: 'COUNTER_OPENED', counterId: context.id })),
  states: {
    OPEN: {
      on: {
        ADD: {
          actions: assign({
            total: ({ context, event }) => context.total + BigInt(event.n),
            applied: ({ context, event }) => [...context.applied, event.n],
          }),
        },
        ARM: { actions: raise({ type: 'RING' }, { id: 'bell', delay: ({ event }) => event.ms }) },
        // An ADD of n after ms, on a timer of its own each time (no id): several can be armed at once.
        LATER: { actions: raise(({ event }) => ({ type: 'ADD' as const, n: event.n }), { delay: ({ event }) => event.ms }) },
        DISARM: { actions: cancel('bell') },
        RING: { actions: [assign({ rings: ({ context }) => context.rings + 1 }), emit({ type: 'COUNTER_RANG' })] },
        FORWARD: {
          actions: {
            type: 'tell',
            params: ({ event }) => ({ to: { kind: 'counter', id: event.to }, event: { type: 'ADD', n: event.n } }),
          },
        },
        PROBE: { actions: { type: 'probe', params: ({ event }) => ({ label: event.label }) } },
        CLOSE: 'CLOSED',
      },
    },
    CLOSED: {
      after: { 60000: { actions: emit({ type: 'COUNTER_ARCHIVED' }) } },
    },
  },
});

export function counterKind(probe: EffectHandler = async () => {}) {
  return defineKind({
    name: 'counter',
    machine: counterMachine,
    machineVersion: 1,
    createdBy: ['OPEN'],
    input: (_event, id) => ({ id }),
    view: (snapshot) => {
      const context = snapshot.context as CounterContext;
      return { id: context.id, status: snapshot.value, total: context.total.toString(), applied: context.applied, rings: context.rings };
    },
    check: (snapshot, event) =>
      event.type === 'ADD' && Number((event as Record<string, unknown>).n) < 0 ? { code: 'INVALID_AMOUNT', message: 'n must not be negative' } : null,
    effects: { probe },
    viewIndexes: [{ key: { 'view.status': 1 } }],
  });
}

export interface CounterView {
  id: string;
  status: string;
  total: string;
  applied: number[];
  rings: number;
}
