/**
 * POST /api/v1/payouts as a command. The body is schema-valid already (validation runs
 * before the key is looked at); then the Idempotency-Key, whose payout id is derived from
 * the merchant and the key, so the payout actor is the key's record:
 *
 * - no actor: the merchant's settings are checked, copied onto a new payout, and the
 *   request waits while it prepares the customer's wallet and the deposit address;
 * - an actor with another request's hash: 409 IDEMPOTENCY_KEY_CONFLICT;
 * - still preparing: 409 IDEMPOTENCY_REQUEST_IN_PROGRESS;
 * - failed to prepare: the same request prepares again (document 2: retry with the same key);
 * - created: 200, the payout as it is now, idempotentReplay true.
 *
 * A replay answers whatever the merchant's settings are now: they were copied at creation.
 */
import { createHash } from 'node:crypto';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { CommandRejectedError } from '../../actors/errors.js';
import { payoutKind, type PayoutKindView } from '../../actors/kinds/payout-kind.js';
import type { ErrorCode } from '../../actors/errors/error-codes.js';
import { canonicalJson } from '../../machines/canonical-json.js';
import { parseUsdc } from '../../machines/money.js';
import { canonicalBitcoinAddress } from '../../machines/payout/bitcoin-address.js';
import { BASE_CHAIN_ID, BASE_USDC_ADDRESS, fundingChain, fundingToken } from '../../machines/payout/funding-catalog.js';
import { payoutQuoteAmounts } from '../../machines/payout/payout-amounts.js';
import { normaliseRails, type PayoutRail } from '../../machines/payout/payout-rails.js';
import { fundingTokenKey, MAX_PAYOUT_USDC, type PayoutSettings } from '../../machines/payout/payout-settings.js';
import type { PayoutView } from '../../machines/payout/payout-view.js';
import type { PayoutInput, PayoutTerms } from '../../machines/payout/payout-types.js';
import { derivedId } from '../ids.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import { untilView } from '../view-poll.js';
import { moneyField } from '../validation.js';
import { liveOnly, payoutError, payoutViewOf } from './payout-access.js';
import type { CreatePayoutBody } from './payout-schemas.js';
import { IDEMPOTENCY_KEY_PATTERN } from './payout-schemas.js';

export interface PayoutSettingsOfNode {
  /** Where the service's fee is delivered; null: payouts cannot be created on this node. */
  serviceWalletAddress: string | null;
  /** Payout rails and funding tokens switched off platform-wide. */
  railsOff: ReadonlySet<string>;
  fundingTokensOff: ReadonlySet<string>;
  fundingWindowMs: number;
  pollMs: number;
  /** How long a create waits for its payout to prepare before answering that it is still running. */
  prepareTimeoutMs: number;
}

export interface CreatePayoutDependencies {
  system: ActorSystem;
  payoutSettings: PayoutSettingsOfNode;
  checkoutUrl(payoutId: string): Promise<string>;
  now(): string;
}

export type CreatePayoutResult = { created: boolean; payout: PayoutView; checkoutUrl: string };

/** The request as the key compares it: e-mail lower-cased, rails in PayoutRail order, amounts in base units, a bc1 refund lower-case. */
export function payoutRequestHash(body: CreatePayoutBody, amount: bigint): string {
  const normalised = {
    customerEmail: body.customerEmail.toLowerCase(),
    payout: { amount: amount.toString(), chainId: body.payout.chainId, tokenAddress: body.payout.tokenAddress.toLowerCase() },
    funding: {
      chainId: body.funding.chainId,
      tokenAddress: body.funding.tokenAddress.startsWith('0x') ? body.funding.tokenAddress.toLowerCase() : body.funding.tokenAddress,
      refundAddress: body.funding.refundAddress === undefined ? null : canonicalRefund(body.funding.chainId, body.funding.refundAddress),
    },
    merchantReference: body.merchantReference ?? null,
    returnUrl: body.returnUrl ?? null,
    rails: body.rails ? normaliseRails(body.rails as PayoutRail[]) : null,
  };
  return createHash('sha256').update(canonicalJson(normalised)).digest('hex');
}

export function canonicalRefund(chainId: number, address: string): string {
  return fundingChain(chainId)?.kind === 'bitcoin' ? canonicalBitcoinAddress(address) : address.toLowerCase();
}

/**
 * The payout an Idempotency-Key names. Not keyed by the node's ID_SECRET: it must be the same
 * on every node and after every restart, or a retried create would make a second payout.
 * Knowing it gives nothing: every payout route needs the merchant's key, the checkout its link token.
 */
export function payoutIdOf(merchantId: string, key: string): string {
  return derivedId('po', 'payout-idempotency-key', merchantId, key);
}

