/**
 * What the payment endpoints take: the customer's create, amount, proof and quote
 * requests, the merchant's payment list and quote-availability queries. Validated here
 * and documented from the same schemas (the answers are in payment-resources.ts).
 */
import { z } from 'zod';
import { currencyCode, decimalString, orderId, pageQuery, paymentCurrency } from '../schemas/common.js';
import { paymentStatus } from './payment-resources.js';
import { idPattern } from '../ids.js';

export const paymentId = z
  .string()
  .regex(idPattern('pay'), 'must be a payment id: pay_ and 24 letters or digits')
  .meta({ description: 'A payment id: pay_ and 24 letters or digits', example: 'pay_4Fz1hQk9TbW2mX7pLr0sVc3N' });
export const rail = z
  .string()
  .min(1)
  .max(32)
  .meta({ description: 'A rail id of the order’s enabledRails (venmo, zelle, …, or relay_<chainId> for crypto)', example: 'venmo' });
const paymentMethodId = z.string().max(32).meta({ description: 'The Zelle bank: zelle-chase, zelle-bofa or zelle-citi; only on the zelle rail' });
const payToValues = z.array(z.string().min(1).max(128)).max(20);
const quoteLimit = z.coerce.number().int().min(1).max(10);

export const checkoutOrderPath = z.strictObject({ orderId });
export const checkoutPaymentPath = z.strictObject({ orderId, paymentId });

export const quotesQuery = z.strictObject({
  rail: rail.optional().meta({ description: 'One rail; all the order’s rails when absent' }),
  currency: paymentCurrency
    .optional()
    .meta({ description: 'The fiat to pay in (the order’s own, else the rail’s home currency, when absent); on a crypto rail, the token (USDC when absent)' }),
  paymentMethodId: paymentMethodId.optional(),
  quoteLimit: quoteLimit.default(1).meta({ description: 'Quotes per rail, the best first (1 to 10)' }),
});

export const createPaymentBody = z
  .strictObject({
    rail,
    fiatCurrency: currencyCode.optional().meta({ description: 'The fiat the customer pays in' }),
    currency: paymentCurrency
      .optional()
      .meta({ description: 'The same as fiatCurrency, as older clients send it; on a crypto rail, the token to pay in (USDC when absent)' }),
    paymentMethodId: paymentMethodId.optional(),
    replacementPaymentId: paymentId.optional().meta({ description: 'The open attempt this one replaces; it is cancelled first' }),
    quoteLimit: quoteLimit.optional().meta({ description: 'How many offers to consider; the best is taken' }),
    excludedPayToValues: payToValues.optional().meta({ description: 'Recipients (payTo) not to be sent to, say one that failed the customer' }),
  })
  .meta({ id: 'CreatePaymentRequest', example: { rail: 'venmo', fiatCurrency: 'USD' } });

export type CreatePaymentBody = z.infer<typeof createPaymentBody>;

export const setAmountBody = z
  .strictObject({
    amount: decimalString.meta({ description: 'The amount the customer chose, in currency, at most 2 decimals', example: '25' }),
    currency: currencyCode.optional().meta({ description: 'The open amount’s currency; the only one taken' }),
    amountVersion: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: 'The amountVersion the page showed: sent, the amount is set only if it is still that version' }),
  })
  .meta({ id: 'SetOrderAmountRequest', example: { amount: '25', currency: 'USD', amountVersion: 0 } });

export const submitProofBody = z
  .strictObject({
    encryptedSessionMaterial: z
      .string()
      .min(1)
      .max(65_536)
      .meta({ description: 'The buyer’s session material sealed to the attestation service’s key (compact JWE)' }),
    params: z.record(z.string().max(64), z.string().max(256)).meta({ description: 'What the platform needs to find the payment, e.g. { PAYMENT_ID }' }),
  })
  .meta({
    id: 'SubmitPaymentProofRequest',
    example: { encryptedSessionMaterial: 'eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTI1NkdDTSJ9…', params: { PAYMENT_ID: '4102394756' } },
  });

export const listPaymentsQuery = z.strictObject({
  status: paymentStatus.optional().meta({ description: 'Only attempts in this status' }),
  chargebackStatus: z.enum(['NONE', 'CHARGEBACKED']).optional().meta({ description: 'Only attempts with this chargeback status' }),
  rail: rail.optional().meta({ description: 'Only attempts on this rail (an addition to document 1)' }),
  orderId: orderId.optional().meta({ description: 'Only this order’s attempts (an addition to document 1)' }),
  createdFrom: z.iso.datetime().optional().meta({ description: 'Created at or after this ISO time' }),
  createdTo: z.iso.datetime().optional().meta({ description: 'Created before this ISO time' }),
  ...pageQuery,
});

export const quoteAvailabilityBody = z
  .strictObject({
    amount: decimalString.meta({ description: 'What the order would ask: USDC for EXACT_TOKEN, fiatCurrency for EXACT_FIAT' }),
    quoteMode: z
      .enum(['EXACT_TOKEN', 'EXACT_FIAT'])
      .default('EXACT_TOKEN')
      .meta({ description: 'EXACT_TOKEN: amount is USDC; EXACT_FIAT: amount is a price in fiatCurrency' }),
    enabledRails: z.array(rail).min(1).max(32).optional().meta({ description: 'The merchant’s enabled rails when absent' }),
    destinationChainId: z.number().int().positive().optional().meta({ description: 'The chain the order would deliver on (8453, Base, when absent)' }),
    destinationToken: z.string().max(64).optional().meta({ description: 'The token the order would deliver, by symbol or address (USDC when absent)' }),
    destinationAddress: z
      .string()
      .max(128)
      .optional()
      .meta({ description: 'Where the order would deliver; the merchant’s wallet of the chain’s kind when absent' }),
    fiatCurrency: currencyCode.optional().meta({ description: 'The currency of an EXACT_FIAT amount, and the one the customer would pay in' }),
    nearbyQuotesCount: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(3)
      .meta({ description: 'How many nearby amounts to suggest when the amount is not available (0 to 10)' }),
  })
  .meta({ id: 'QuoteAvailabilityRequest', example: { amount: '25', quoteMode: 'EXACT_TOKEN', enabledRails: ['venmo'] } });
