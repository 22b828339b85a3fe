/**
 * Which screen the payout checkout shows (gateway/hosted-page/client/cashout-steps.ts): one
 * per status and what its actions offer, signing in only where there is something to do, and
 * where the payout stands in words.
 */
import test from 'ava';
import { isZero, sendsToAddress, statusWords, stepOf } from '../../../gateway/hosted-page/client/cashout-steps.js';
import { answeredState, VENMO } from './cashout-state-fixture.js';

const signedIn = { signedIn: true, changingMethod: false };
const BASE_USDC_DESTINATION = {
  rail: 'routea_8453',
  destination: {
    chainId: 8453,
    tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    symbol: 'USDC',
    decimals: 6,
    address: '0x4444444444444444444444444444444444444444',
  },
} as const;
const signedOut = { signedIn: false, changingMethod: false };

test('before funding and once ended, the status alone decides, signed in or not', (t) => {
  for (const [status, step] of [
    ['AWAITING_FUNDING', 'awaiting-funding'],
    ['LISTING', 'listing'],
    ['PAYING', 'paying'],
    ['SETTLED', 'settled'],
    ['CANCELLED', 'cancelled'],
    ['EXPIRED', 'expired'],
  ] as const) {
    const state = answeredState({ payout: { status }, actions: [] });
    t.is(stepOf(state, signedOut), step, status);
    t.is(stepOf(state, signedIn), step, status);
  }
});

test('a funded payout asks to sign in first, then how to be paid', (t) => {
  const funded = answeredState();
  t.is(stepOf(funded, signedOut), 'sign-in');
  t.is(stepOf(funded, signedIn), 'choose-method');
});

test('a method waiting for its account offers connecting, or changing it', (t) => {
  const waiting = answeredState({ method: VENMO, actions: ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT'] });
  t.is(stepOf(waiting, signedOut), 'sign-in');
  t.is(stepOf(waiting, signedIn), 'connect');
  t.is(stepOf(waiting, { signedIn: true, changingMethod: true }), 'choose-method');
});

test('READY with CONFIRM offers listing; with nothing to confirm it is a saved crypto destination; offering nothing, the listing is on its way', (t) => {
  const ready = answeredState({ payout: { status: 'READY' }, method: VENMO, actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'] });
  t.is(stepOf(ready, signedIn), 'confirm');
  t.is(stepOf(ready, signedOut), 'sign-in');
  const crypto = answeredState({ payout: { status: 'READY' }, method: BASE_USDC_DESTINATION });
  t.is(stepOf(crypto, signedIn), 'method-saved');
  t.is(stepOf({ ...crypto, actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'] }, signedIn), 'confirm', 'USDC on Base is sent straight away');
  const pending = answeredState({ payout: { status: 'READY' }, method: VENMO, actions: ['SIGN_IN'] });
  t.is(stepOf(pending, signedIn), 'listing-pending');
  t.is(stepOf(pending, signedOut), 'listing-pending', 'watching a listing land needs no sign-in');
});

test('FUNDED again with a method (a listing withdrawn) asks how to be paid again', (t) => {
  t.is(stepOf(answeredState({ method: VENMO }), signedIn), 'choose-method');
});

test('where the payout stands, in words', (t) => {
  t.is(statusWords(answeredState({ payout: { status: 'AWAITING_FUNDING' } }), 'awaiting-funding'), 'Waiting for Lumen Coffee to fund it');
  t.is(
    statusWords(answeredState({ payout: { status: 'AWAITING_FUNDING' }, merchant: { name: null } }), 'awaiting-funding'),
    'Waiting for the sender to fund it',
  );
  t.is(statusWords(answeredState(), 'sign-in'), 'Funded: choose how to be paid');
  t.is(statusWords(answeredState({ payout: { status: 'READY' }, method: VENMO }), 'confirm'), 'Ready to list for buyers');
  t.is(statusWords(answeredState({ payout: { status: 'READY' }, method: BASE_USDC_DESTINATION }), 'confirm'), 'Ready to send to your address');
  t.is(statusWords(answeredState({ payout: { status: 'READY' }, method: VENMO }), 'listing-pending'), 'Being listed for buyers');
  t.is(statusWords(answeredState({ payout: { status: 'READY' }, method: BASE_USDC_DESTINATION }), 'listing-pending'), 'Being sent to your address');
  t.is(statusWords(answeredState({ payout: { status: 'LISTING' } }), 'listing'), 'Listed: waiting for a buyer');
  t.is(statusWords(answeredState({ payout: { status: 'LISTING', paidAmount: '40.00' } }), 'listing'), 'Partly paid: waiting for the next buyer');
  t.is(statusWords(answeredState({ payout: { status: 'PAYING' } }), 'paying'), 'A buyer is paying you');
  t.is(statusWords(answeredState({ payout: { status: 'SETTLED' } }), 'settled'), 'Paid');
});

test('an amount is zero however many zeros it is written with', (t) => {
  for (const zero of ['0', '0.00', '0.000000', '00.0']) t.true(isZero(zero), zero);
  for (const some of ['0.01', '10.00', '100', '0.000001']) t.false(isZero(some), some);
});

test('a crypto destination is sent to, a fiat method listed', (t) => {
  t.true(sendsToAddress(answeredState({ method: BASE_USDC_DESTINATION })));
  t.false(sendsToAddress(answeredState({ method: VENMO })));
  t.false(sendsToAddress(answeredState()));
});
