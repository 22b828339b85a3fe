/** zod building blocks shared by the API schemas. */
import { z } from 'zod';

export const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x followed by 40 hex digits');
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be three upper-case letters');
export const decimalString = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as 25 or 12.5');
export const tier = z.enum(['BASE', 'PRO', 'CONCIERGE']);
export const feePayer = z.enum(['MERCHANT', 'PAYEE', 'SPLIT']);
export const environment = z.enum(['LIVE', 'SANDBOX']);
