/**
 * The dispute model's inputs: a dispute over a deposit with dispute protection and one
 * without, each paid by the merchant, or left until its due time passes; an escalated
 * protected dispute hears back from its stake claim.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { disputeKind } from '../../../actors/kinds/dispute-kind.js';
import type { DisputeContext, DisputeEvent, DisputeInput } from '../../../machines/dispute/index.js';
import { sample, type Variant } from '../../support/model-paths.js';

export const DISPUTE_KIND = disputeKind;

const OPENED_AT = '2026-11-23T12:00:00.000Z';
const DUE_AT = '2026-11-30T12:00:00.000Z';
const PAID_AT = '2026-11-24T09:00:00.000Z';

function opening(stakeStatusAtOpen: DisputeInput['stakeStatusAtOpen']): Omit<DisputeInput, 'id'> & { type: 'OPEN' } {
  return {
    type: 'OPEN',
    disputeId: `VD-MODEL-${stakeStatusAtOpen}`,
    platform: 'venmo',
    source: 'ATTESTATION',
    orderId: 'ord_model0000000000000000001',
    paymentId: 'pay_model0000000000000000001',
    intentHash: `0x${'1a'.repeat(32)}`,
    merchantId: 'mer_model0000000000000000001',
    environment: 'LIVE',
    rail: 'venmo',
    amountUsdc: 25_000_000n,
    caseAmountCents: 2534n,
    caseCurrency: 'USD',
    sellerAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    stakeStatusAtOpen,
    fulfillTxHash: `0x${'f0'.repeat(32)}`,
    at: OPENED_AT,
    dueAt: DUE_AT,
  };
}

export const DISPUTE_VARIANTS: Variant[] = [
  { name: 'a dispute over a protected deposit', id: 'dsp_0000000000000000000000a1', create: opening('PROTECTED') },
  { name: 'a dispute over an unprotected deposit', id: 'dsp_0000000000000000000000a2', create: opening('UNPROTECTED') },
];

export function disputeEvents(_snapshot: AnyMachineSnapshot): EventObject[] {
  const events: DisputeEvent[] = [
    sample('the merchant’s payment', { type: 'PAY', txHash: `0x${'ab'.repeat(32)}`, at: PAID_AT }),
    sample('the stake claim’s transaction', { type: 'STAKE_CLAIMED', transactionHash: `0x${'5c'.repeat(32)}`, at: DUE_AT }),
  ];
  return events;
}

/** The state, and what the guards and the view read: the stake status, and whether it was paid or claimed. */
export function disputeAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const context = snapshot.context as DisputeContext;
  return { state: snapshot.value, stake: context.stakeStatusAtOpen, paid: context.paidTxHash !== null, claimed: context.stakeClaimTxHash !== null };
}
