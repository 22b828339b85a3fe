/**
 * The chaos test's own kind: a bank account moving bigint money between actors.
 *
 * It is deliberately naive about duplicates: it records every transfer id it
 * applies (the debit on the source, the credit on the target) and does NOT refuse a
 * transfer id it has seen. So a message the runtime applies twice shows up as a
 * transfer id listed twice (and as money created or destroyed), instead of being
 * hidden by a domain key. Exactly-once is the runtime's job here.
 *
 * - OPEN { balance, alarmMs } creates the account and arms a durable timer (a
 *   delayed `raise`) `alarmMs` later; its firing (ALARM) is counted in `alarms`.
 * - TRANSFER_OUT { transferId, to, amount } debits if funds allow (refused with
 *   a refusal for insufficient funds otherwise), records the id, and queues a `tell` of
 *   TRANSFER_IN { transferId, from, amount } to the target.
 * - TRANSFER_IN credits and records the id, and queues a `record` effect.
 * - `record` (on every TRANSFER_IN and ALARM) calls the parent's recording endpoint
 *   with its effect id, so the test counts how often each effect was delivered and
 *   from which node.
 */
import { assign, raise, setup } from 'xstate';
import { defineKind, type EffectContext } from '../../actors/index.js';

export interface AccountContext {
  id: string;
  balance: bigint;
  alarmMs: number;
  /** Transfer ids debited here, in order applied (duplicates kept on purpose). */
  outs: string[];
  /** Transfer ids credited here, in order applied (duplicates kept on purpose). */
  ins: string[];
  alarms: number;
}

export type AccountEvent =
  | { type: 'OPEN'; balance: bigint; alarmMs: number }
  | { type: 'TRANSFER_OUT'; transferId: string; to: string; amount: bigint }
  | { type: 'TRANSFER_IN'; transferId: string; from: string; amount: bigint }
  | { type: 'ALARM' };

export interface RecordParams {
  what: 'in' | 'alarm';
  transferId?: string;
}

/** What the recording endpoint receives per delivery. */
export interface RecordedDelivery extends RecordParams {
  effectId: string;
  node: string;
  epoch: number;
  actor: string;
}

export const accountMachine = setup({
  types: {
    context: {} as AccountContext,
    events: {} as AccountEvent,
    input: {} as { id: string; balance: bigint; alarmMs: number },
  },
  actions: {
    tell: (_, _params: { to: { kind: string; id: string }; event: { type: string } & Record<string, unknown> }) => {},
    record: (_, _params: RecordParams) => {},
  },
}).createMachine({
  id: 'account',
  context: ({ input }) => ({ id: input.id, balance: input.balance, alarmMs: input.alarmMs, outs: [], ins: [], alarms: 0 }),
  initial: 'OPEN',
  entry: raise({ type: 'ALARM' }, { id: 'alarm', delay: ({ context }) => context.alarmMs }),
  states: {
    OPEN: {
      on: {
        TRANSFER_OUT: {
          actions: [
            assign({
              balance: ({ context, event }) => context.balance - event.amount,
              outs: ({ context, event }) => [...context.outs, event.transferId],
            }),
            {
              type: 'tell',
              params: ({ context, event }) => ({
                to: { kind: 'account', id: event.to },
                event: { type: 'TRANSFER_IN', transferId: event.transferId, from: context.id, amount: event.amount },
              }),
            },
          ],
        },
        TRANSFER_IN: {
          actions: [
            assign({
              balance: ({ context, event }) => context.balance + event.amount,
              ins: ({ context, event }) => [...context.ins, event.transferId],
            }),
            { type: 'record', params: ({ event }) => ({ what: 'in' as const, transferId: event.transferId }) },
          ],
        },
        ALARM: {
          actions: [assign({ alarms: ({ context }) => context.alarms + 1 }), { type: 'record', params: { what: 'alarm' as const } }],
        },
      },
    },
  },
});

/** The kind as one node runs it: its `record` effect posts to `recorderUrl` naming `nodeId`. */
export function accountKind(nodeId: string, recorderUrl: string) {
  const record = async (params: unknown, context: EffectContext): Promise<void> => {
    const body: RecordedDelivery = {
      ...(params as RecordParams),
      effectId: context.effectId,
      node: nodeId,
      epoch: context.epoch,
      actor: `${context.actor.kind}:${context.actor.id}`,
    };
    const response = await fetch(recorderUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(2_000),
    });
    if (!response.ok) throw new Error(`recorder answered ${response.status}`);
  };
  return defineKind({
    name: 'account',
    machine: accountMachine,
    machineVersion: 1,
    createdBy: ['OPEN'],
    input: (event, id) => {
      const open = event as Extract<AccountEvent, { type: 'OPEN' }>;
      return { id, balance: BigInt(open.balance), alarmMs: open.alarmMs };
    },
    view: (snapshot) => {
      const context = snapshot.context as AccountContext;
      return { id: context.id, balance: context.balance.toString(), outs: context.outs.length, ins: context.ins.length, alarms: context.alarms };
    },
    // Small replies: every reply is remembered with its message id and rewritten with each turn.
    reply: (snapshot, event) => ({
      balance: (snapshot.context as AccountContext).balance.toString(),
      transferId: (event as { transferId?: string }).transferId ?? null,
    }),
    check: (snapshot, event) => {
      if (event.type !== 'TRANSFER_OUT') return null;
      const { amount } = event as Extract<AccountEvent, { type: 'TRANSFER_OUT' }>;
      const { balance } = snapshot.context as AccountContext;
      if (typeof amount !== 'bigint' || amount <= 0n) return { code: 'INVALID_AMOUNT', message: 'amount must be a positive bigint' };
      return balance >= amount ? null : { code: 'REJECTED', message: `insufficient funds: balance ${balance} < ${amount}` };
    },
    effects: { record },
  });
}
