/** zod building blocks shared by the API schemas. */
import { z } from 'zod';
import { idPattern } from '../ids.js';

export const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex digits');
/** A keccak256 hash (a payment method, currency, payee or intent as the chain names it), lower-case hex. */
export const bytes32 = z.string().regex(/^0x[0-9a-f]{64}$/);
/** A transaction hash as the chain or the indexer reports it, in any letter case. */
export const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be three upper-case letters');
/** What a payment is made in: a fiat currency, or on a crypto rail the token's symbol (USDC). */
export const paymentCurrency = z
  .string()
  .regex(/^[A-Z][A-Z0-9]{2,9}$/, 'must be an ISO 4217 code or a token symbol, in upper case')
  .meta({ description: 'A fiat currency (ISO 4217), or on a crypto rail the token’s symbol', example: 'USD' });
/** Long enough for any amount the platform takes (docs/api-conventions.md), short enough that parsing one costs nothing. */
export const decimalString = z
  .string()
  .max(32, 'must be at most 32 characters')
  .regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as 25 or 12.5');
export const tier = z.enum(['BASE', 'PRO', 'CONCIERGE']);
export const feePayer = z.enum(['MERCHANT', 'PAYEE', 'SPLIT']);
export const environment = z.enum(['LIVE', 'SANDBOX']);
export const isoTime = z.string().meta({ description: 'ISO 8601 time', example: '2026-11-23T12:00:00.000Z' });
/** USDC as a decimal string, up to its 6 decimals. */
export const usdc = z
  .string()
  .regex(/^\d+(\.\d{1,6})?$/)
  .meta({ description: 'USDC, a decimal string', example: '1250.5' });
/** USD in USDC as a decimal string with a sign: a realised profit, negative for a loss. */
export const signedUsd = z
  .string()
  .regex(/^-?\d+(\.\d{1,6})?$/)
  .meta({ description: 'USD (in USDC), a decimal string; negative for a loss', example: '12.345678' });
/** Fiat as a decimal string with the currency's two decimals. */
export const fiat = z
  .string()
  .regex(/^\d+\.\d{2}$/)
  .meta({ description: 'Fiat, two decimals', example: '1020.00' });
export const count = z.number().int().min(0);
/** Basis points, 0 to 10,000. */
export const bps = z.number().int().min(0).max(10_000);

/** A query parameter written `true` or `false`, parsed to a boolean. */
export function queryBoolean(description: string) {
  return z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((text) => text === 'true')
    .meta({ description });
}

/** Document 1's paging of every merchant list: 1-based page, limit up to 100, above it refused rather than clamped. */
export const pageQuery = {
  page: z.coerce.number().int().min(1).default(1).meta({ description: 'The page to read, from 1' }),
  limit: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(20).meta({ description: 'Items per page, at most 100' }),
};

/** The paging fields of every merchant list answer, beside the page's items. */
export function pageFields(items: string) {
  return {
    total: z
      .number()
      .int()
      .meta({ description: `How many ${items} match, on every page; at most 10,000 (see totalCapped)` }),
    totalCapped: totalCapped(items),
    page: z.number().int().meta({ description: 'This page’s number, from 1' }),
    limit: z.number().int().meta({ description: 'The most items a page holds' }),
  };
}

/** Beside a list's `total`: counting stopped at 10,000 (docs/api-conventions.md, "List totals"). */
export function totalCapped(items: string) {
  return z.boolean().meta({ description: `true when more than 10,000 ${items} match: total then reads 10,000 and counting stopped there` });
}

/** An id of one resource kind, as the path parameters and bodies that name one carry it. */
export function resourceId(prefix: string, article: string) {
  return z
    .string()
    .regex(idPattern(prefix), `must be ${article} id: ${prefix}_ and 24 letters or digits`)
    .meta({
      description: `${article[0]!.toUpperCase()}${article.slice(1)} id: ${prefix}_ and 24 letters or digits`,
      example: `${prefix}_4Fz1hQk9TbW2mX7pLr0sVc3N`,
    });
}

export const merchantId = resourceId('mer', 'a merchant');
export const orderId = resourceId('ord', 'an order');
