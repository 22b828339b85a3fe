/**
 * Money: integer base units (bigint) inside, decimal strings at the edge. USDC has 6
 * decimals, fiat 2, exchange rates 6 (units of fiat per USD). Parsing is strict so
 * that what a merchant sent is either exactly representable or refused, never
 * rounded quietly; every conversion that must round says which way and why.
 */
export const USDC_DECIMALS = 6;
export const FIAT_DECIMALS = 2;
export const RATE_DECIMALS = 6;

/** A decimal string that is not a valid amount; the message says what is wrong with it. */
export class MoneyFormatError extends Error {
  override readonly name = 'MoneyFormatError';
}

/** USDC base units from a decimal like `25`, `12.5` or `0.000001`. */
export function parseUsdc(text: string): bigint {
  return parseDecimal(text, USDC_DECIMALS, 'a USDC amount');
}

/** Trailing zeros dropped, as document 1 writes USDC: `25`, `12.5`. */
export function formatUsdc(units: bigint): string {
  return formatDecimal(units, USDC_DECIMALS, 0);
}

/** At least two decimals, as document 2 writes USDC: `100.00`, `104.123712`, `0.00`. */
export function formatUsdcCents(units: bigint): string {
  return formatDecimal(units, USDC_DECIMALS, 2);
}

/** Fiat cents from a decimal like `19.99` or `5`. */
export function parseFiat(text: string): bigint {
  return parseDecimal(text, FIAT_DECIMALS, 'a fiat amount');
}

/** Always two decimals, as document 1 writes fiat: `12.50`. */
export function formatFiat(cents: bigint): string {
  return formatDecimal(cents, FIAT_DECIMALS, FIAT_DECIMALS);
}

/** A token amount of `decimals` decimals, trailing zeros dropped (`12.5`), as a crypto attempt's paymentAmount shows it. */
export function formatTokenAmount(units: bigint, decimals: number): string {
  return decimals === 0 ? units.toString() : formatDecimal(units, decimals, 0);
}

/** A fiat-per-USD rate in millionths from a decimal like `0.92` or `83.5`. */
export function parseRate(text: string): bigint {
  return parseDecimal(text, RATE_DECIMALS, 'an exchange rate');
}

/** All six decimals (`0.920000`), so a snapshotted rate shows the precision it was priced at. */
export function formatRate(units: bigint): string {
  return formatDecimal(units, RATE_DECIMALS, RATE_DECIMALS);
}

/**
 * usdc = fiat / rate. In base units: usdcUnits / 10^6 = (cents / 10^2) / (rateUnits / 10^6),
 * so usdcUnits = cents * 10^(6 + 6 - 2) / rateUnits.
 */
const CONVERSION_SCALE = 10n ** BigInt(USDC_DECIMALS + RATE_DECIMALS - FIAT_DECIMALS);

/**
 * The USDC a fiat price is worth at `currencyPerUsdRate`, rounded up to the next base
 * unit: the merchant priced the order in fiat, so the USDC it receives must never be
 * worth less than that price. The excess is under one base unit (0.000001 USDC).
 */
export function fiatToUsdc(fiatCents: bigint, currencyPerUsdRate: bigint): bigint {
  assertConvertible(fiatCents, currencyPerUsdRate);
  return ceilDiv(fiatCents * CONVERSION_SCALE, currencyPerUsdRate);
}

/**
 * The fiat a USDC amount is worth at `currencyPerUsdRate`, rounded down to the cent:
 * a fiat figure shown for USDC must be one that USDC surely covers. Together with
 * fiatToUsdc rounding up, a fiat price converted to USDC and back gives the same
 * price while one base unit is worth less than a cent (rates under 10,000 per USD).
 */
export function usdcToFiat(usdcUnits: bigint, currencyPerUsdRate: bigint): bigint {
  assertConvertible(usdcUnits, currencyPerUsdRate);
  return (usdcUnits * currencyPerUsdRate) / CONVERSION_SCALE;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

function parseDecimal(text: string, decimals: number, what: string): bigint {
  if (typeof text !== 'string' || text === '') throw new MoneyFormatError(`${what} is required`);
  if (text.startsWith('-')) throw new MoneyFormatError(`${what} must not be negative: got ${JSON.stringify(text)}`);
  const match = DECIMAL.exec(text);
  if (!match) {
    throw new MoneyFormatError(`${what} must be plain digits with an optional decimal point, like 12.5: got ${JSON.stringify(text)}`);
  }
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) throw new MoneyFormatError(`${what} has at most ${decimals} decimals: got ${JSON.stringify(text)}`);
  return BigInt(match[1]! + fraction.padEnd(decimals, '0'));
}

function formatDecimal(units: bigint, decimals: number, minFractionDigits: number): string {
  if (units < 0n) throw new RangeError(`amounts are never negative: got ${units} base units`);
  const digits = units.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, '').padEnd(minFractionDigits, '0');
  return fraction ? `${whole}.${fraction}` : whole;
}

function assertConvertible(amount: bigint, rate: bigint): void {
  if (amount < 0n) throw new RangeError(`amounts are never negative: got ${amount} base units`);
  if (rate <= 0n) throw new RangeError(`an exchange rate must be above zero: got ${rate} millionths`);
}

/** numerator / denominator rounded up, for non-negative operands. */
export function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}

/** numerator / denominator rounded toward negative infinity (bigint division truncates toward zero). */
export function floorDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator !== 0n && numerator < 0n !== denominator < 0n ? quotient - 1n : quotient;
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`: a sort comparator for bigints. */
export function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
