/**
 * Every amount the page writes, one way: grouped, with its currency's digits (two for USD
 * and EUR, none for JPY; two at least for USDC and other tokens, which have no ISO digits),
 * and never rounded, since the customer may have to send exactly what it says.
 */
const LOCALE = 'en-US';
/** Tokens (USDC, ETH…) are written to two decimals at least, as money is; more only when the amount has them. */
const TOKEN_DIGITS = 2;
/** More than any amount the API writes carries (a token's 18 decimals), so nothing is ever rounded. */
const MAX_DIGITS = 20;
const DECIMAL = /^\d+(\.\d+)?$/;

export function currencyDigits(currency: string): number {
  if (!/^[A-Z]{3}$/.test(currency)) return TOKEN_DIGITS;
  const digits = new Intl.NumberFormat(LOCALE, { style: 'currency', currency }).resolvedOptions().minimumFractionDigits;
  return digits ?? TOKEN_DIGITS;
}

/** The number alone, as `formatAmount` writes it: "1,234.50". A value that is not a decimal string is written as it came. */
export function formatNumber(amount: string, currency: string): string {
  if (!DECIMAL.test(amount)) return amount;
  const digits = currencyDigits(currency);
  return new Intl.NumberFormat(LOCALE, { minimumFractionDigits: digits, maximumFractionDigits: MAX_DIGITS }).format(amount as `${number}`);
}

/** "25.00 USD", "42.50 USDC", "15.015 USDC", "1,000 JPY". */
export function formatAmount(amount: string, currency: string): string {
  return `${formatNumber(amount, currency)} ${currency}`;
}
