/** The customer's operations under /api/v1/checkout/orders/{orderId}, authenticated by the order token. */
import { z } from 'zod';
import { hostedOrder } from '../orders/order-resources.js';
import { checkoutOrderPath, checkoutPaymentPath, createPaymentBody, quotesQuery, setAmountBody, submitProofBody } from '../payments/payment-schemas.js';
import { checkoutPayment, checkoutQuotes } from '../payments/payment-resources.js';
import { errorCode, failure, invalid, noPayload, standardAnswers, success, type Outcome } from './answers.js';
import { NO_AUTH, ORDER_TOKEN, orderTokenRefusals } from './security.js';
import { SCRIPT_PATH, STYLE_PATH } from '../hosted-page/checkout-page.js';

const PREFIX = '/api/v1/checkout/orders/{orderId}';

/** An outcome whose responseObject carries details (document 1: null on most failures, not all). */
type DetailedOutcome = Outcome & { code: string; details?: z.ZodType };

/**
 * `failure` of answers.ts documents responseObject null for every coded outcome; some of
 * these refusals answer details beside the code (PAYMENT_IN_PROGRESS names the open
 * payment, AMOUNT_CONFLICT the current version, …), which a client branches on. Each
 * outcome here is its own variant: its code with its details, or with null when it has none.
 */
function detailedFailure(status: number, outcomes: DetailedOutcome[]) {
  const envelope = {
    success: z.literal(false).meta({ description: 'False: a failure' }),
    message: z.string().meta({ description: 'For a log line, not for matching' }),
    statusCode: z.literal(status).meta({ description: 'The HTTP status' }),
  };
  const variants = outcomes.map(({ code, details }) =>
    z.object({
      ...envelope,
      errorCode: errorCode([code]),
      responseObject: details?.meta({ description: 'What the code is about (see the list above)' }) ?? noPayload,
    }),
  );
  const schema = variants.length === 1 ? variants[0]! : z.union(variants);
  return { ...failure(status, outcomes), content: { 'application/json': { schema } } };
}

const amountRange = z
  .object({
    minAmount: z.string().meta({ description: 'The smallest amount allowed' }),
    maxAmount: z.string().nullable().meta({ description: 'The largest amount allowed; null for no maximum but the node’s order limit' }),
  })
  .meta({ description: 'The range the amount must be in, in the open amount’s currency' });
const paymentNotFound = failure(404, [
  { code: 'NOT_FOUND', when: 'No order with that id, the token is not its token, or the payment is not one of its attempts' },
]);

const railRefusals: Outcome[] = [
  { code: 'AMOUNT_REQUIRED', when: 'an open-amount order whose amount nobody set yet' },
  { code: 'RAIL_NOT_ENABLED', when: 'the order does not take this rail' },
  {
    code: 'RAIL_NOT_SUPPORTED',
    when: 'a crypto rail whose chain the conversion provider does not serve, or a live crypto rail on a node with no conversion provider',
  },
  { code: 'CURRENCY_NOT_SUPPORTED', when: 'the rail does not send this currency (on a crypto rail: the provider does not take this token)' },
  {
    code: 'CONVERSION_REFUSED',
    when: 'a crypto rail: the conversion provider refused the request (an amount out of its range, a destination it does not deliver to)',
  },
];
const conversionUnavailable: Outcome = { code: 'CONVERSION_PROVIDER_UNAVAILABLE', when: 'a crypto rail: the conversion provider did not answer' };
const liveUnavailable: Outcome = {
  code: 'LIVE_PAYMENTS_UNAVAILABLE',
  when: 'a live order on a node that takes sandbox payments only (no chain, gating key or attestation service), or while the chain, its indexer or (on a fiat rail) the attestation service does not answer, or the node’s data was written against another chain: retry after Retry-After',
};

