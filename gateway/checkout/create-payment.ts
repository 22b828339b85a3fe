/**
 * A customer starts paying an order: the best offer on the rail they picked becomes a
 * `payment` actor, which reserves it (a live attempt signals its intent on the deposit)
 * and tells the order. One attempt is open at a time: another open one is refused with
 * PAYMENT_IN_PROGRESS unless the request names it as the one it replaces, which is then
 * cancelled first (PAYMENT_CANCELLED), when the order's rule (replaceable in
 * machines/order/order-payments.ts) lets a newer attempt end it. Two creates racing past
 * that check both start, and the order cancels the older by the same rule, so at most one stays open.
 */
import type { OrderView } from '../../actors/kinds/order-kind.js';
import { paymentKind, type PaymentView } from '../../actors/kinds/payment-kind.js';
import { replaceable } from '../../machines/order/index.js';
import type { ReferralSplitConfig } from '../../machines/merchant/index.js';
import { buyerShareBps } from '../../machines/payment/index.js';
import type { PaymentHex as Hex, PaymentInput } from '../../machines/payment/index.js';
import { ApiError, fieldError } from '../envelope.js';
import { newId } from '../ids.js';
import type { CreatePaymentBody } from '../payments/payment-schemas.js';
import { liveRecipient } from './live-recipient.js';
import { orderCurrency, Quoter, type QuoteDependencies } from './quotes.js';

export interface CreatePaymentDependencies extends QuoteDependencies {
  now(): string;
}

/** How many offers a create considers when the request names no quoteLimit. */
const DEFAULT_DEPTH = 5;

/**
 * A FULFILLED or CANCELLED order takes no new payment: ORDER_NOT_PAYABLE. Quotes ask it
 * too, since a fulfilled order owes nothing and there is nothing to price.
 */
export function checkPayable(view: OrderView): void {
  const { order } = view;
  if (order.status === 'FULFILLED' || order.status === 'CANCELLED') {
    throw new ApiError(409, `Order ${order.id} is ${order.status} and takes no new payment`, 'ORDER_NOT_PAYABLE');
  }
}

/** `orderClockId` comes with the order's view (customerOrderOnClock), so the order is read once. */
export async function createPayment(
  deps: CreatePaymentDependencies,
  view: OrderView,
  body: CreatePaymentBody,
  orderClockId: string | undefined,
): Promise<PaymentView> {
  const { order } = view;
  checkPayable(view);
  if (body.fiatCurrency !== undefined && body.currency !== undefined && body.fiatCurrency !== body.currency) {
    throw fieldError('currency', 'names another currency than fiatCurrency; send one of them');
  }
  const payments = deps.system.views(paymentKind);
  if (body.replacementPaymentId !== undefined) {
    const replaced = await payments.findOne({ _id: body.replacementPaymentId, 'view.orderId': order.id }, { projection: { view: 1 } });
    if (!replaced) throw fieldError('replacementPaymentId', 'is not a payment of this order');
  }
  const open = await payments.findOne({ 'view.orderId': order.id, 'view.status': 'CREATED' }, { projection: { view: 1 } });
  if (open && open._id !== body.replacementPaymentId) {
    throw new ApiError(409, `Payment ${open._id} of this order is still open: cancel it, or name it as replacementPaymentId`, 'PAYMENT_IN_PROGRESS', {
      paymentId: open._id,
    });
  }
  // Checked here, not left to the CANCEL below: the payment refuses only a customer's cancel with
  // PAYMENT_NOT_CANCELLABLE, and a replacement's would come back as an undocumented EVENT_NOT_ACCEPTED.
  if (open && !replaceable(open.view)) {
    throw new ApiError(
      409,
      `Payment ${open._id} has a proof being verified or settled, or a transfer being converted; it cannot be replaced now`,
      'PAYMENT_NOT_CANCELLABLE',
    );
  }

  // A payment of an order on a test clock runs on that clock too: its window, polls and retries (docs/test-clocks.md).
  // Only a sandbox order can be on one, so a live payment reads no clock.
  const clockId = view.environment === 'SANDBOX' ? orderClockId : undefined;
  const now = clockId ? new Date(await deps.system.clockTime(clockId)).toISOString() : deps.now();
  // The quote is stamped on the same clock: a crypto attempt's window runs from it.
  const quoter = new Quoter({ ...deps, now: () => now });
  const currency = body.fiatCurrency ?? body.currency;
  const [best] = await quoter.onRail(
    view,
    body.rail,
    { currency, paymentMethodId: body.paymentMethodId, quoteLimit: body.quoteLimit ?? DEFAULT_DEPTH, excludedPayToValues: body.excludedPayToValues },
    orderCurrency(view) ?? null,
  );
  if (!best) throw new ApiError(422, `No maker can take this payment on ${body.rail} now; try another rail or currency`, 'NO_LIQUIDITY');
  const live = view.environment === 'LIVE';
  const settings = deps.payments;
  const recipient = live ? liveRecipient(order.destinationChainId, order.destinationAddress, settings.bridgeWallet ?? null) : (order.destinationAddress as Hex);
  const conversion = best.conversion && { ...best.conversion, recipient, feeRecipient: best.feeRecipient };

  if (open) await deps.system.ask(paymentKind, open._id, { type: 'CANCEL', reason: 'REPLACED', at: now });
  const input: PaymentInput = {
    id: newId('pay'),
    orderId: order.id,
    merchantId: view.merchantId,
    environment: view.environment,
    rail: best.rail,
    paymentMethodId: best.paymentMethodId,
    currency: best.currency,
    proofMode: live ? 'BUYER_TEE' : 'SIMULATED',
    attestationServiceUrl: settings.attestationServiceUrl,
    // A sandbox attempt releases nothing and shows the destination as it is, a bridged one's included.
    quote: { ...best.quote, toAddress: recipient },
    price: best.price,
    fees: best.fees,
    feePayer: order.feePayer,
    buyerShareBps: buyerShareBps(order.feePayer, order.buyerFeeShareBps),
    // The platform's fee is the intent's referrer fee on a fiat rail, the provider's app fee on a crypto one; the order's split shares it.
    referral: {
      referrer: live ? (conversion ? conversion.feeRecipient : (settings.referrer ?? null)) : null,
      split: (conversion ? order.cryptoReferralSplitConfig : order.referralSplitConfig) as ReferralSplitConfig | null,
    },
    paymentAmountCents: best.paymentAmountCents,
    payTo: best.payTo,
    recipientRating: best.recipientRating,
    // With the maker's own session resolving the payment, the memo is all that ties it to this intent.
    memoPolicy: best.quote.sellerAutomatedRelease ? 'REQUIRED' : 'OPTIONAL',
    windowMs: best.windowMs,
    chain: live ? settings.chain : null,
    conversion,
    // A crypto attempt's window is the provider's request's: both run from the quote.
    at: conversion ? best.quotedAt : now,
  };
  await deps.system.ask(paymentKind, input.id, { type: 'CREATE', ...input, ...(clockId ? { clockId } : {}) });
  const doc = await payments.findOne({ _id: input.id }, { projection: { view: 1 } });
  return doc!.view;
}
