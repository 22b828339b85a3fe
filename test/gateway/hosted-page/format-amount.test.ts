/** The checkout page's one amount formatter (gateway/hosted-page/client/format-amount.ts). */
import test from 'ava';
import { currencyDigits, formatAmount } from '../../../gateway/hosted-page/client/format-amount.js';

test('each currency is written with its own digits, tokens with two at least', (t) => {
  const cases: Array<[string, string, string]> = [
    ['25.00', 'USD', '25.00 USD'],
    ['25', 'USD', '25.00 USD'],
    ['42.5', 'USDC', '42.50 USDC'],
    ['20', 'USDC', '20.00 USDC'],
    ['1000', 'JPY', '1,000 JPY'],
    ['1234.5', 'EUR', '1,234.50 EUR'],
    ['12.345', 'KWD', '12.345 KWD'],
  ];
  for (const [amount, currency, written] of cases) t.is(formatAmount(amount, currency), written, `${amount} ${currency}`);
});

test('an amount the customer must send exactly is never rounded', (t) => {
  t.is(formatAmount('15.015', 'USDC'), '15.015 USDC');
  t.is(formatAmount('0.000123456789012345', 'ETH'), '0.000123456789012345 ETH');
  t.is(formatAmount('123456789012345678.25', 'USD'), '123,456,789,012,345,678.25 USD');
});

test('digits come from the currency, two for anything that is not an ISO code', (t) => {
  t.is(currencyDigits('USD'), 2);
  t.is(currencyDigits('JPY'), 0);
  t.is(currencyDigits('USDC'), 2);
  t.is(currencyDigits('usd'), 2);
});

test('a value that is not a decimal string is written as it came, never as NaN', (t) => {
  t.is(formatAmount('abc', 'USD'), 'abc USD');
});
