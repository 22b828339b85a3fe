/**
 * How the payout checkout words a crypto payout (gateway/hosted-page/client/cashout-crypto-words.ts):
 * what arrives where, "about" through the provider and exact in USDC on Base; and a
 * destination the customer typed, named by the catalog while it is priced.
 */
import test from 'ava';
import { deliveredWords, destinationOfBody } from '../../../gateway/hosted-page/client/cashout-crypto-words.js';
import { answeredQuote, BASE_USDC_DESTINATION, USDT_ON_ARBITRUM } from './cashout-state-fixture.js';

test('what arrives, in its token on its network: about, through the provider; exact, in USDC on Base', (t) => {
  const quote = answeredQuote();
  t.is(deliveredWords(quote.estimatedAmount, quote.destination, false), 'about 99.90 USDT on Arbitrum', 'a quote, as the API answers it');
  t.is(deliveredWords('100.00', BASE_USDC_DESTINATION.destination, true), '100.00 USDC on Base');
  t.is(deliveredWords('0.0312', { ...USDT_ON_ARBITRUM.destination, symbol: 'ETH' }, false), 'about 0.0312 ETH on Arbitrum', 'never rounded');
});

test('a typed destination is named by the catalog, its address as typed; one the catalog does not have is not named', (t) => {
  const address = '0x4444444444444444444444444444444444444444';
  t.deepEqual(destinationOfBody({ rail: 'routea_42161', tokenAddress: USDT_ON_ARBITRUM.destination.tokenAddress, address }), USDT_ON_ARBITRUM.destination);
  t.is(destinationOfBody({ rail: 'routea_42161', tokenAddress: '0x0000000000000000000000000000000000000001', address }), null);
  t.is(destinationOfBody({ rail: 'routea_5', tokenAddress: USDT_ON_ARBITRUM.destination.tokenAddress, address }), null);
});
