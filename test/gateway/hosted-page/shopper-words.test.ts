/**
 * What the checkout page says to a shopper, as pure functions: the amount typed, a refusal
 * in words (gateway/hosted-page/client/error-words.ts), the recipient's rating, and the
 * QR code's link per rail.
 */
import test from 'ava';
import { readAmount } from '../../../gateway/hosted-page/client/amount-input.js';
import { CheckoutError } from '../../../gateway/hosted-page/client/api.js';
import { deadLink, describe, isUnavailable, PAYMENTS_UNAVAILABLE } from '../../../gateway/hosted-page/client/error-words.js';
import { payLink } from '../../../gateway/hosted-page/client/pay-link.js';
import { recipientNote } from '../../../gateway/hosted-page/client/recipient-note.js';

test('an amount typed as people write it is read as the API takes it', (t) => {
  t.deepEqual(readAmount(' 20 ', 'USD'), { amount: '20' });
  t.deepEqual(readAmount('$1,250.50', 'USD'), { amount: '1250.50' });
  t.deepEqual(readAmount('€7.5', 'EUR'), { amount: '7.5' });
});

test('an amount that is not one says what is wrong with it', (t) => {
  t.deepEqual(readAmount('abc', 'USD'), { problem: 'Enter the amount as a number, such as 20 or 20.50.' });
  t.deepEqual(readAmount('', 'USD'), { problem: 'Enter an amount.' });
  t.deepEqual(readAmount('-5', 'USD'), { problem: 'Enter the amount as a number, such as 20 or 20.50.' });
  t.deepEqual(readAmount('20.555', 'USD'), { problem: 'Use at most 2 decimals for USD.' });
  t.deepEqual(readAmount('100.5', 'JPY'), { problem: 'Enter a whole number of JPY.' });
});

test('the node’s validation 400 on the amount is said in words, not “Invalid request”', (t) => {
  const refused = new CheckoutError(400, null, 'Invalid request', { amount: ['must be a decimal string such as 25 or 12.5'] });
  t.is(describe(refused), 'Enter the amount as a number, such as 20 or 20.50.');
});

test('every 503 code, and a node that cannot be reached, is “unavailable, try again shortly”', (t) => {
  for (const code of ['LIVE_PAYMENTS_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'CONVERSION_PROVIDER_UNAVAILABLE', 'RATE_UNAVAILABLE']) {
    const refused = new CheckoutError(503, code, 'This node takes sandbox payments only');
    t.true(isUnavailable(refused), code);
    t.is(describe(refused), PAYMENTS_UNAVAILABLE, code);
    t.is(deadLink(refused), null, code);
  }
  t.true(isUnavailable(new TypeError('Failed to fetch')));
  t.false(isUnavailable(new CheckoutError(409, 'NO_LIQUIDITY', 'No liquidity')));
});

test('a link that can never work says so, and never “try again”', (t) => {
  const dead = [
    new CheckoutError(401, null, 'Missing order token'),
    new CheckoutError(404, 'NOT_FOUND', 'Order not found'),
    new CheckoutError(409, 'ORDER_NOT_PAYABLE', 'Order is CANCELLED'),
  ];
  for (const error of dead) {
    const words = deadLink(error);
    t.truthy(words, error.message);
    t.notRegex(words!, /try again/i);
    t.false(isUnavailable(error));
  }
});

test('the recipient’s rating reads as how likely the payment is to go through', (t) => {
  t.is(recipientNote(5), 'Payments to this recipient go through reliably');
  t.is(recipientNote(4.5), 'Payments to this recipient go through reliably');
  t.is(recipientNote(4.4), 'Most payments to this recipient go through');
  t.is(recipientNote(1), 'Some payments to this recipient did not go through');
});

test('the QR code opens the deposit address or the app’s pay link; apps without one get none', (t) => {
  t.is(payLink({ rail: 'relay_42161', payTo: '0xabc', amount: '15.015', currency: 'USDC' }), '0xabc');
  t.is(payLink({ rail: 'venmo', payTo: '3141592653', amount: '25.00', currency: 'USD' }), 'https://venmo.com/code?user_id=3141592653');
  t.is(payLink({ rail: 'cashapp', payTo: '$makermary', amount: '25.13', currency: 'USD' }), 'https://cash.app/$makermary/25.13');
  t.is(payLink({ rail: 'paypal', payTo: 'carlashop', amount: '25.50', currency: 'USD' }), 'https://paypal.me/carlashop/25.50USD');
  t.is(payLink({ rail: 'paypal', payTo: 'carla@example.com', amount: '25.50', currency: 'USD' }), null);
  t.is(payLink({ rail: 'revolut', payTo: 'makerben', amount: '23.13', currency: 'EUR' }), 'https://revolut.me/makerben');
  t.is(payLink({ rail: 'zelle', payTo: 'carla@example.com', amount: '25.00', currency: 'USD' }), null);
  t.is(payLink({ rail: 'wise', payTo: '55501234', amount: '19.88', currency: 'GBP' }), null);
});
