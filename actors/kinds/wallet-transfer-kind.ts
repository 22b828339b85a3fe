/**
 * The `wallet-transfer` actor kind: one per canonical USDC transfer, its id derived
 * from the transfer's identity, so every report of one transfer addresses one actor
 * and the runtime's create-once rule stores it once. A report that disagrees with the
 * stored one under the same identity is refused TRANSFER_CONFLICT and changes nothing.
 */
import { createHash } from 'node:crypto';
import type { AnyMachineSnapshot } from 'xstate';
import {
  sameTransfer,
  transferIdentity,
  walletTransferMachine,
  type CanonicalTransfer,
  type WalletTransferContext,
  type WalletTransferEvent,
} from '../../machines/wallet-transfer/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export const WALLET_TRANSFER_KIND = 'wallet-transfer';

/** The stored transfer as list queries read it: the canonical fields at the top of the view, so they can be filtered and indexed. */
export interface WalletTransferView extends CanonicalTransfer {
  id: string;
  reportedAt: string;
}

/** `wtr_` and the sha256 of the identity: fixed length and safe in subjects and keys, whatever the identity holds. */
export function walletTransferId(transfer: CanonicalTransfer): string {
  return `wtr_${createHash('sha256').update(transferIdentity(transfer)).digest('hex')}`;
}

export const walletTransferKind = defineKind({
  name: WALLET_TRANSFER_KIND,
  machine: walletTransferMachine,
  machineVersion: 1,
  createdBy: ['RECORD'],
  view: (snapshot: AnyMachineSnapshot): WalletTransferView & Record<string, unknown> => {
    const { id, transfer, reportedAt } = snapshot.context as WalletTransferContext;
    return { id, ...transfer, reportedAt };
  },
  check: (snapshot, event) => {
    if (event.type !== 'RECORD' || sameTransfer((snapshot.context as WalletTransferContext).transfer, (event as WalletTransferEvent).transfer)) return null;
    return { code: 'TRANSFER_CONFLICT', message: 'another report of this transfer differs from the stored one; the first stands' };
  },
  viewIndexes: [
    { key: { 'view.from': 1, 'view.blockNumber': -1 }, name: 'wallet_transfer_by_sender' },
    { key: { 'view.to': 1, 'view.blockNumber': -1 }, name: 'wallet_transfer_by_recipient' },
  ],
});