const step = (operationId: string, summary: string, description: string, refusals: { status: number; outcomes: Outcome[] }[], body?: unknown) => ({
  post: {
    operationId,
    tags: ['Checkout'],
    summary,
    description,
    security: ORDER_TOKEN,
    requestParams: { path: checkoutPaymentPath },
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    responses: standardAnswers(
      {
        [body ? '202' : '200']: success(body ? 202 : 200, checkoutPayment, 'The payment after the step'),
        '400': invalid(body ? 'the path or the body' : 'the path'),
        '401': orderTokenRefusals['401']!,
        '404': paymentNotFound,
        ...Object.fromEntries(refusals.map(({ status, outcomes }) => [String(status), failure(status, outcomes)])),
      },
      { body: Boolean(body), asksActors: true },
    ),
  },
});

const notOpen: Outcome = { code: 'PAYMENT_NOT_OPEN', when: 'the attempt ended (SETTLED, CANCELLED, EXPIRED or FAILED)' };

export function checkoutPaths() {
  return {
    [`${PREFIX}/quotes`]: {
      get: {
        operationId: 'getCheckoutQuotes',
        tags: ['Checkout'],
        summary: 'Quotes for the order, per rail',
        description:
          'The best offers of the makers’ deposits that can take the order now, priced with the fees and the order’s fee payer; a sandbox order is quoted at the reference rate. Without rail, every rail of the order that sends the currency; a rail without liquidity has no entry.',
        security: ORDER_TOKEN,
        requestParams: { path: checkoutOrderPath, query: quotesQuery },
        responses: standardAnswers(
          {
            '200': success(200, checkoutQuotes, 'The quotes, best first within each rail'),
            '400': invalid('the path or the query (paymentMethodId not of the rail)'),
            ...orderTokenRefusals,
            '409': failure(409, [{ code: 'ORDER_NOT_PAYABLE', when: 'the order is FULFILLED or CANCELLED: nothing is owed or taken' }]),
            '422': failure(422, railRefusals),
          },
          {
            unavailable: [
              liveUnavailable,
              conversionUnavailable,
              { code: 'RATE_UNAVAILABLE', when: 'the reference rate is stale and its source cannot be reached' },
            ],
          },
        ),
      },
    },
    [`${PREFIX}/payments`]: {
      post: {
        operationId: 'createCheckoutPayment',
        tags: ['Checkout'],
        summary: 'Start paying the order on a rail',
        description:
          'Takes the best offer on the rail and reserves it: a live attempt signals its intent on the maker’s deposit (status CREATED, railIdentifier set once signalled). One attempt is open at a time; replacementPaymentId names the open one this replaces, which is cancelled first (PAYMENT_CANCELLED).',
        security: ORDER_TOKEN,
        requestParams: { path: checkoutOrderPath },
        requestBody: { required: true, content: { 'application/json': { schema: createPaymentBody } } },
        responses: standardAnswers(
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
              { code: 'DESTINATION_NOT_SETTLEABLE', when: 'a live order paid out on a chain this node does not settle on (no bridge)' },
            ]),
          },
          {
            body: true,
            asksActors: true,
            unavailable: [
              liveUnavailable,
              conversionUnavailable,
              { code: 'RATE_UNAVAILABLE', when: 'the reference rate is stale and its source cannot be reached' },
            ],
          },
        ),
      },
    },
    [`${PREFIX}/payments/{paymentId}`]: {
      get: {
        operationId: 'getCheckoutPayment',
        tags: ['Checkout'],
        summary: 'Read one attempt',
        description: 'With errorCode and errorMessage, as the hosted read shows them.',
        security: ORDER_TOKEN,
        requestParams: { path: checkoutPaymentPath },
        responses: standardAnswers({
          '200': success(200, checkoutPayment, 'The attempt'),
          '400': invalid('the path'),
          '401': orderTokenRefusals['401']!,
          '404': paymentNotFound,
        }),
      },
    },
    [`${PREFIX}/payments/{paymentId}/cancel`]: step(
      'cancelCheckoutPayment',
      'Back out of an attempt',
      'PAYMENT_CANCELLED; a live intent is cancelled on chain, freeing the liquidity; a crypto attempt’s provider request is cancelled, so a later transfer is refunded.',
      [
        {
          status: 409,
          outcomes: [
            notOpen,
            { code: 'PAYMENT_NOT_CANCELLABLE', when: 'a proof is being verified or fulfilled, or the transfer is with the conversion provider' },
          ],
        },
      ],
    ),
    [`${PREFIX}/payments/{paymentId}/sent`]: step(
      'markCheckoutPaymentSent',
      'The customer says they sent the money',
      'Locks an open amount (PAYMENT_MAY_SETTLE) and is shown to support; it proves nothing.',
      [{ status: 409, outcomes: [notOpen] }],
    ),
    [`${PREFIX}/payments/{paymentId}/proof`]: step(
      'submitCheckoutPaymentProof',
      'Submit the buyer’s proof of payment (live)',
      'The buyer’s session material sealed to the attestation service’s key, for that service to read the payment from the platform. 202: it is verified in the background; a rejection leaves the attempt CREATED with errorCode, and the customer may submit again.',
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
      submitProofBody,
    ),
    [`${PREFIX}/payments/{paymentId}/simulate`]: step(
      'simulateCheckoutPayment',
      'Settle a sandbox attempt',
      'Sandbox only: settles as if paid, with fulfillTransaction sim_<payment id>, and fires every event a live settlement does.',
      [
        { status: 403, outcomes: [{ code: 'LIVE_PAYMENT', when: 'only a sandbox attempt can be simulated' }] },
        { status: 409, outcomes: [notOpen] },
      ],
    ),
    [`${PREFIX}/amount`]: {
      post: {
        operationId: 'setCheckoutOrderAmount',
        tags: ['Checkout'],
        summary: 'Set the amount of an open-amount order',
        description: 'In the open amount’s currency, inside its bounds, converted to USDC at today’s rate (ORDER_AMOUNT_SET). Answers the hosted order.',
        security: ORDER_TOKEN,
        requestParams: { path: checkoutOrderPath },
        requestBody: { required: true, content: { 'application/json': { schema: setAmountBody } } },
        responses: standardAnswers(
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
      },
    },
  };
}

