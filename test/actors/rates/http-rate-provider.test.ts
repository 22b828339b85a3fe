import test, { type ExecutionContext } from 'ava';
import { TestClock } from '../../../actors/index.js';
import { HttpRateProvider, RateUnavailableError } from '../../../actors/adapters/rates/index.js';
import { parseRate } from '../../../machines/money.js';
import { json, ratesProvider } from '../../support/rates-provider.js';

/** A loopback conversion provider whose answer the test sets. */
const provider = (t: ExecutionContext) => ratesProvider(t, { EUR: '0.92', GBP: 0.79, INR: 83.123456789 });

test('rates come from the provider as six-decimal units, strings and numbers alike, with the key as a bearer token', async (t) => {
  const remote = await provider(t);
  const rates = new HttpRateProvider({ url: remote.url, apiKey: 'rates-key', timeoutMs: 1_000, maxAgeMs: 60_000, clock: new TestClock() });
  t.is(await rates.currencyPerUsd('EUR'), parseRate('0.92'));
  t.is(await rates.currencyPerUsd('gbp'), parseRate('0.79'));
  t.is(await rates.currencyPerUsd('INR'), parseRate('83.123457'), 'rounded half up at the sixth decimal');
  t.is(await rates.currencyPerUsd('JPY'), null, 'a currency the provider does not price');
  t.is(remote.requests.length, 1, 'one request serves every currency while the answer is fresh');
  t.is(remote.requests[0]!.headers.authorization, 'Bearer rates-key');
});

test('an answer older than the maximum age is fetched again; a provider that is down then makes rates unavailable', async (t) => {
  const remote = await provider(t);
  const clock = new TestClock();
  const rates = new HttpRateProvider({ url: remote.url, timeoutMs: 1_000, maxAgeMs: 60_000, clock });
  t.is(await rates.currencyPerUsd('EUR'), parseRate('0.92'));
  remote.answer((response) => json(response, { base: 'USD', rates: { EUR: '0.95' } }));
  await clock.advance(59_000);
  t.is(await rates.currencyPerUsd('EUR'), parseRate('0.92'), 'still fresh');
  await clock.advance(2_000);
  t.is(await rates.currencyPerUsd('EUR'), parseRate('0.95'), 'refreshed');
  t.is(remote.requests.length, 2);

  remote.answer((response) => {
    response.statusCode = 503;
    response.end();
  });
  await clock.advance(61_000);
  await t.throwsAsync(rates.currencyPerUsd('EUR'), { instanceOf: RateUnavailableError, message: /503/ });
});

test('a provider that does not answer in time, or answers nonsense, makes rates unavailable', async (t) => {
  const remote = await provider(t);
  remote.answer(() => {});
  const slow = new HttpRateProvider({ url: remote.url, timeoutMs: 200, maxAgeMs: 60_000, clock: new TestClock() });
  await t.throwsAsync(slow.currencyPerUsd('EUR'), { instanceOf: RateUnavailableError });

  remote.answer((response) => json(response, { base: 'EUR', rates: { USD: '1.08' } }));
  const wrongBase = new HttpRateProvider({ url: remote.url, timeoutMs: 1_000, maxAgeMs: 60_000, clock: new TestClock() });
  await t.throwsAsync(wrongBase.currencyPerUsd('USD'), { instanceOf: RateUnavailableError, message: /base is EUR/ });
});
