/**
 * Fiat amounts as platforms write them (`- $25.00`, `1,234.50`, `25.5` as a JSON number,
 * `-2500` minor units) read into positive base units, without a float ever doing sums.
 */
import { parseFiat, MoneyFormatError } from '../../machines/money.js';
import { PlatformResponseError } from './platform.js';

/** A decimal string with an optional sign, currency symbol, spaces and thousands commas. */
export function fiatFromText(text: string): bigint {
  const plain = text
    .replace(/[\s,]/g, '')
    .replace(/^([+-]?)[$£€]/, '$1')
    .replace(/^[+-]/, '');
  try {
    return parseFiat(plain);
  } catch (error) {
    if (error instanceof MoneyFormatError) throw new PlatformResponseError('the platform wrote an amount this client cannot read');
    throw error;
  }
}

/**
 * A JSON number of whole currency units. Its shortest decimal form is exact for any
 * amount with fifteen significant digits or fewer, so reading that text is exact.
 */
export function fiatFromJsonNumber(value: number): bigint {
  const text = String(Math.abs(value));
  if (!Number.isFinite(value) || /e/i.test(text)) throw new PlatformResponseError('the platform wrote an amount this client cannot read');
  return fiatFromText(text);
}

/** A JSON integer of minor units, signed by direction. */
export function fiatFromMinorUnits(value: number): bigint {
  if (!Number.isSafeInteger(value)) throw new PlatformResponseError('the platform wrote a minor-unit amount this client cannot read');
  return BigInt(Math.abs(value));
}

/** Which way a signed amount went: platforms that sign amounts write money leaving the account as negative. */
export function directionOfSigned(amount: string | number): 'OUTGOING' | 'INCOMING' {
  const negative = typeof amount === 'number' ? amount < 0 : /^\s*-/.test(amount);
  return negative ? 'OUTGOING' : 'INCOMING';
}

/** A timestamp string with an explicit offset (ISO 8601) to Unix milliseconds. */
export function millisFromIso(text: string): number {
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(text)) throw new PlatformResponseError('the platform wrote a timestamp without a UTC offset');
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new PlatformResponseError('the platform wrote a timestamp this client cannot read');
  return ms;
}
