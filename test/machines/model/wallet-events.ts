/**
 * The wallet model's inputs: a wallet opened at nonce 5, asked for nonces while the chain
 * is behind it and after the key was used elsewhere (the chain ahead), and set against the
 * chain at a start (RECONCILE).
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { walletKind } from '../../../actors/kinds/index.js';
import { walletId, type WalletEvent } from '../../../machines/wallet/index.js';
import { sample, type Variant } from '../../support/model-paths.js';

export const WALLET_KIND = walletKind;

const ADDRESS = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';
const AT = Date.UTC(2026, 10, 23, 12);

export const WALLET_VARIANTS: Variant[] = [
  { name: 'opened at nonce 5', id: walletId(31337, ADDRESS), create: { type: 'OPEN', chainId: 31337, address: ADDRESS, nextNonce: 5n, at: AT } },
];

const SAMPLES: WalletEvent[] = [
  sample('chain behind', { type: 'ASSIGN_NONCE', transactionId: 'tx_1', chainNonce: 0n, at: AT + 1_000 }),
  sample('chain ahead', { type: 'ASSIGN_NONCE', transactionId: 'tx_2', chainNonce: 40n, at: AT + 2_000 }),
  sample('reconciled, nothing held', { type: 'RECONCILE', chainNonce: 5n, heldNonces: [], seenNextNonce: 6n, at: AT + 3_000 }),
  sample('reconciled, one held', { type: 'RECONCILE', chainNonce: 5n, heldNonces: [6n], seenNextNonce: 8n, at: AT + 4_000 }),
];

export const walletEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => SAMPLES;

/** No guard: the one state is all there is to tell apart. */
export const walletAbstraction = (snapshot: AnyMachineSnapshot): unknown => snapshot.value;
