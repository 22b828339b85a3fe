/**
 * POST /api/v1/payouts/{id}/cancel: only while status and fundingStatus are both
 * AWAITING_FUNDING, and only when the conversion provider holds no record at the deposit
 * address (document 2): a transfer seen there, even a failed or refunded one, blocks it. The
 * provider is asked first; the payout's own refusal still holds if a report arrived since.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { payoutError, payoutViewOf } from './payout-access.js';
import type { FundingProvider } from '../../actors/adapters/conversion/funding-provider.js';
import { payoutKind } from '../../actors/kinds/payout-kind.js';
import type { PayoutView } from '../../machines/payout/payout-view.js';
import { ApiError } from '../envelope.js';

export interface CancelPayoutDependencies {
  system: ActorSystem;
  funding: FundingProvider | null;
  now(): string;
}

export async function cancelPayout(deps: CancelPayoutDependencies, merchantId: string, id: string): Promise<PayoutView> {
  const view = await payoutViewOf(deps.system, id);
  if (!view || view.merchantId !== merchantId || !view.payout) throw payoutError('PAYOUT_NOT_FOUND', 'Payout not found');
  const { status, fundingStatus } = view.payout;
  if (status !== 'AWAITING_FUNDING' || fundingStatus !== 'AWAITING_FUNDING')
    throw payoutError('PAYOUT_NOT_CANCELLABLE', `Payout is ${status} with funding ${fundingStatus}: it can no longer be cancelled`, {
      status,
      fundingStatus,
    });
  let records: number;
  try {
    if (!deps.funding || !view.requestId) throw new Error('this node has no conversion provider to ask');
    records = (await deps.funding.activity(view.requestId)).transfers.length;
  } catch (error) {
    throw new ApiError(502, 'The funding could not be checked before cancelling; retry the cancel', 'PAYOUT_BRIDGE_STATUS_FAILED', null, undefined, {
      cause: error,
    });
  }
  if (records > 0 || view.hasFundingRecord)
    throw payoutError(
      'PAYOUT_FUNDING_DETECTED',
      'The conversion provider has a record at the deposit address: the payout cannot be cancelled, and expires at its deadline if no USDC arrives',
    );
  // A report that arrived since is the payout's own refusal, answered from its row of the error table.
  return (await deps.system.ask(payoutKind, id, { type: 'CANCEL', at: deps.now() })).payout!;
}