export function idempotencyKeyOf(header: string | undefined): string {
  if (header === undefined || !IDEMPOTENCY_KEY_PATTERN.test(header))
    throw payoutError('INVALID_IDEMPOTENCY_KEY', 'The Idempotency-Key header is required: 8 to 128 letters, digits, _ or -');
  return header;
}

export async function createPayout(
  deps: CreatePayoutDependencies,
  account: MerchantAccount,
  body: CreatePayoutBody,
  keyHeader: string | undefined,
): Promise<CreatePayoutResult> {
  liveOnly(account);
  const key = idempotencyKeyOf(keyHeader);
  const amount = moneyField('payout', () => parseUsdc(body.payout.amount));
  if (body.payout.chainId !== BASE_CHAIN_ID || body.payout.tokenAddress.toLowerCase() !== BASE_USDC_ADDRESS.toLowerCase())
    throw payoutError('PAYOUT_TOKEN_UNSUPPORTED', `A payout is paid in USDC on Base: chainId ${BASE_CHAIN_ID}, tokenAddress ${BASE_USDC_ADDRESS}`);
  const hash = payoutRequestHash(body, amount);
  const id = payoutIdOf(account.merchantId, key);

  const existing = await payoutViewOf(deps.system, id);
  if (existing) return answerExisting(deps, id, existing, hash);

  const terms = checkedTerms(deps.payoutSettings, account.payouts, body, amount);
  try {
    await deps.system.ask(
      payoutKind,
      id,
      payoutCreation(deps, {
        id,
        merchantId: account.merchantId,
        idempotencyKey: key,
        requestHash: hash,
        customerEmail: body.customerEmail,
        merchantReference: body.merchantReference ?? null,
        returnUrl: body.returnUrl ?? null,
        payoutUsdc: amount,
        funding: body.funding,
        terms,
      }),
    );
  } catch (error) {
    // A concurrent request with the same key made it first.
    if (error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS') {
      const raced = await payoutViewOf(deps.system, id);
      if (raced) return answerExisting(deps, id, raced, hash);
    }
    throw error;
  }
  return awaitPrepared(deps, id);
}

/** What a payout is made of that a request decides: the rest (its quote, its funding token's facts, the node's windows) follows from it. */
export interface PayoutRequest {
  id: string;
  merchantId: string;
  idempotencyKey: string;
  requestHash: string;
  customerEmail: string;
  merchantReference: string | null;
  returnUrl: string | null;
  payoutUsdc: bigint;
  funding: CreatePayoutBody['funding'];
  terms: PayoutTerms;
  /** An order's refund (docs/refunds.md): the order it refunds. */
  refundOf?: { orderId: string };
}

/** The message that creates the payout: the request with its quote, its funding token as the catalog has it, and the node's windows. */
export function payoutCreation(deps: Pick<CreatePayoutDependencies, 'payoutSettings' | 'now'>, request: PayoutRequest): { type: 'CREATE' } & PayoutInput {
  const { funding, terms, payoutUsdc, refundOf, customerEmail, ...rest } = request;
  const token = fundingToken(funding.chainId, funding.tokenAddress)!;
  const quote = payoutQuoteAmounts(payoutUsdc, token.stable, terms.merchantFeeBps, terms.serviceFeeBps);
  return {
    type: 'CREATE',
    ...rest,
    customerEmail: customerEmail.toLowerCase(),
    payoutUsdc,
    funding: {
      chainId: funding.chainId,
      tokenAddress: token.address,
      symbol: token.symbol,
      decimals: token.decimals,
      stable: token.stable,
      refundAddress: funding.refundAddress === undefined ? null : canonicalRefund(funding.chainId, funding.refundAddress),
    },
    terms,
    bufferUsdc: quote.bufferUsdc,
    expectedUsdc: quote.expectedUsdc,
    depositUsdc: quote.depositUsdc,
    merchantFeeUsdc: quote.merchantFeeUsdc,
    fundingWindowMs: deps.payoutSettings.fundingWindowMs,
    pollMs: deps.payoutSettings.pollMs,
    ...(refundOf ? { refundOf } : {}),
    at: deps.now(),
  };
}

async function answerExisting(deps: CreatePayoutDependencies, id: string, view: PayoutKindView, hash: string): Promise<CreatePayoutResult> {
  if (view.requestHash !== hash) throw payoutError('IDEMPOTENCY_KEY_CONFLICT', 'This Idempotency-Key was used with a different request');
  if (view.phase === 'PREPARING') throw payoutError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'A request with this Idempotency-Key is still running');
  if (view.phase === 'NOT_CREATED') {
    try {
      await deps.system.ask(payoutKind, id, { type: 'RETRY', at: deps.now() });
    } catch (error) {
      if (error instanceof CommandRejectedError) throw payoutError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'A request with this Idempotency-Key is still running');
      throw error;
    }
    return awaitPrepared(deps, id);
  }
  return { created: false, payout: view.payout!, checkoutUrl: await deps.checkoutUrl(id) };
}

