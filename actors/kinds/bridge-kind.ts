/**
 * The `bridge` actor kind: one bridge per settled payment of a bridged order, its id derived
 * from the payment's (`brg_<payment id>`), so the launcher's create for a payment makes one
 * actor however often PAYMENT_SETTLED is delivered (the runtime's create-once rule). Its
 * effects are actors/bridges/; the node registers `withEffects(bridgeKind, bridgeEffects(…))`.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { bridgeMachine, bridgeStatusOf, toPaymentBridge, type BridgeContext, type BridgeInput } from '../../machines/bridge/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export const BRIDGE_KIND = 'bridge';

export function bridgeIdOf(paymentId: string): string {
  return `brg_${paymentId}`;
}

export const bridgeKind = defineKind({
  name: BRIDGE_KIND,
  machine: bridgeMachine,
  machineVersion: 2,
  migrations: {
    // Version 2 tells its order each status it enters; the context is unchanged.
    1: (persisted) => persisted,
  },
  createdBy: ['CREATE'],
  input: (event: { type: 'CREATE' } & Omit<BridgeInput, 'id'>, id: string): BridgeInput => {
    const { type: _type, ...input } = event;
    return { ...input, id };
  },
  view: (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as BridgeContext;
    return { ...toPaymentBridge(context, bridgeStatusOf(snapshot.value)), merchantId: context.merchantId, environment: context.environment };
  },
  viewIndexes: [{ key: { 'view.orderId': 1, 'view.createdAt': -1 }, name: 'bridge_by_order_newest' }],
});

export type BridgeView = ReturnType<typeof bridgeKind.view>;
