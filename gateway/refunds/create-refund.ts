/**
 * A merchant refunds all or part of a FULFILLED order (docs/refunds.md): the refund is a
 * payout to the order's customer, which the merchant funds as any payout. The body is
 * schema-valid already; the Idempotency-Key then names the refund's payout exactly as it
 * names a payout (gateway/payouts/create-payout.ts), so the payout actor is the key's record
 * and the create's idempotency table holds for refunds too.
 *
 * The order decides: it reserves the amount (or refuses: not FULFILLED, more than may be
 * refunded) and tells the payout to be made, in one write, so two refunds at once never
 * take more than settled and a reservation never lacks its payout. This request then waits
 * for the payout to prepare and for the order to have heard of it, and answers both.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ErrorCode } from '../../actors/errors/error-codes.js';
import { currentOrderView, orderKind, type OrderView } from '../../actors/kinds/order-kind.js';
import { payoutKind, type PayoutKindView } from '../../actors/kinds/payout-kind.js';
import { canonicalJson } from '../../machines/canonical-json.js';
import { parseUsdc } from '../../machines/money.js';
import type { CheckoutOrder, OrderRefundView } from '../../machines/order/index.js';
import type { PayoutTerms } from '../../machines/payout/payout-types.js';
import { normaliseRails, type PayoutRail } from '../../machines/payout/payout-rails.js';
import { MAX_PAYOUT_USDC, type PayoutSettings } from '../../machines/payout/payout-settings.js';
import type { PayoutView } from '../../machines/payout/payout-view.js';
import { merchantOrder, orderNotFound } from '../checkout/order-access.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import {
  availablePayouts,
  canonicalRefund,
  formatWhole,
  idempotencyKeyOf,
  payoutCreation,
  payoutIdOf,
  payoutRails,
  type CreatePayoutDependencies,
  type PayoutSettingsOfNode,
} from '../payouts/create-payout.js';
import { liveOnly, payoutError } from '../payouts/payout-access.js';
import { positiveMoneyField } from '../validation.js';
import type { CreateRefundBody } from './refund-schemas.js';

export type CreateRefundDependencies = CreatePayoutDependencies;

export interface CreateRefundResult {
  created: boolean;
  refund: OrderRefundView;
  order: CheckoutOrder;
  payout: PayoutView;
  checkoutUrl: string;
}

const POLL_MS = 20;

/** The request as the key compares it: the order, and the body normalised as a payout's (amounts in base units, the e-mail lower-cased, rails in order). */
function refundRequestHash(orderId: string, body: CreateRefundBody, amount: bigint): string {
  const normalised = {
    refundOf: orderId,
    amount: amount.toString(),
    customerEmail: body.customerEmail.toLowerCase(),
    funding: {
      chainId: body.funding.chainId,
      tokenAddress: body.funding.tokenAddress.startsWith('0x') ? body.funding.tokenAddress.toLowerCase() : body.funding.tokenAddress,
      refundAddress: body.funding.refundAddress === undefined ? null : canonicalRefund(body.funding.chainId, body.funding.refundAddress),
    },
    merchantReference: body.merchantReference ?? null,
    returnUrl: body.returnUrl ?? null,
    rails: body.rails ? normaliseRails(body.rails as PayoutRail[]) : null,
    metadata: body.metadata ?? null,
  };
  return createHash('sha256').update(canonicalJson(normalised)).digest('hex');
}

/**
 * Document 2's rules that hold for a refund's payout: payouts set up and on, at most one
 * payout's maximum, a funding token the account allows, the rails. Not the payout step (a
 * refund is any amount) and no merchant fee (the merchant would pay it to itself).
 */
function refundTerms(node: PayoutSettingsOfNode, settings: PayoutSettings | null, body: CreateRefundBody, amount: bigint): PayoutTerms {
  const { settings: on, ...available } = availablePayouts(node, settings);
  if (amount > MAX_PAYOUT_USDC)
    throw payoutError('PAYOUT_ABOVE_MAX', `A refund is paid by one payout, at most ${formatWhole(MAX_PAYOUT_USDC)} USDC: refund more in several refunds`);
  return { ...available, merchantFeeBps: 0, merchantWalletAddress: null, payoutStepUsdc: 1n, rails: payoutRails(node, on, body) };
}

