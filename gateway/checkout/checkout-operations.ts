/**
 * The customer's operations, under /api/v1/checkout/orders/{orderId}: what the hosted
 * checkout page (or a merchant's own page) calls with the order token, never an API key.
 * Quotes, then a payment attempt, and the attempt's steps: cancel, mark sent, submit a
 * proof (live), simulate (sandbox). An open amount is set here too. docs/payments.md has
 * the flow and every code.
 *
 * The order token is checked before a query or body is read, so a caller without the
 * order's token learns nothing from a 400: those parts are documented, and parsed by the
 * handler once the order is the caller's.
 */
import type { Context } from 'koa';
import { paymentKind, type PaymentView } from '../../actors/kinds/payment-kind.js';
import type { CommandOf } from '../../actors/runtime/actor-kind.js';
import { formatRate, formatUsdc } from '../../machines/money.js';
import { currencyPerUsdRate } from '../../machines/payment/index.js';
import { ApiError, reply, sendRendered } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { orderTokenRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { hostedOrder } from '../orders/order-resources.js';
import type { HostedOrders } from '../orders/hosted-orders.js';
import { checkoutOrderPath, checkoutPaymentPath, createPaymentBody, quotesQuery, setAmountBody, submitProofBody } from '../payments/payment-schemas.js';
import { checkoutPayment, checkoutQuotes } from '../payments/payment-resources.js';
import { parseOrThrow } from '../validation.js';
import {
  conversionUnavailable,
  detailedFailure,
  amountRange,
  liveUnavailable,
  notOpen,
  paymentNotFound,
  railRefusals,
  stepAnswers,
} from './checkout-answers.js';
import { checkPayable, createPayment, type CreatePaymentDependencies } from './create-payment.js';
import { customerPayment, hostedPayment } from './customer-payments.js';
import { customerOrder, customerOrderOnClock } from './order-access.js';
import { displayAmount, orderCurrency, payableRails, Quoter, spreadBps, type QuoteCandidate } from './quotes.js';
import { setOrderAmount } from './set-amount.js';
import { z } from 'zod';

export interface CheckoutDependencies extends CreatePaymentDependencies {
  orderMaxUsdc: bigint;
  hostedOrders: HostedOrders;
}

export function checkoutOperations(): Operation<CheckoutDependencies>[] {
  return [quotesOperation, createPaymentOperation, readPaymentOperation, cancelOperation, sentOperation, simulateOperation, proofOperation, setAmountOperation];
}

const PREFIX = '/api/v1/checkout/orders';
const tags = ['Checkout'];

const SKIPPED_ACROSS_RAILS = new Set(['CURRENCY_NOT_SUPPORTED', 'RAIL_NOT_SUPPORTED']);

const authorization = (ctx: Context) => ctx.get('authorization') || undefined;

/** The customer's payment, once the token is checked to be the order's. */
async function payment(deps: CheckoutDependencies, ctx: Context, { orderId, paymentId }: { orderId: string; paymentId: string }) {
  await customerOrder(deps.system, orderId, authorization(ctx));
  return customerPayment(deps.system, orderId, paymentId);
}

function answer(ctx: Context, status: number, message: string, view: PaymentView) {
  reply(ctx, status, message, checkoutPayment, hostedPayment(view));
}

const quotesOperation = defineOperation({
  method: 'get',
  path: `${PREFIX}/:orderId/quotes`,
  operationId: 'getCheckoutQuotes',
  tags,
  summary: 'Quotes for the order, per rail',
  description:
    'The best offers of the makers’ deposits that can take the order now, priced with the fees and the order’s fee payer; a deposit whose price is beyond ORDERBOOK_EXTREME_SPREAD_BPS from the reference rate, either way, is never offered. A sandbox order is quoted at the reference rate. Without rail, every rail of the order that sends the currency; a rail without liquidity has no entry.',
  guard: 'orderToken',
  request: { path: checkoutOrderPath },
  documented: { query: quotesQuery },
  answers: standardAnswers(
    {
      '200': success(200, checkoutQuotes, 'The quotes, best first within each rail'),
      '400': invalid('the path or the query (paymentMethodId not of the rail)'),
      ...orderTokenRefusals,
      '409': failure(409, [{ code: 'ORDER_NOT_PAYABLE', when: 'the order is FULFILLED or CANCELLED: nothing is owed or taken' }]),
      '422': failure(422, railRefusals),
    },
    {
      unavailable: [liveUnavailable, conversionUnavailable, { code: 'RATE_UNAVAILABLE', when: 'the reference rate is stale and its source cannot be reached' }],
    },
  ),
  handle: (deps: CheckoutDependencies) => {
    const quoter = new Quoter(deps);
    return async (ctx, { path }) => {
      const view = await customerOrder(deps.system, path.orderId, authorization(ctx));
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
    };
  },
});

const createPaymentOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/:orderId/payments`,
  operationId: 'createCheckoutPayment',
  tags,
  summary: 'Start paying the order on a rail',
  description:
    'Takes the best offer on the rail and reserves it: a live attempt signals its intent on the maker’s deposit (status CREATED, railIdentifier set once signalled). One attempt is open at a time; replacementPaymentId names the open one this replaces, which is cancelled first (PAYMENT_CANCELLED).',
  guard: 'orderToken',
  request: { path: checkoutOrderPath },
  documented: { body: createPaymentBody },
  answers: standardAnswers(
    {
      '201': success(201, checkoutPayment, 'The new attempt'),
      '400': invalid('the body (currency and fiatCurrency differ, replacementPaymentId not of this order, paymentMethodId not of the rail)'),
      ...orderTokenRefusals,
      '409': detailedFailure(409, [
        { code: 'ORDER_NOT_PAYABLE', when: 'the order is FULFILLED or CANCELLED' },
        {
          code: 'PAYMENT_IN_PROGRESS',
          when: 'another attempt is open and not named as replaced; responseObject.paymentId names it',
          details: z.object({ paymentId: z.string().meta({ description: 'The open attempt' }) }),
        },
        {
          code: 'PAYMENT_NOT_CANCELLABLE',
          when: 'the attempt to replace has a proof being verified or fulfilled, or its transfer is with the conversion provider',
        },
      ]),
      '422': failure(422, [
        ...railRefusals,
        { code: 'NO_LIQUIDITY', when: 'no maker can take the payment on this rail and currency now; nothing was reserved' },
      ]),
    },
    {
      body: true,
      asksActors: true,
      unavailable: [liveUnavailable, conversionUnavailable, { code: 'RATE_UNAVAILABLE', when: 'the reference rate is stale and its source cannot be reached' }],
    },
  ),
  handle:
    (deps: CheckoutDependencies) =>
    async (ctx, { path }) => {
      const { view, clockId } = await customerOrderOnClock(deps.system, path.orderId, authorization(ctx));
      const body = parseOrThrow(createPaymentBody, ctx.request.body);
      answer(ctx, 201, 'Payment created', await createPayment(deps, view, body, clockId));
    },
});

const readPaymentOperation = defineOperation({
  method: 'get',
  path: `${PREFIX}/:orderId/payments/:paymentId`,
  operationId: 'getCheckoutPayment',
  tags,
  summary: 'Read one attempt',
  description: 'With errorCode and errorMessage, as the hosted read shows them.',
  guard: 'orderToken',
  request: { path: checkoutPaymentPath },
  answers: standardAnswers({
    '200': success(200, checkoutPayment, 'The attempt'),
    '400': invalid('the path'),
    '401': orderTokenRefusals['401']!,
    '404': paymentNotFound,
  }),
  handle:
    (deps: CheckoutDependencies) =>
    async (ctx, { path }) => {
      answer(ctx, 200, 'Payment', await payment(deps, ctx, path));
    },
});

const cancelOperation = stepOperation({
  name: 'cancel',
  operationId: 'cancelCheckoutPayment',
  summary: 'Back out of an attempt',
  description:
    'PAYMENT_CANCELLED; a live intent is cancelled on chain, freeing the liquidity; a crypto attempt’s provider request is cancelled, so a later transfer is refunded.',
  answers: stepAnswers(
    [
      {
        status: 409,
        outcomes: [
          notOpen,
          { code: 'PAYMENT_NOT_CANCELLABLE', when: 'a proof is being verified or fulfilled, or the transfer is with the conversion provider' },
        ],
      },
    ],
    false,
  ),
  message: 'Payment cancelled',
  command: (at) => ({ type: 'CANCEL', reason: 'CUSTOMER', at }),
});

const sentOperation = stepOperation({
  name: 'sent',
  operationId: 'markCheckoutPaymentSent',
  summary: 'The customer says they sent the money',
  description: 'Locks an open amount (PAYMENT_MAY_SETTLE) and is shown to support; it proves nothing.',
  answers: stepAnswers([{ status: 409, outcomes: [notOpen] }], false),
  message: 'Payment marked as sent',
  command: (at) => ({ type: 'MARK_SENT', at }),
});

const simulateOperation = stepOperation({
  name: 'simulate',
  operationId: 'simulateCheckoutPayment',
  summary: 'Settle a sandbox attempt',
  description: 'Sandbox only: settles as if paid, with fulfillTransaction sim_<payment id>, and fires every event a live settlement does.',
  answers: stepAnswers(
    [
      { status: 403, outcomes: [{ code: 'LIVE_PAYMENT', when: 'only a sandbox attempt can be simulated' }] },
      { status: 409, outcomes: [notOpen] },
    ],
    false,
  ),
  message: 'Payment simulated',
  command: (at) => ({ type: 'SIMULATE_PAYMENT', at }),
});

const proofOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/:orderId/payments/:paymentId/proof`,
  operationId: 'submitCheckoutPaymentProof',
  tags,
  summary: 'Submit the buyer’s proof of payment (live)',
  description:
    'The buyer’s session material sealed to the attestation service’s key, for that service to read the payment from the platform. 202: it is verified in the background; a rejection leaves the attempt CREATED with errorCode, and the customer may submit again.',
  guard: 'orderToken',
  request: { path: checkoutPaymentPath },
  documented: { body: submitProofBody },
  answers: stepAnswers(
    [
      {
        status: 409,
        outcomes: [
          notOpen,
          { code: 'PAYMENT_NOT_AWAITING_PROOF', when: 'the intent is not signalled yet, or a proof is being checked' },
          { code: 'SANDBOX_PAYMENT', when: 'a sandbox attempt: simulate it instead' },
          { code: 'CRYPTO_PAYMENT', when: 'a crypto attempt: it settles when its transfer arrives, with no proof' },
        ],
      },
    ],
    true,
  ),
  handle:
    (deps: CheckoutDependencies) =>
    async (ctx, { path }) => {
      const view = await payment(deps, ctx, path);
      const proof = parseOrThrow(submitProofBody, ctx.request.body);
      const replied = await deps.system.ask(paymentKind, view.payment.id, { type: 'SUBMIT_PROOF', proof, at: deps.now() });
      answer(ctx, 202, 'Proof submitted: the payment is being verified', replied);
    },
});

const setAmountOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/:orderId/amount`,
  operationId: 'setCheckoutOrderAmount',
  tags,
  summary: 'Set the amount of an open-amount order',
  description: 'In the open amount’s currency, inside its bounds, converted to USDC at today’s rate (ORDER_AMOUNT_SET). Answers the hosted order.',
  guard: 'orderToken',
  request: { path: checkoutOrderPath },
  documented: { body: setAmountBody },
  answers: standardAnswers(
    {
      '200': success(200, hostedOrder, 'The hosted order with its new amount'),
      '400': invalid('the body (an amount with more than 2 decimals, another currency)'),
      ...orderTokenRefusals,
      '409': detailedFailure(409, [
        { code: 'AMOUNT_NOT_ALLOWED', when: 'the order has a fixed amount' },
        {
          code: 'AMOUNT_LOCKED',
          when: 'a payment is in progress, may settle or settled, or the order is no longer open; responseObject.amountLock says why',
          details: z.object({
            amountLock: z.enum(['PAYMENT_IN_PROGRESS', 'PAYMENT_MAY_SETTLE', 'PAID']).nullable().meta({ description: 'Why the amount cannot change' }),
          }),
        },
        {
          code: 'AMOUNT_CONFLICT',
          when: 'amountVersion was sent and the amount has changed since; responseObject.amountVersion is the current one',
          details: z.object({ amountVersion: z.number().int().meta({ description: 'The amount’s current version' }) }),
        },
      ]),
      '422': detailedFailure(422, [
        {
          code: 'AMOUNT_OUT_OF_RANGE',
          when: 'outside the open amount’s bounds (responseObject has minAmount and maxAmount), or over the node’s order limit at today’s rate (responseObject null)',
          details: amountRange.nullable(),
        },
        { code: 'CURRENCY_NOT_SUPPORTED', when: 'no exchange rate prices the currency now' },
      ]),
    },
    { body: true, asksActors: true, unavailable: [{ code: 'RATE_UNAVAILABLE', when: 'the rate is stale and its source cannot be reached' }] },
  ),
  handle:
    (deps: CheckoutDependencies) =>
    async (ctx, { path }) => {
      const view = await customerOrder(deps.system, path.orderId, authorization(ctx));
      await setOrderAmount(deps, view, parseOrThrow(setAmountBody, ctx.request.body));
      sendRendered(ctx, (await deps.hostedOrders.answer(view.order.id))!);
    },
});

/** A step of an attempt with no body: the payment's command, answered with the payment after it. */
function stepOperation(step: {
  name: string;
  operationId: string;
  summary: string;
  description: string;
  answers: ReturnType<typeof stepAnswers>;
  message: string;
  command: (at: string) => CommandOf<typeof paymentKind>;
}) {
  return defineOperation({
    method: 'post',
    path: `${PREFIX}/:orderId/payments/:paymentId/${step.name}`,
    operationId: step.operationId,
    tags,
    summary: step.summary,
    description: step.description,
    guard: 'orderToken',
    request: { path: checkoutPaymentPath },
    answers: step.answers,
    handle:
      (deps: CheckoutDependencies) =>
      async (ctx, { path }) => {
        const view = await payment(deps, ctx, path);
        answer(ctx, 200, step.message, await deps.system.ask(paymentKind, view.payment.id, step.command(deps.now())));
      },
  });
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
