/**
 * Everything makers reach with their wallet's bearer token, as one area of the app:
 * sign-in, referrals, transaction history and atomic deposit creation (docs/maker-auth.md). The bearer guard is
 * made here once; another maker operation makes its own with bearerAuth().
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { bearerAuth } from '../middleware/bearer-auth.js';
import { MakerReferrals } from '../referrals/maker-referrals.js';
import type { GatewayState } from '../state.js';
import { WalletHistory } from '../transaction-history/wallet-history.js';
import type { MakerSettings } from '../wallet-auth/maker-settings.js';
import { WalletSessions } from '../wallet-auth/wallet-sessions.js';
import { AtomicCreate } from '../deposits/atomic-create.js';
import { atomicCreateRoutes } from './atomic-create.js';
import { referralRoutes } from './referrals.js';
import { transactionHistoryRoutes } from './transaction-history.js';
import { walletAuthRoutes } from './wallet-auth.js';

export interface MakerAreaDependencies {
  system: ActorSystem;
  makers: MakerSettings;
  idSecret: string;
  now(): string;
  logger: Logger;
  body: Middleware<GatewayState>;
}

export function makerAreas(deps: MakerAreaDependencies): Router<GatewayState>[] {
  const bearer = bearerAuth(deps);
  return [
    walletAuthRoutes({ sessions: new WalletSessions({ ...deps, settings: deps.makers }), bearer, body: deps.body }),
    referralRoutes({ referrals: new MakerReferrals(deps), bearer, body: deps.body }),
    transactionHistoryRoutes({ history: new WalletHistory(deps.makers.transfers), bearer, perMinute: deps.makers.historyPerMinute }),
    atomicCreateRoutes({ atomicCreate: new AtomicCreate(deps.system, deps.makers.atomicCreate, () => Date.parse(deps.now())), bearer, body: deps.body }),
  ];
}
