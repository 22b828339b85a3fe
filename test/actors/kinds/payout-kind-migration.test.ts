/**
 * A payout stored by the landed merchant side (machine version 1, before the customer's side
 * existed) is read by this node as it restarts over the same data: migrated, it has the
 * customer's side at its start, its view reads as before, and the customer can act on it.
 */
import test from 'ava';
import { initialTransition, transition } from 'xstate';
import { encode } from '../../../actors/codec.js';
import { payoutKind, payoutView } from '../../../actors/kinds/payout-kind.js';
import { restore } from '../../../actors/runtime/turn.js';
import { customerSideStart } from '../../../machines/payout/payout-machine.js';
import { payoutMachine, type PayoutContext, type PayoutEvent } from '../../../machines/payout/index.js';
import { payoutMachineInput } from '../../support/payout-machine-input.js';

const AT = '2026-11-23T12:00:00.000Z';

/** A FUNDED payout as version 1 stored it: today's snapshot less every field of the customer's side. */
function versionOneDoc() {
  let [snapshot] = initialTransition(payoutMachine, payoutMachineInput({ id: 'po_migrated', idempotencyKey: 'payout-migrated-1', at: AT }));
  const steps: PayoutEvent[] = [
    {
      type: 'PREPARED',
      walletAddress: '0x6666666666666666666666666666666666666666',
      walletUserId: 'u1',
      requestId: 'r1',
      depositAddress: '0x7777777777777777777777777777777777777777',
      fundingAmount: '100000000',
      at: AT,
    },
    {
      type: 'FUNDING_OBSERVED',
      transfers: [
        {
          id: 't1',
          status: 'delivered',
          originAmount: '100000000',
          startedAt: AT,
          swept: true,
          sourceTransactionHash: `0x${'1'.repeat(64)}`,
          deliveredUsdc: '100000000',
          deliveryTransactionHash: `0x${'2'.repeat(64)}`,
          refundTransactionHash: null,
        },
      ],
      at: AT,
    },
  ];
  for (const event of steps) [snapshot] = transition(payoutMachine, snapshot, event);
  const persisted = payoutMachine.getPersistedSnapshot(snapshot) as unknown as { context: Record<string, unknown> };
  const context = Object.fromEntries(Object.entries(persisted.context).filter(([key]) => !(key in customerSideStart())));
  return { _id: 'po_migrated', machineVersion: 1, snapshot: encode({ ...persisted, context }), view: payoutView(snapshot) };
}

test('a FUNDED payout stored by version 1 reads the same after the restart and takes the customer’s method', (t) => {
  const stored = versionOneDoc();
  t.false('method' in (stored.snapshot as { context: object }).context, 'the stored payout has no customer side');
  const restored = restore(payoutKind, stored);
  const context = restored.context as PayoutContext;
  t.like(context, { method: null, listings: 0, paidUsdc: 0n, sends: 0, payoutTransfer: null, fills: [], partialFills: [] });
  t.deepEqual(payoutView(restored).payout, stored.view.payout, 'its view is the one stored');
  const [ready] = transition(payoutMachine, restored, {
    type: 'SAVE_METHOD',
    method: {
      kind: 'FIAT',
      rail: 'zelle',
      handle: 'ana@example.com',
      payeeId: 'ana@example.com',
      currency: 'USD',
      paypalEmail: null,
      connection: 'NOT_NEEDED',
    },
    at: AT,
  });
  t.is(ready.value && (ready.value as { READY?: string }).READY, 'IDLE');
});
