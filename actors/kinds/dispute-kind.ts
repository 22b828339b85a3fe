/**
 * The `dispute` actor kind: one per dispute (docs/disputes.md), its id derived from the
 * platform and its case id, so the same dispute opened twice (by the customer and by the
 * maker, or one request retried) lands on one actor and is opened once. Its view is
 * document 1's dispute payload and the merchant's read fields, plus what the merchant's
 * list filters and sorts on.
 */
import { createHash } from 'node:crypto';
import type { AnyMachineSnapshot } from 'xstate';
import {
  disputeMachine,
  toDisputePayload,
  toDisputeReadFields,
  type DisputeContext,
  type DisputeEvent,
  type DisputeStatus,
} from '../../machines/dispute/index.js';
import type { Rejection } from '../runtime/actor-kind.js';
import { defineKind } from '../runtime/actor-kind.js';

export const DISPUTE_KIND = 'dispute';

/** `dsp_` and 24 hex digits of the sha256 of platform and case id: one actor per dispute, whoever opens it. */
export function disputeActorId(platform: string, disputeId: string): string {
  return `dsp_${createHash('sha256').update(`${platform}\n${disputeId}`).digest('hex').slice(0, 24)}`;
}

function disputeStatusOf(value: AnyMachineSnapshot['value']): DisputeStatus {
  return value as DisputeStatus;
}

function disputeView(snapshot: AnyMachineSnapshot) {
  const context = snapshot.context as DisputeContext;
  const status = disputeStatusOf(snapshot.value);
  return {
    dispute: toDisputePayload(context, status),
    read: toDisputeReadFields(context),
    merchantId: context.merchantId,
    environment: context.environment,
    status,
    orderId: context.orderId,
    paymentId: context.paymentId,
    sellerAddress: context.sellerAddress,
    createdAt: context.openedAt,
  };
}

export type DisputeView = ReturnType<typeof disputeView>;

function disputeRefusal(snapshot: AnyMachineSnapshot, event: { type: string }): Rejection | null {
  const command = event as DisputeEvent;
  if (command.type === 'PAY' && snapshot.value !== 'OPEN') {
    return { code: 'DISPUTE_NOT_OPEN', message: `dispute ${(snapshot.context as DisputeContext).disputeId} is ${String(snapshot.value)}: it takes no payment` };
  }
  return null;
}

export const disputeKind = defineKind({
  name: DISPUTE_KIND,
  machine: disputeMachine,
  machineVersion: 1,
  createdBy: ['OPEN'],
  view: (snapshot) => disputeView(snapshot),
  check: disputeRefusal,
  viewIndexes: [
    { key: { 'view.merchantId': 1, 'view.environment': 1, 'view.createdAt': -1 }, name: 'dispute_by_merchant_newest' },
    { key: { 'view.merchantId': 1, 'view.environment': 1, 'view.status': 1, 'view.createdAt': -1 }, name: 'dispute_by_merchant_status_newest' },
  ],
});
