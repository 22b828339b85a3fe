/** How the checkout answers: the state of the payout as its kind's view reads now, with its merchant's name. */
import { z } from 'zod';
import { merchantKind } from '../../actors/kinds/merchant-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { LISTING_MIN_USDC } from '../../machines/payout/listing-state.js';
import type { CheckoutPayout } from './cashout-access.js';
import { maskedEmail } from './cashout-sign-in.js';
import { cashoutStateOf, type CashoutState } from './cashout-state.js';

export interface CashoutReadDependencies {
  system: ActorSystem;
  /** NODE_ENV: outside production a listing takes buyers from 1 USDC. */
  environment: string;
}

/** The least a listing's buyer may take on this node (document 2: 10 USDC in production, a non-production node may lower it to 1). */
export function listingFloor(environment: string): bigint {
  return environment === 'production' ? LISTING_MIN_USDC : LISTING_MIN_USDC / 10n;
}

export const payoutPath = z.object({
  payoutId: z
    .string()
    .regex(/^po_[0-9A-Za-z]{1,64}$/, 'must be a payout id (po_…)')
    .meta({ description: 'The payout’s id, from its checkoutUrl', example: 'po_5Xr0Qm7Zk2' }),
});

export async function merchantNameOf(deps: CashoutReadDependencies, payout: CheckoutPayout): Promise<string | null> {
  const merchant = await deps.system.views(merchantKind).findOne({ _id: payout.merchantId }, { projection: { view: 1 } });
  return merchant?.view.profile.name ?? null;
}

export async function stateOfPayout(deps: CashoutReadDependencies, payout: CheckoutPayout): Promise<CashoutState> {
  return cashoutStateOf(payout, {
    merchantName: await merchantNameOf(deps, payout),
    sentTo: maskedEmail(payout.customerEmail),
    listingMinUsdc: listingFloor(deps.environment),
  });
}
