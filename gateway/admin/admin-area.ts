/**
 * The admin API under /internal/v1, one router: the merchant admin operations, payouts' rails, staff's
 * decisions on remediation actions, staff's chargeback trigger, the
 * dead letters on a gateway given a store, the inspector and the machine charts, in that
 * order. The router carries no guard of its own: app.ts mounts it only behind the admin
 * token's guarded area (middleware/guarded-area.ts), the one way in, and only when a
 * token is configured.
 */
import type Router from '@koa/router';
import type { DeadLetterStore } from '../../actors/runtime/dead-letters.js';
import { type ActionAdminDependencies, actionAdminOperations } from '../actions/action-admin-operations.js';
import { type ChargebackAdminDependencies, chargebackAdminOperations } from '../chargebacks/chargeback-admin-operations.js';
import { deadLetterOperations } from '../dead-letters/dead-letter-operations.js';
import { type MachineDependencies, machineOperations } from '../engineers/machine-operations.js';
import { type InspectorDependencies, inspectorOperations } from '../inspector/inspector-operations.js';
import { type MerchantAdminDependencies, merchantAdminOperations } from '../merchants/merchant-admin-operations.js';
import { type PayoutAdminDependencies, payoutAdminOperations } from '../payouts/payout-operations.js';
import type { Mounting } from '../operations/operation.js';
import { addOperations } from '../operations/router.js';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';

export const ADMIN_AREA = '/internal';

export interface AdminDependencies extends MerchantAdminDependencies, MachineDependencies {
  payouts: PayoutAdminDependencies;
  actions: ActionAdminDependencies;
  chargebacks: ChargebackAdminDependencies;
  /** Unset, the dead-letter operations are not mounted. */
  deadLetters?: DeadLetterStore | undefined;
  inspector: Omit<InspectorDependencies, 'deadLetters'>;
}

export function adminRouter(deps: AdminDependencies, mounting: Mounting): Router<GatewayState> {
  const router = exactRouter();
  addOperations(router, merchantAdminOperations(), deps, mounting);
  addOperations(router, payoutAdminOperations(), deps.payouts, mounting);
  addOperations(router, actionAdminOperations(), deps.actions, mounting);
  addOperations(router, chargebackAdminOperations(), deps.chargebacks, mounting);
  if (deps.deadLetters) addOperations(router, deadLetterOperations(), { deadLetters: deps.deadLetters }, mounting);
  addOperations(router, inspectorOperations(), { ...deps.inspector, deadLetters: deps.deadLetters }, mounting);
  addOperations(router, machineOperations(), deps, mounting);
  return router;
}
