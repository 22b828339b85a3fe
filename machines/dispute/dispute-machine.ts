/**
 * A dispute (the `dispute` actor, docs/disputes.md): OPEN from the attested dispute until
 * the merchant pays the seller (PAID, with the Base transaction that paid) or the due
 * time passes unpaid (ESCALATED). An escalated dispute over a deposit that had dispute
 * protection when it opened goes to the maker's stake: the `claimStake` effect asks the
 * stake once, and its transaction comes back as STAKE_CLAIMED.
 */
import { assign, emit, setup } from 'xstate';
import { toDisputePayload, type DisputePayload } from './dispute-payload.js';
import type { DisputeContext, DisputeEvent, DisputeInput, DisputeStatus } from './dispute-types.js';

export type DisputeEmitted = { type: 'DISPUTE_OPENED' | 'DISPUTE_PAID' | 'DISPUTE_ESCALATED'; dispute: DisputePayload; merchantId: string };

/** The stake claim's terms, amount in USDC base units as decimal digits (params are stored as JSON). */
export interface StakeClaimParams {
  intentHash: string;
  disputeId: string;
  amountUsdc: string;
}

export const disputeMachine = setup({
  types: {
    input: {} as DisputeInput,
    context: {} as DisputeContext,
    events: {} as DisputeEvent,
    emitted: {} as DisputeEmitted,
  },
  delays: {
    due: ({ context }) => Math.max(0, Date.parse(context.dueAt) - Date.parse(context.openedAt)),
  },
  guards: {
    stakeProtected: ({ context }) => context.stakeStatusAtOpen === 'PROTECTED',
  },
  actions: {
    recordPayment: assign(({ event }) => {
      if (event.type !== 'PAY') return {};
      return { paidTxHash: event.txHash, paidAt: event.at, updatedAt: event.at };
    }),
    recordEscalation: assign(({ context }) => ({ escalatedAt: context.dueAt, updatedAt: context.dueAt })),
    recordStakeClaim: assign(({ event }) => {
      if (event.type !== 'STAKE_CLAIMED') return {};
      return { stakeClaimTxHash: event.transactionHash, updatedAt: event.at };
    }),
    announce: emit(({ context }, params: { type: DisputeEmitted['type']; status: DisputeStatus }) => ({
      type: params.type,
      dispute: toDisputePayload(context, params.status),
      merchantId: context.merchantId,
    })),
    // Effect: run by the dispute kind after the turn is written (actors/disputes/dispute-effects.ts).
    claimStake: (_, _params: StakeClaimParams) => {},
  },
}).createMachine({
  id: 'dispute',
  context: ({ input }) => {
    const { at, ...dispute } = input;
    return { ...dispute, openedAt: at, paidAt: null, paidTxHash: null, escalatedAt: null, stakeClaimTxHash: null, updatedAt: at };
  },
  initial: 'OPEN',
  states: {
    OPEN: {
      entry: { type: 'announce', params: { type: 'DISPUTE_OPENED', status: 'OPEN' } },
      on: {
        PAY: { target: 'PAID', actions: ['recordPayment', { type: 'announce', params: { type: 'DISPUTE_PAID', status: 'PAID' } }] },
      },
      after: {
        due: [
          {
            guard: 'stakeProtected',
            target: 'ESCALATED',
            actions: [
              'recordEscalation',
              { type: 'announce', params: { type: 'DISPUTE_ESCALATED', status: 'ESCALATED' } },
              {
                type: 'claimStake',
                params: ({ context }) => ({ intentHash: context.intentHash, disputeId: context.disputeId, amountUsdc: context.amountUsdc.toString() }),
              },
            ],
          },
          { target: 'ESCALATED', actions: ['recordEscalation', { type: 'announce', params: { type: 'DISPUTE_ESCALATED', status: 'ESCALATED' } }] },
        ],
      },
    },
    PAID: {},
    ESCALATED: {
      on: { STAKE_CLAIMED: { actions: 'recordStakeClaim' } },
    },
  },
});