export async function createRefund(
  deps: CreateRefundDependencies,
  account: MerchantAccount,
  orderId: string,
  body: CreateRefundBody,
  keyHeader: string | undefined,
): Promise<CreateRefundResult> {
  liveOnly(account);
  const key = idempotencyKeyOf(keyHeader);
  const amount = positiveMoneyField('amount', () => parseUsdc(body.amount));
  const order = await merchantOrder(deps.system, account, orderId);
  const hash = refundRequestHash(orderId, body, amount);
  const id = payoutIdOf(account.merchantId, key);

  const existing = await payoutOf(deps, id);
  // The order holds the refund and tells its payout to be made: a request with this key got there first and is still running.
  if (!existing && refundState(order, id) !== null)
    throw payoutError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'A request with this Idempotency-Key is still running');
  if (existing) {
    if (existing.view.requestHash !== hash) return conflict(deps, orderId, id, existing.view);
    if (existing.view.phase === 'PREPARING') throw payoutError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'A request with this Idempotency-Key is still running');
    if (existing.view.phase !== 'NOT_CREATED') return settled(deps, orderId, id, hash, 0, false, () => Promise.resolve());
  }
  // A new refund, or one whose payout failed to prepare: the order reserves it and has its payout made, or prepared again.
  const payout = payoutCreation(deps, {
    id,
    merchantId: account.merchantId,
    idempotencyKey: key,
    requestHash: hash,
    customerEmail: body.customerEmail,
    merchantReference: body.merchantReference ?? null,
    returnUrl: body.returnUrl ?? null,
    payoutUsdc: amount,
    funding: body.funding,
    terms: refundTerms(deps.payoutSettings, account.payouts, body, amount),
    refundOf: { orderId },
  });
  // Refused with the order's ORDER_NOT_REFUNDABLE or REFUND_EXCEEDS_REFUNDABLE, answered with their rows' statuses.
  const reserve = async () => {
    await deps.system.ask(orderKind, orderId, { type: 'REFUND', payoutId: id, amountUsdc: amount, metadata: body.metadata ?? null, payout, at: deps.now() });
  };
  await reserve();
  return settled(deps, orderId, id, hash, existing?.version ?? 0, true, reserve);
}

/** The order of this merchant and environment, or the 404 an order of another answers. */
async function payoutOf(deps: CreateRefundDependencies, id: string): Promise<{ view: PayoutKindView; version: number } | null> {
  const doc = await deps.system.views(payoutKind).findOne({ _id: id }, { projection: { view: 1, version: 1 } });
  return doc ? { view: doc.view, version: doc.version } : null;
}

/**
 * The key names a payout another request made (another body, another order, or a payout of
 * its own): 409. Had this request's order reserved a refund under the key meanwhile (the two
 * raced), the payout it told to be made was refused as existing, so the reservation can never
 * have its payout: the order lets it go.
 */
async function conflict(deps: CreateRefundDependencies, orderId: string, id: string, payout: PayoutKindView): Promise<never> {
  if (payout.refundOf?.orderId !== orderId && refundState(await orderViewOf(deps, orderId), id) === 'RESERVED')
    await deps.system.ask(orderKind, orderId, { type: 'REFUND_PAYOUT_NOT_CREATED', payoutId: id, at: deps.now() });
  throw payoutError('IDEMPOTENCY_KEY_CONFLICT', 'This Idempotency-Key was used with a different request');
}

async function orderViewOf(deps: CreateRefundDependencies, orderId: string): Promise<OrderView> {
  const doc = await deps.system.views(orderKind).findOne({ _id: orderId });
  if (!doc) throw orderNotFound();
  return currentOrderView(doc);
}

const refundState = (order: OrderView, payoutId: string) => order.refundStates.find((refund) => refund.payoutId === payoutId)?.state ?? null;

/**
 * Waits until the payout and the order agree on how the refund stands, then answers: the
 * payout created and the order holding the refund PENDING or later; or the payout failed to
 * prepare (a preparation after `since`, the payout's version when the order was asked) and
 * the order let the amount go, so the same request can be sent again at once. An order that
 * let go of the refund while the payout did not move was asked while it still held an earlier
 * reservation: it is asked again. Past the create's wait, the request is still running.
 */
async function settled(
  deps: CreateRefundDependencies,
  orderId: string,
  id: string,
  hash: string,
  since: number,
  created: boolean,
  reserve: () => Promise<void>,
): Promise<CreateRefundResult> {
  const deadline = Date.now() + deps.payoutSettings.prepareTimeoutMs;
  for (;;) {
    const [payout, order] = await Promise.all([payoutOf(deps, id), orderViewOf(deps, orderId)]);
    if (payout && payout.view.requestHash !== hash) return conflict(deps, orderId, id, payout.view);
    // The order shows a refund once it heard its payout was created.
    const refund = order.refunds.find((candidate) => candidate.payoutId === id);
    if (payout?.view.payout && refund) return { created, refund, order: order.order, payout: payout.view.payout, checkoutUrl: await deps.checkoutUrl(id) };
    if (payout?.view.phase === 'NOT_CREATED' && refundState(order, id) === 'RELEASED') {
      if (payout.version > since && payout.view.preparationError) {
        // The effects report only codes of the error table (actors/payouts/payout-effects.ts).
        const { code, message } = payout.view.preparationError;
        throw payoutError(code as ErrorCode, message);
      }
      await reserve();
    }
    if (Date.now() >= deadline)
      throw payoutError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'The refund is still being prepared; send the same request with the same Idempotency-Key again');
    await sleep(POLL_MS);
  }
}
