/**
 * The customer's endpoints, under /api/v1/checkout/orders/{orderId}: what the hosted
 * checkout page (or a merchant's own page) calls with the order token, never an API key.
 * Quotes, then a payment attempt, and the attempt's steps: cancel, mark sent, submit a
 * proof (live), simulate (sandbox). An open amount is set here too. docs/payments.md has
 * the flow and every code.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { paymentKind, type PaymentView } from '../../actors/kinds/payment-kind.js';
import type { CommandOf } from '../../actors/runtime/actor-kind.js';
import { formatRate, formatUsdc } from '../../machines/money.js';
import { currencyPerUsdRate } from '../../machines/payment/index.js';
import { reply, sendRendered } from '../envelope.js';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';
import { checkPayable, createPayment, type CreatePaymentDependencies } from '../checkout/create-payment.js';
import { customerOrder, customerOrderOnClock } from '../checkout/order-access.js';
import { customerPayment, hostedPayment } from '../checkout/customer-payments.js';
import { displayAmount, orderCurrency, payableRails, Quoter, spreadBps, type QuoteCandidate } from '../checkout/quotes.js';
import { setOrderAmount } from '../checkout/set-amount.js';
import type { HostedOrders } from '../orders/hosted-orders.js';
import { checkoutOrderPath, checkoutPaymentPath, createPaymentBody, quotesQuery, setAmountBody, submitProofBody } from '../payments/payment-schemas.js';
import { checkoutPayment, checkoutQuotes } from '../payments/payment-resources.js';
import { parseOrThrow } from '../validation.js';
import { ApiError } from '../envelope.js';

export interface CheckoutRouteDependencies extends CreatePaymentDependencies {
  orderMaxUsdc: bigint;
  hostedOrders: HostedOrders;
  body: Middleware<GatewayState>;
}

export const CHECKOUT_PREFIX = '/api/v1/checkout/orders';

const SKIPPED_ACROSS_RAILS = new Set(['CURRENCY_NOT_SUPPORTED', 'RAIL_NOT_SUPPORTED']);

export function checkoutRoutes(deps: CheckoutRouteDependencies): Router<GatewayState> {
  const router = exactRouter(CHECKOUT_PREFIX);
  const quoter = new Quoter(deps);
  const order = (ctx: Context) => {
    const { orderId } = parseOrThrow(checkoutOrderPath, ctx.params);
    return customerOrder(deps.system, orderId, ctx.get('authorization') || undefined);
  };
  const payment = async (ctx: Context) => {
    const { orderId, paymentId } = parseOrThrow(checkoutPaymentPath, ctx.params);
    await customerOrder(deps.system, orderId, ctx.get('authorization') || undefined);
    return customerPayment(deps.system, orderId, paymentId);
  };
  const answer = (ctx: Context, status: number, message: string, view: PaymentView) => reply(ctx, status, message, checkoutPayment, hostedPayment(view));
  const command = (message: string, commandAt: (at: string) => CommandOf<typeof paymentKind>) => async (ctx: Context) => {
    const view = await payment(ctx);
    answer(ctx, 200, message, await deps.system.ask(paymentKind, view.payment.id, commandAt(deps.now())));
  };

  router.get('/:orderId/quotes', async (ctx) => {
    const view = await order(ctx);
    const query = parseOrThrow(quotesQuery, ctx.query);
    // A fulfilled order owes nothing: pricing it would fail (a payment covers a positive amount).
    checkPayable(view);
    const preferred = query.currency ?? orderCurrency(view);
    const rails = query.rail === undefined ? payableRails(view) : [query.rail];
    const quotes: QuoteCandidate[] = [];
    for (const rail of rails) {
      try {
        quotes.push(...(await quoter.onRail(view, rail, query, preferred)));
      } catch (error) {
        // Across every rail, one that cannot send the currency asked for, or that this node does not serve, is left out, not an error.
        if (query.rail !== undefined || !(error instanceof ApiError) || !SKIPPED_ACROSS_RAILS.has(error.errorCode ?? '')) throw error;
      }
    }
    reply(ctx, 200, 'Quotes', checkoutQuotes, { orderId: view.order.id, fiatCurrency: orderCurrency(view), platforms: quotes.map(quoteEntry) });
  });

  router.post('/:orderId/payments', deps.body, async (ctx) => {
    const { orderId } = parseOrThrow(checkoutOrderPath, ctx.params);
    const { view, clockId } = await customerOrderOnClock(deps.system, orderId, ctx.get('authorization') || undefined);
    const body = parseOrThrow(createPaymentBody, ctx.request.body);
    answer(ctx, 201, 'Payment created', await createPayment(deps, view, body, clockId));
  });

  router.get('/:orderId/payments/:paymentId', async (ctx) => answer(ctx, 200, 'Payment', await payment(ctx)));
  router.post(
    '/:orderId/payments/:paymentId/cancel',
    command('Payment cancelled', (at) => ({ type: 'CANCEL', reason: 'CUSTOMER', at })),
  );
  router.post(
    '/:orderId/payments/:paymentId/sent',
    command('Payment marked as sent', (at) => ({ type: 'MARK_SENT', at })),
  );
  router.post(
    '/:orderId/payments/:paymentId/simulate',
    command('Payment simulated', (at) => ({ type: 'SIMULATE_PAYMENT', at })),
  );
  router.post('/:orderId/payments/:paymentId/proof', deps.body, async (ctx) => {
    const view = await payment(ctx);
    const proof = parseOrThrow(submitProofBody, ctx.request.body);
    const replied = await deps.system.ask(paymentKind, view.payment.id, { type: 'SUBMIT_PROOF', proof, at: deps.now() });
    answer(ctx, 202, 'Proof submitted: the payment is being verified', replied);
  });

  router.post('/:orderId/amount', deps.body, async (ctx) => {
    const view = await order(ctx);
    await setOrderAmount(deps, view, parseOrThrow(setAmountBody, ctx.request.body));
    sendRendered(ctx, (await deps.hostedOrders.answer(view.order.id))!);
  });

  return router;
}

function quoteEntry(candidate: QuoteCandidate) {
  const rate = currencyPerUsdRate(candidate.quote.conversionRate);
  const spread = candidate.referenceRate === null ? 0n : spreadBps(candidate.quote.conversionRate, candidate.referenceRate);
  return {
    platform: candidate.rail,
    displayAmount: displayAmount(candidate),
    spreadPercentage: Number(spread) / 100,
    paymentMethodId: candidate.paymentMethodId,
    currency: candidate.currency,
    currencyPerUsdRate: formatRate(rate),
    totalUsdcFeeAmount: formatUsdc(candidate.price.totalFeeUsdc),
    payTo: candidate.payTo,
    recipientRating: candidate.recipientRating,
  };
}
