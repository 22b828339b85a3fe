/**
 * The wallet transfer model's inputs: one canonical USDC transfer, recorded. A second
 * report is another RECORD, which the runtime answers ALREADY_EXISTS (or the kind refuses
 * TRANSFER_CONFLICT) before the machine sees it: the machine has nothing more to take.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { walletTransferId, walletTransferKind } from '../../../actors/wallet-transfers/index.js';
import type { CanonicalTransfer } from '../../../machines/wallet-transfer/index.js';
import type { Variant } from '../../support/model-paths.js';

export const WALLET_TRANSFER_KIND = walletTransferKind;

const transfer: CanonicalTransfer = {
  chainId: 8453,
  txHash: `0x${'7e'.repeat(32)}`,
  logIndex: 3,
  token: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  from: '0x14dc79964da2c08b23698b3d3cc7ca32193d9955',
  to: '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f',
  amount: '25000000',
  blockNumber: 1234,
};

export const WALLET_TRANSFER_VARIANTS: Variant[] = [
  { name: 'one transfer', id: walletTransferId(transfer), create: { type: 'RECORD', transfer, reportedAt: '2026-11-23T12:00:00.000Z' } },
];

export const walletTransferEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => [];

export const walletTransferAbstraction = (snapshot: AnyMachineSnapshot): unknown => snapshot.value;
