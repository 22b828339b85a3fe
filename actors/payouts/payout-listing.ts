/**
 * A payout's listing (docs/payout-checkout.md, "Listing and buyers"): the customer's wallet
 * puts the unpaid USDC in the escrow as a deposit buyers take, exactly as a maker's atomic
 * creation does (one sponsored batch through the `deposit` kind: approve, createDeposit, the
 * payee on the rail's payment method and the currency's floor), signed by the payout signer
 * under the payout-only policy. The payee is registered as makers' payees are, so a buyer's
 * checkout knows whom to pay.
 *
 * Run at least once: the deposit request's id is the payout's and the listing's, so a second
 * run finds the first one's deposit and waits on it; a run that outlasts its wait throws, and
 * the retry goes on waiting. The listing's facts reach the payout through its deposit's subject.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeFunctionData, keccak256, toBytes, zeroAddress } from 'viem';
import { canonicalJson, checkAtomicCalls, escrowFunctionsAbi, usdcFunctionsAbi, type Hex } from '../../machines/index.js';
import type { ListPayoutParams, PayoutEvent } from '../../machines/payout/index.js';
import type { DepositChain } from '../adapters/chain/deposit-chain.js';
import type { ChainSubject } from '../chain/chain-facts.js';
import { reserveDepositId } from '../deposits/deposit-ids.js';
import { CommandRejectedError } from '../errors.js';
import { PlatformError } from '../errors/platform-error.js';
import { depositKind, type DepositView } from '../kinds/deposit-kind.js';
import type { PayeeDirectory } from '../market/payee-directory.js';
import type { EffectContext } from '../runtime/actor-kind.js';
import type { ViewCollection } from '../runtime/view-collection.js';
import { reportToSelf } from '../runtime/effect-report.js';

export interface PayoutListingDependencies {
  chain: DepositChain;
  /** The deposit kind's views: requests being reserved around, and the listing's own. */
  deposits: () => ViewCollection<DepositView>;
  payees: PayeeDirectory;
  /** How long one run waits for the listing's batch to be confirmed before leaving it to a retry. */
  waitMs: number;
}

/** The listing's batch is still with the chain: the effect runs again and keeps waiting. */
export class ListingStillPending extends PlatformError {
  override readonly name = 'ListingStillPending';
  readonly code = 'LISTING_STILL_PENDING';
}

const POLL_MS = 50;
const iso = (context: EffectContext) => new Date(context.clock.now()).toISOString();

export const listingRequestId = (payoutId: string, listing: number) => `${payoutId.toLowerCase()}-listing-${listing}`;

export function payoutListingEffects(
  deps: PayoutListingDependencies | null,
  watch: ((subject: ChainSubject, owner: { kind: string; id: string }) => Promise<void>) | null,
) {
  return {
    async listPayout(params: ListPayoutParams, context: EffectContext) {
      const failed = (code: string, message: string) =>
        reportToSelf<PayoutEvent>(context, { type: 'LISTING_FAILED', listing: params.listing, code, message, at: iso(context) });
      if (!deps) return failed('CASHOUT_LISTING_UNAVAILABLE', 'this node lists no payouts: it has no chain or relayer');
      const requestId = listingRequestId(params.payoutId, params.listing);
      if (!(await deps.deposits().findOne({ _id: requestId }, { projection: { _id: 1 } }))) {
        await deps.payees.register(params.platform, params.payeeId, iso(context));
        const request = await listingRequest(deps, params, requestId, context.clock.now());
        if ('code' in request) return failed('CASHOUT_LISTING_UNAVAILABLE', request.message);
        try {
          await context.ask(depositKind, requestId, { type: 'REQUEST', ...request });
        } catch (error) {
          // A run before this one asked already: its deposit is the listing's.
          if (!(error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS')) throw error;
        }
      }
      const view = await confirmed(deps, requestId, deps.waitMs);
      if (view.status === 'failed')
        return failed('CASHOUT_LISTING_UNAVAILABLE', `the listing could not be made: ${view.failure?.message ?? 'its batch failed'}`);
      const dustUsdc = (await deps.chain.dustThreshold()).toString();
      await reportToSelf<PayoutEvent>(context, { type: 'LISTED', listing: params.listing, depositId: view.depositId, requestId, dustUsdc, at: iso(context) });
    },
    async watchListing(params: { payoutId: string; depositId: string }) {
      await watch?.({ depositId: params.depositId }, { kind: 'payout', id: params.payoutId });
    },
  };
}

/** Waits for the deposit request to be confirmed or failed; a wait that runs out throws, for the retry to go on waiting. */
async function confirmed(deps: PayoutListingDependencies, requestId: string, waitMs: number): Promise<DepositView> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const found = await deps.deposits().findOne({ _id: requestId }, { projection: { view: 1 } });
    if (found && found.view.status !== 'pending') return found.view;
    if (Date.now() >= deadline) throw new ListingStillPending(`the listing's deposit request ${requestId} is still pending`);
    await sleep(POLL_MS);
  }
}

async function listingRequest(deps: PayoutListingDependencies, params: ListPayoutParams, requestId: string, at: number) {
  const { targets } = deps.chain;
  const amount = BigInt(params.amountUsdc);
  const method = keccak256(toBytes(params.platform));
  // Deposit 0 is the placeholder the batch fills with the id it reserved (machines/deposit/atomic-calls.ts).
  const calls = {
    approve: encodeFunctionData({ abi: usdcFunctionsAbi, functionName: 'approve', args: [targets.escrow, amount] }),
    createDeposit: encodeFunctionData({
      abi: escrowFunctionsAbi,
      functionName: 'createDeposit',
      args: [targets.usdc, amount, { min: BigInt(params.minUsdc), max: BigInt(params.maxUsdc) }, zeroAddress, zeroAddress],
    }),
    configureDeposits: [
      encodeFunctionData({ abi: escrowFunctionsAbi, functionName: 'setPaymentMethod', args: [0n, method, keccak256(toBytes(params.payeeId))] }),
      encodeFunctionData({
        abi: escrowFunctionsAbi,
        functionName: 'setCurrencyMinRate',
        args: [0n, method, keccak256(toBytes(params.currency)), BigInt(params.rate)],
      }),
    ],
  };
  const checked = checkAtomicCalls(calls, targets);
  if ('code' in checked) return checked;
  const wallet = params.walletAddress as Hex;
  return {
    requestId,
    wallet,
    chainId: targets.chainId,
    escrow: targets.escrow,
    fingerprint: createHash('sha256')
      .update(canonicalJson({ wallet: wallet.toLowerCase(), calls: checked.calls.map(({ field, data }) => ({ field, data })) }))
      .digest('hex'),
    calls: checked.calls,
    amount: checked.amount,
    depositId: await reserveDepositId(deps.chain, deps.deposits(), null),
    at,
  };
}
