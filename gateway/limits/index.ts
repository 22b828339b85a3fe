/**
 * Rate limits' budgets: in this process for a node alone, in the cluster's store for a
 * cluster, so that a documented limit holds for the service as a whole however many
 * nodes a balancer spreads a client over. The middleware that answers 429 with the
 * limit's headers is gateway/middleware/rate-limit.ts.
 */
export { Budgets, type BudgetsOptions } from './budgets.js';
export type { Budget } from './cluster-budget.js';
export { WINDOWS_COLLECTION } from './store-windows.js';