/** The hosted checkout page and what it loads: HTML, script and style, not the envelope. */
/** `development`: a bare `/` is the landing page there, not a 404. */
export function checkoutPagePaths(development: boolean) {
  const asset = (operationId: string, summary: string, type: string) => ({
    get: {
      operationId,
      tags: ['Checkout'],
      summary,
      security: NO_AUTH,
      responses: standardAnswers({ '200': { description: type, content: { [type]: { schema: z.string() } } } }),
    },
  });
  return {
    '/': {
      get: {
        operationId: 'getCheckoutPage',
        tags: ['Checkout'],
        summary: development ? 'The hosted checkout page, or the landing page' : 'The hosted checkout page',
        description: [
          'The checkout link of an order: `/?order=<orderId>&token=<orderToken>`, as the Peer SDK builds it. The page reads the hosted order and calls the checkout operations with the token.',
          development
            ? 'Without `order`, this development node’s landing page: links to the reference and the engineers’ page, and a button that makes a demo order (POST /dev/demo-order) and opens its link.'
            : 'Without `order`, there is no page here: 404.',
        ].join(' '),
        security: NO_AUTH,
        requestParams: {
          query: z.object({
            order: development
              ? z.string().optional().meta({ description: 'The order id; without it, the landing page' })
              : z.string().meta({ description: 'The order id' }),
            token: z.string().optional().meta({ description: 'The order token' }),
          }),
        },
        responses: standardAnswers({
          '200': { description: 'HTML', content: { 'text/html': { schema: z.string() } } },
          ...(development ? {} : { '404': failure(404, [{ code: 'NOT_FOUND', when: 'no order query parameter' }]) }),
        }),
      },
    },
    [SCRIPT_PATH]: asset('getCheckoutScript', 'The checkout page’s script, bundled for browsers', 'text/javascript'),
    [STYLE_PATH]: asset('getCheckoutStyle', 'The checkout page’s stylesheet', 'text/css'),
  };
}
