/**
 * What is wrong with an amount the customer typed, said before anything is sent: the node
 * would refuse it too, but only as a field error written for programmers.
 */
import { currencyDigits } from './format-amount.js';

/** The amount as the API takes it ("1234.5"), or the words for what is wrong with it. */
export function readAmount(typed: string, currency: string): { amount: string } | { problem: string } {
  // People write thousands separators and the currency; the API takes the bare number.
  const amount = typed
    .trim()
    .replace(/^[$€£¥]\s*/, '')
    .replace(/(\d),(?=\d{3}(\D|$))/g, '$1');
  if (amount === '') return { problem: 'Enter an amount.' };
  if (!/^\d+(\.\d+)?$/.test(amount)) return { problem: 'Enter the amount as a number, such as 20 or 20.50.' };
  const digits = currencyDigits(currency);
  const decimals = amount.split('.')[1]?.length ?? 0;
  if (decimals > digits) return { problem: digits === 0 ? `Enter a whole number of ${currency}.` : `Use at most ${digits} decimals for ${currency}.` };
  return { amount };
}
