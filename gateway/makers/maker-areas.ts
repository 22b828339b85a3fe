/**
 * Everything makers reach with their wallet's bearer token, as one router: sign-in,
 * referrals, transaction history and atomic deposit creation (docs/maker-auth.md). The
 * bearer guard is made here once and mounted as the operations' makerToken guard.
 */
import type Router from '@koa/router';
import type { Logger } from 'pino';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { Budgets } from '../limits/index.js';
import { AtomicCreate } from '../deposits/atomic-create.js';
import { type AtomicCreateDependencies, atomicCreateOperations } from '../deposits/atomic-create-operations.js';
import { bearerAuth } from '../middleware/bearer-auth.js';
import type { Mounting, Operation } from '../operations/operation.js';
import { operationRouter } from '../operations/router.js';
import { MakerReferrals } from '../referrals/maker-referrals.js';
import { type ReferralDependencies, referralOperations } from '../referrals/referral-operations.js';
import type { GatewayState } from '../state.js';
import { type TransactionHistoryDependencies, transactionHistoryOperations } from '../transaction-history/transaction-history-operations.js';
import { WalletHistory } from '../transaction-history/wallet-history.js';
import type { MakerSettings } from '../wallet-auth/maker-settings.js';
import { type WalletAuthDependencies, walletAuthOperations } from '../wallet-auth/wallet-auth-operations.js';
import { WalletSessions } from '../wallet-auth/wallet-sessions.js';

export interface MakerAreaDependencies {
  system: ActorSystem;
  makers: MakerSettings;
  idSecret: string;
  now(): string;
  logger: Logger;
  /** Where the transaction history's limit is counted. */
  budgets: Budgets;
}

type MakerOperationDependencies = WalletAuthDependencies & ReferralDependencies & TransactionHistoryDependencies & AtomicCreateDependencies;

/** The makers' operations, in the order their routes are tried; the document lists the same. */
export function makerOperations(): Operation<MakerOperationDependencies>[] {
  return [...walletAuthOperations(), ...referralOperations(), ...transactionHistoryOperations(), ...atomicCreateOperations()];
}

export function makerAreas(deps: MakerAreaDependencies, mounting: Mounting): Router<GatewayState> {
  return operationRouter(
    makerOperations(),
    {
      sessions: new WalletSessions({ ...deps, settings: deps.makers }),
      referrals: new MakerReferrals(deps),
      history: new WalletHistory(deps.makers.transfers),
      historyPerMinute: deps.makers.historyPerMinute,
      budgets: deps.budgets,
      atomicCreate: new AtomicCreate(deps.system, deps.makers.atomicCreate, () => Date.parse(deps.now())),
    },
    { ...mounting, guards: { ...mounting.guards, makerToken: bearerAuth(deps) } },
  );
}
