import test from 'ava';
import { MoneyFormatError, fiatToUsdc, formatFiat, formatRate, formatUsdc, parseFiat, parseRate, parseUsdc, usdcToFiat } from '../../machines/money.js';

test('parseUsdc reads whole, fractional and smallest amounts into 6-decimal base units', (t) => {
  t.is(parseUsdc('25'), 25_000_000n);
  t.is(parseUsdc('12.5'), 12_500_000n);
  t.is(parseUsdc('12.50'), 12_500_000n);
  t.is(parseUsdc('0.000001'), 1n);
  t.is(parseUsdc('0'), 0n);
  t.is(parseUsdc('123456789012345678901234567890'), 123456789012345678901234567890_000000n, 'no precision lost to floats');
});

test('parseUsdc refuses anything that is not a plain non-negative decimal, with a MoneyFormatError that says why', (t) => {
  const refusals: Array<[string, RegExp]> = [
    ['-1', /must not be negative/],
    ['-0.5', /must not be negative/],
    ['1.0000001', /at most 6 decimals/],
    ['1e6', /plain digits/],
    ['1E-6', /plain digits/],
    ['', /is required/],
    ['+5', /plain digits/],
    [' 5', /plain digits/],
    ['5 ', /plain digits/],
    ['5\n', /plain digits/],
    ['five', /plain digits/],
    ['5,00', /plain digits/],
    ['.5', /plain digits/],
    ['5.', /plain digits/],
    ['0x10', /plain digits/],
    ['١٢', /plain digits/],
    ['Infinity', /plain digits/],
  ];
  for (const [text, message] of refusals) {
    const error = t.throws(() => parseUsdc(text), { instanceOf: MoneyFormatError }, JSON.stringify(text));
    t.regex(error.message, message, JSON.stringify(text));
    t.regex(error.message, /USDC amount/);
  }
});

test('formatUsdc drops trailing zeros and the point when nothing follows it', (t) => {
  t.is(formatUsdc(25_000_000n), '25');
  t.is(formatUsdc(12_500_000n), '12.5');
  t.is(formatUsdc(1n), '0.000001');
  t.is(formatUsdc(0n), '0');
  t.is(formatUsdc(100_000_001n), '100.000001');
  t.throws(() => formatUsdc(-1n), { instanceOf: RangeError });
});

test('parseUsdc and formatUsdc round-trip', (t) => {
  for (const text of ['0', '0.1', '0.000001', '1', '25', '12.5', '99.999999', '1000000']) t.is(formatUsdc(parseUsdc(text)), text);
});

test('parseFiat reads 2-decimal amounts into cents and refuses a third decimal', (t) => {
  t.is(parseFiat('19.99'), 1999n);
  t.is(parseFiat('5'), 500n);
  t.is(parseFiat('12.5'), 1250n);
  t.is(parseFiat('0.01'), 1n);
  t.regex(t.throws(() => parseFiat('1.001'), { instanceOf: MoneyFormatError }).message, /fiat amount has at most 2 decimals/);
  t.regex(t.throws(() => parseFiat('-3'), { instanceOf: MoneyFormatError }).message, /must not be negative/);
});

test('formatFiat always writes two decimals', (t) => {
  t.is(formatFiat(1250n), '12.50');
  t.is(formatFiat(500n), '5.00');
  t.is(formatFiat(1n), '0.01');
  t.is(formatFiat(0n), '0.00');
  t.is(formatFiat(1999n), '19.99');
});

test('parseRate reads 6-decimal fiat-per-USD rates; formatRate writes all six decimals', (t) => {
  t.is(parseRate('0.92'), 920_000n);
  t.is(parseRate('83.5'), 83_500_000n);
  t.is(parseRate('1'), 1_000_000n);
  t.is(formatRate(920_000n), '0.920000');
  t.is(formatRate(870_000_000n), '870.000000');
  t.is(formatRate(1n), '0.000001');
  t.regex(t.throws(() => parseRate('0.1234567'), { instanceOf: MoneyFormatError }).message, /exchange rate has at most 6 decimals/);
});

test('fiatToUsdc rounds up to the next base unit: 100.00 EUR at 0.920000 EUR per USD is 108.695653 USDC', (t) => {
  // 100 / 0.92 = 108.695652173…; 108.695652 USDC would be worth 99.99999984 EUR, short of the price.
  const usdc = fiatToUsdc(parseFiat('100.00'), parseRate('0.920000'));
  t.is(formatUsdc(usdc), '108.695653');
  t.true(usdc * 920_000n >= 10_000n * 10n ** 10n, 'worth at least the fiat price');
  t.true((usdc - 1n) * 920_000n < 10_000n * 10n ** 10n, 'and one base unit less would not be');
});

test('fiatToUsdc is exact when the division is: 92.00 EUR at 0.92 is 100 USDC; USD at 1.000000 is one for one', (t) => {
  t.is(formatUsdc(fiatToUsdc(parseFiat('92.00'), parseRate('0.92'))), '100');
  t.is(formatUsdc(fiatToUsdc(parseFiat('19.99'), parseRate('1'))), '19.99');
  t.is(formatUsdc(fiatToUsdc(parseFiat('1000.00'), parseRate('870'))), '1.149426', '1000 ARS at 870: 1.1494252… rounded up');
  t.is(fiatToUsdc(0n, 920_000n), 0n);
});

test('usdcToFiat rounds down to the cent: 1 USDC at 0.92 is 0.92 EUR, one base unit is 0.00', (t) => {
  t.is(formatFiat(usdcToFiat(parseUsdc('1'), parseRate('0.92'))), '0.92');
  t.is(formatFiat(usdcToFiat(1n, parseRate('0.92'))), '0.00');
  t.is(formatFiat(usdcToFiat(parseUsdc('10.999999'), parseRate('1'))), '10.99', '10.999999 USD is not yet 11.00');
  t.is(formatFiat(usdcToFiat(parseUsdc('108.695653'), parseRate('0.92'))), '100.00', '100.00000076 EUR');
});

test('a fiat price converted to USDC and back is the same price', (t) => {
  for (const [price, rate] of [
    ['100.00', '0.92'],
    ['0.01', '0.79'],
    ['19.99', '1'],
    ['1000.00', '870'],
    ['12345.67', '83.5'],
    ['3.33', '1.52'],
  ] as const) {
    const cents = parseFiat(price);
    t.is(usdcToFiat(fiatToUsdc(cents, parseRate(rate)), parseRate(rate)), cents, `${price} at ${rate}`);
  }
});

test('conversions refuse a zero rate and negative amounts rather than divide by zero or flip a sign', (t) => {
  t.throws(() => fiatToUsdc(100n, 0n), { instanceOf: RangeError });
  t.throws(() => usdcToFiat(100n, -1n), { instanceOf: RangeError });
  t.throws(() => fiatToUsdc(-100n, 920_000n), { instanceOf: RangeError });
});
