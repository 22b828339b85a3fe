/**
 * How every payout route reaches a payout and refuses what it may not: the kind's stored
 * view by id, the merchant's own payout as routes show it, the live-only rule, and the
 * refusals of document 2, each answered with the status its row of the error table gives.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { statusOfCode, type ErrorCode } from '../../actors/errors/error-codes.js';
import { payoutKind, type PayoutKindView } from '../../actors/kinds/payout-kind.js';
import type { PayoutView } from '../../machines/payout/payout-view.js';
import { ApiError } from '../envelope.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';

export function payoutError(code: ErrorCode, message: string, responseObject: unknown = null, cause?: unknown): ApiError {
  return new ApiError(statusOfCode(code), message, code, responseObject, undefined, cause === undefined ? undefined : { cause });
}

/** Document 2: payouts are live only, on every merchant route. */
export function liveOnly(account: MerchantAccount): void {
  if (account.environment !== 'LIVE') throw payoutError('PAYOUT_SANDBOX_UNSUPPORTED', 'Payouts are live only: a sandbox key has none and cannot create one');
}

export async function payoutViewOf(system: ActorSystem, id: string): Promise<PayoutKindView | null> {
  return (await system.views(payoutKind).findOne({ _id: id }, { projection: { view: 1 } }))?.view ?? null;
}

/** The payout of this merchant, as every route shows it; null for an unknown id, another merchant's, or one not created. */
export async function merchantPayout(system: ActorSystem, merchantId: string, id: string): Promise<PayoutView | null> {
  const view = await payoutViewOf(system, id);
  return view && view.merchantId === merchantId ? view.payout : null;
}