/** Waits for the payout's preparation: created, refused with the provider's or wallet's code, or still running. */
async function awaitPrepared(deps: CreatePayoutDependencies, id: string): Promise<CreatePayoutResult> {
  const view = await untilView(deps.system.views(payoutKind), id, (candidate) => candidate.phase !== 'PREPARING', deps.payoutSettings.prepareTimeoutMs);
  if (view?.payout) return { created: true, payout: view.payout, checkoutUrl: await deps.checkoutUrl(id) };
  if (view?.phase === 'NOT_CREATED' && view.preparationError) {
    // The effects report only codes of the error table (actors/payouts/payout-effects.ts).
    throw payoutError(view.preparationError.code as ErrorCode, view.preparationError.message);
  }
  throw payoutError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'The payout is still being prepared; send the same request with the same Idempotency-Key again');
}

/** Document 2's availability and limits, in the order its error table gives them, against the merchant's settings and the node's switches. */
function checkedTerms(node: PayoutSettingsOfNode, settings: PayoutSettings | null, body: CreatePayoutBody, amount: bigint): PayoutTerms {
  const { settings: on, ...available } = availablePayouts(node, settings);
  if (available.merchantFeeBps > 0 && !available.merchantWalletAddress)
    throw payoutError('PAYOUT_MERCHANT_WALLET_MISSING', 'A merchant fee is set but no merchant wallet receives it');
  const step = available.payoutStepUsdc;
  if (amount < step || amount % step !== 0n)
    throw payoutError('PAYOUT_NOT_STEP_MULTIPLE', `A payout is a whole multiple of ${formatWhole(step)} USDC, at least one step`);
  if (amount > MAX_PAYOUT_USDC) throw payoutError('PAYOUT_ABOVE_MAX', `A payout is at most ${formatWhole(MAX_PAYOUT_USDC)} USDC`);
  return { ...available, rails: payoutRails(node, on, body) };
}

/** Payouts are set up and on for the account: the settings as a payout copies them (rails chosen per request). */
export function availablePayouts(node: PayoutSettingsOfNode, settings: PayoutSettings | null) {
  if (!settings || !node.serviceWalletAddress)
    throw payoutError('MERCHANT_CONFIG_MISSING', 'Payouts are not set up on this account yet: ask for payout settings to be configured');
  if (settings.methods.length === 0) throw payoutError('PAYOUTS_DISABLED', 'Every payout method is turned off on this account');
  return {
    settings,
    merchantFeeBps: settings.merchantFeeBps,
    merchantWalletAddress: settings.merchantWalletAddress,
    serviceFeeBps: settings.serviceFeeBps,
    serviceWalletAddress: node.serviceWalletAddress,
    payoutStepUsdc: settings.payoutStepUsdc,
  };
}

/** The funding token allowed, and the rails the payout offers: the account's effective ones, limited to those the request names. */
export function payoutRails(
  node: PayoutSettingsOfNode,
  settings: PayoutSettings,
  request: { funding: { chainId: number; tokenAddress: string }; rails?: string[] | undefined },
): PayoutRail[] {
  const token = fundingToken(request.funding.chainId, request.funding.tokenAddress);
  const tokenKey = fundingTokenKey(request.funding.chainId, request.funding.tokenAddress);
  if (!token || node.fundingTokensOff.has(tokenKey) || (settings.fundingTokens !== null && !settings.fundingTokens.includes(tokenKey)))
    throw payoutError(
      'PAYOUT_FUNDING_TOKEN_UNSUPPORTED',
      `${request.funding.tokenAddress} on chain ${request.funding.chainId} cannot fund a payout on this account`,
    );
  const effective = settings.methods.filter((rail) => !node.railsOff.has(rail));
  if (effective.length === 0) throw payoutError('PAYOUT_NO_RAILS_AVAILABLE', 'Every payout method turned on for this account is switched off');
  const rails = request.rails ? normaliseRails(effective.filter((rail) => request.rails!.includes(rail))) : normaliseRails(effective);
  if (rails.length === 0) throw payoutError('PAYOUT_REQUESTED_RAILS_UNAVAILABLE', 'None of the requested rails is available on this account');
  return rails;
}

export const formatWhole = (units: bigint) => (units / 1_000_000n).toString();
