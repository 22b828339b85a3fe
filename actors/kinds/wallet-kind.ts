/** The `wallet` actor kind: one per sending key and chain (`<chainId>_<address>`), handing out nonces in order. */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { walletMachine, type WalletContext } from '../../machines/wallet/index.js';
import { defineKind } from '../runtime/actor-kind.js';

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as WalletContext;

export const walletKind = defineKind({
  name: 'wallet',
  machine: walletMachine,
  machineVersion: 1,
  createdBy: ['OPEN'],
  view: (snapshot) => {
    const wallet = contextOf(snapshot);
    return { chainId: wallet.chainId, address: wallet.address, nextNonce: wallet.nextNonce.toString(), assigned: wallet.assigned, updatedAt: wallet.updatedAt };
  },
  // ASSIGN_NONCE answers the nonce it gave: the one before the wallet's next.
  reply: (snapshot, event: EventObject) =>
    event.type === 'ASSIGN_NONCE' ? { nonce: contextOf(snapshot).nextNonce - 1n } : { nextNonce: contextOf(snapshot).nextNonce },
});
