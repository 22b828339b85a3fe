/**
 * The payout kind's refusals of a confirm that no HTTP walk reaches cheaply: a payout whose
 * unpaid USDC is below the listing floor cannot be listed on a fiat rail (document 2: a listing
 * needs 10 to 1,000 USDC), though it can still be sent to an address.
 */
import test from 'ava';
import { initialTransition, transition } from 'xstate';
import { payoutRefusal } from '../../../actors/kinds/payout-kind.js';
import { payoutMachine, type PayoutEvent } from '../../../machines/payout/index.js';
import { payoutMachineInput } from '../../support/payout-machine-input.js';

const USDC = 1_000_000n;
const AT = '2026-11-23T12:00:00.000Z';

function readyWith(received: bigint, method: Extract<PayoutEvent, { type: 'SAVE_METHOD' }>['method']) {
  const input = payoutMachineInput({
    id: 'po_refusals',
    terms: { ...payoutMachineInput({ id: 'po_refusals' }).terms, rails: ['zelle', 'routea_8453'] },
    at: AT,
  });
  let [snapshot] = initialTransition(payoutMachine, input);
  const later = '2026-11-24T13:00:00.000Z';
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
          originAmount: received.toString(),
          startedAt: AT,
          swept: true,
          sourceTransactionHash: `0x${'1'.repeat(64)}`,
          deliveredUsdc: received.toString(),
          deliveryTransactionHash: `0x${'2'.repeat(64)}`,
          refundTransactionHash: null,
        },
      ],
      at: AT,
    },
  ];
  for (const event of steps) [snapshot] = transition(payoutMachine, snapshot, event);
  // The deadline passes with less than the payout received: FUNDED with what arrived.
  [snapshot] = transition(payoutMachine, snapshot, { type: 'xstate.after.fundingDeadline.payout.AWAITING_FUNDING' } as never);
  [snapshot] = transition(payoutMachine, snapshot, { ...steps[1]!, at: later } as PayoutEvent);
  [snapshot] = transition(payoutMachine, snapshot, { type: 'SAVE_METHOD', method, at: later });
  return snapshot;
}

const zelle = {
  kind: 'FIAT' as const,
  rail: 'zelle' as const,
  handle: 'ana@example.com',
  payeeId: 'ana@example.com',
  currency: 'USD' as const,
  paypalEmail: null,
  connection: 'NOT_NEEDED' as const,
};
const confirm = (minUsdc: bigint): PayoutEvent => ({
  type: 'CONFIRM',
  minUsdc: minUsdc.toString(),
  rate: (10n ** 18n).toString(),
  at: '2026-11-24T13:00:00.000Z',
});

test('a payout whose unpaid USDC is below the floor is refused a fiat listing with CASHOUT_AMOUNT_OUTSIDE_RAIL_LIMITS, and takes one at the floor', (t) => {
  const small = readyWith(5n * USDC, zelle);
  t.is(payoutRefusal(small, confirm(10n * USDC))?.code, 'CASHOUT_AMOUNT_OUTSIDE_RAIL_LIMITS');
  t.is(payoutRefusal(small, confirm(USDC)), null, 'a non-production floor of 1 USDC lists it');
  t.is(payoutRefusal(readyWith(10n * USDC, zelle), confirm(10n * USDC)), null);
});
