/** What the checkout operations answer beyond the standard answers: refusals with details, and the outcomes several operations share. */
import { z } from 'zod';
import { errorCode, failure, invalid, noPayload, type Outcome, standardAnswers, success } from '../openapi/answers.js';
import { orderTokenRefusals } from '../openapi/security.js';
import { checkoutPayment } from '../payments/payment-resources.js';

/** An outcome whose responseObject carries details (document 1: null on most failures, not all). */
type DetailedOutcome = Outcome & { code: string; details?: z.ZodType };

/**
 * `failure` of answers.ts documents responseObject null for every coded outcome; some of
 * these refusals answer details beside the code (PAYMENT_IN_PROGRESS names the open
 * payment, AMOUNT_CONFLICT the current version, …), which a client branches on. Each
 * outcome here is its own variant: its code with its details, or with null when it has none.
 */
export function detailedFailure(status: number, outcomes: DetailedOutcome[]) {
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

export const amountRange = z
  .object({
    minAmount: z.string().meta({ description: 'The smallest amount allowed' }),
    maxAmount: z.string().nullable().meta({ description: 'The largest amount allowed; null for no maximum but the node’s order limit' }),
  })
  .meta({ description: 'The range the amount must be in, in the open amount’s currency' });
export const paymentNotFound = failure(404, [
  { code: 'NOT_FOUND', when: 'No order with that id, the token is not its token, or the payment is not one of its attempts' },
]);

export const railRefusals: Outcome[] = [
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
export const conversionUnavailable: Outcome = { code: 'CONVERSION_PROVIDER_UNAVAILABLE', when: 'a crypto rail: the conversion provider did not answer' };
export const liveUnavailable: Outcome = {
  code: 'LIVE_PAYMENTS_UNAVAILABLE',
  when: 'a live order on a node that takes sandbox payments only (no chain, gating key or attestation service), or while the chain, its indexer or (on a fiat rail) the attestation service does not answer, or the node’s data was written against another chain: retry after Retry-After',
};

/** The answers of a step of an attempt (cancel, sent, proof, simulate): 202 when it takes a body (a proof, verified later), else 200. */
export function stepAnswers(refusals: { status: number; outcomes: Outcome[] }[], body: boolean) {
  return standardAnswers(
    {
      [body ? '202' : '200']: success(body ? 202 : 200, checkoutPayment, 'The payment after the step'),
      '400': invalid(body ? 'the path or the body' : 'the path'),
      '401': orderTokenRefusals['401']!,
      '404': paymentNotFound,
      ...Object.fromEntries(refusals.map(({ status, outcomes }) => [String(status), failure(status, outcomes)])),
    },
    { body, asksActors: true },
  );
}

export const notOpen: Outcome = { code: 'PAYMENT_NOT_OPEN', when: 'the attempt ended (SETTLED, CANCELLED, EXPIRED or FAILED)' };
