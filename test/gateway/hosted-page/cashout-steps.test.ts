/**
 * Which screen the payout checkout shows (gateway/hosted-page/client/cashout-steps.ts): one
 * per status and what its actions offer, signing in only where there is something to do, and
 * where the payout stands in words.
 */
import test from 'ava';
import {
  bridgeLive,
  connectableMethod,
  isBridged,
  isZero,
  networkName,
  sendsToAddress,
  statusWords,
  stepOf,
  tokenSymbol,
  connectedNow,
} from '../../../gateway/hosted-page/client/cashout-steps.js';
import { answeredBridge, answeredState, BASE_USDC_DESTINATION, USDT_ON_ARBITRUM, VENMO } from './cashout-state-fixture.js';

const signedIn = { signedIn: true, changingMethod: false };
const signedOut = { signedIn: false, changingMethod: false };

test('before funding and once ended, the status alone decides, signed in or not', (t) => {
  for (const [status, step] of [
    ['AWAITING_FUNDING', 'awaiting-funding'],
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

test('READY with CONFIRM offers listing or sending, any crypto token; offering nothing, the listing or send is on its way', (t) => {
  const ready = answeredState({ payout: { status: 'READY' }, method: VENMO, actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'] });
  t.is(stepOf(ready, signedIn), 'confirm');
  t.is(stepOf(ready, signedOut), 'sign-in');
  for (const method of [BASE_USDC_DESTINATION, USDT_ON_ARBITRUM]) {
    const crypto = answeredState({ payout: { status: 'READY' }, method, actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'] });
    t.is(stepOf(crypto, signedIn), 'confirm', method.destination.symbol);
  }
  t.is(stepOf(answeredState({ payout: { status: 'READY' }, method: USDT_ON_ARBITRUM }), signedIn), 'choose-method', 'nothing to confirm: choose again');
  const pending = answeredState({ payout: { status: 'READY' }, method: VENMO, actions: ['SIGN_IN'] });
  t.is(stepOf(pending, signedIn), 'listing-pending');
  t.is(stepOf(pending, signedOut), 'listing-pending', 'watching a listing land needs no sign-in');
});

test('a bridge with the provider is followed, signed in or not, of the whole payout or of a listing’s rest; a refunded one is confirmed again', (t) => {
  for (const status of ['QUOTED', 'BRIDGING'] as const) {
    const whole = answeredState({ payout: { status: 'READY' }, method: USDT_ON_ARBITRUM, actions: ['SIGN_IN'], payoutBridge: answeredBridge({ status }) });
    t.is(stepOf(whole, signedIn), 'bridging', status);
    t.is(stepOf(whole, signedOut), 'bridging', status);
    const rest = answeredState({
      payout: { status: 'LISTING', paidAmount: '40.00' },
      method: USDT_ON_ARBITRUM,
      actions: ['SIGN_IN'],
      payoutBridge: answeredBridge({ status }),
    });
    t.is(stepOf(rest, signedIn), 'bridging', status);
  }
  const refunded = answeredState({
    payout: { status: 'READY' },
    method: USDT_ON_ARBITRUM,
    actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'],
    payoutBridge: answeredBridge({ status: 'REFUNDED', refundedAmount: '99.50' }),
    listingError: { code: 'CASHOUT_PAYOUT_REFUNDED', message: 'refunded' },
  });
  t.is(bridgeLive(refunded), null);
  t.is(stepOf(refunded, signedIn), 'confirm');
});

test('a listing offers its ways out signed in, signing in for them signed out, and the rest’s form and price when asked for', (t) => {
  const listed = answeredState({ payout: { status: 'LISTING' }, method: VENMO, actions: ['SIGN_IN', 'WITHDRAW'] });
  t.is(stepOf(listed, signedOut), 'listing');
  t.is(stepOf(listed, { ...signedOut, signingIn: true }), 'sign-in');
  t.is(stepOf(listed, signedIn), 'listing');
  t.is(stepOf(listed, { ...signedIn, sendingRest: 'form' }), 'listing', 'no rest to send before a buyer paid part');
  const partly = answeredState({ payout: { status: 'LISTING', paidAmount: '40.00' }, method: VENMO, actions: ['SIGN_IN', 'WITHDRAW', 'SEND_TO_ADDRESS'] });
  t.is(stepOf(partly, { ...signedIn, sendingRest: 'form' }), 'send-rest');
  t.is(stepOf(partly, { ...signedIn, sendingRest: 'priced' }), 'send-rest-confirm');
  t.is(stepOf(partly, { ...signedOut, sendingRest: 'form' }), 'listing', 'signed out, no form');
});

test('a listing offering nothing but signing in is a way out on its way: taken back, or its rest sent in USDC on Base', (t) => {
  const exiting = answeredState({ payout: { status: 'LISTING', paidAmount: '40.00' }, method: VENMO, actions: ['SIGN_IN'] });
  t.is(stepOf(exiting, signedIn), 'exit-pending');
  t.is(stepOf(exiting, signedOut), 'exit-pending');
  t.is(statusWords(exiting, 'exit-pending'), 'Being taken back from buyers');
  t.is(statusWords({ ...exiting, method: BASE_USDC_DESTINATION }, 'exit-pending'), 'The rest is being sent to your address');
});

test('a listing this tab asked to list again is being relisted while nothing but signing in is offered; once it offers its ways out again it is the listing', (t) => {
  const relisting = { ...signedIn, relisting: true };
  const exiting = answeredState({ payout: { status: 'LISTING', paidAmount: '40.00' }, method: VENMO, actions: ['SIGN_IN'] });
  t.is(stepOf(exiting, relisting), 'relist-pending');
  t.is(stepOf(exiting, { ...signedOut, relisting: true }), 'relist-pending');
  t.is(statusWords(exiting, 'relist-pending'), 'What is left is being listed again');
  const relisted = answeredState({ payout: { status: 'LISTING', paidAmount: '40.00' }, method: VENMO, actions: ['SIGN_IN', 'WITHDRAW', 'SEND_TO_ADDRESS'] });
  t.is(stepOf(relisted, relisting), 'listing');
});

test('USDC on Base is sent straight; every other token goes through the provider; networks and tokens by the catalog’s names', (t) => {
  t.false(isBridged(BASE_USDC_DESTINATION));
  t.true(isBridged(USDT_ON_ARBITRUM));
  t.true(isBridged({ rail: 'routea_8453', destination: { tokenAddress: '0x0000000000000000000000000000000000000000' } }), 'ETH on Base');
  t.is(networkName(42161), 'Arbitrum');
  t.is(networkName(8453), 'Base');
  t.is(networkName(5), 'chain 5');
  t.is(tokenSymbol(42161, USDT_ON_ARBITRUM.destination.tokenAddress.toLowerCase()), 'USDT');
  t.is(tokenSymbol(42161, '0x0000000000000000000000000000000000000001'), null);
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
  t.is(statusWords(answeredState({ payout: { status: 'LISTING', paidAmount: '40.00' } }), 'send-rest'), 'Partly paid: waiting for the next buyer');
  t.is(statusWords(answeredState({ payout: { status: 'READY' }, payoutBridge: answeredBridge() }), 'bridging'), 'On its way to your address as USDT');
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

test('a Venmo method waiting for its account is connected or skipped; once ready, it is connected again where the customer asks or the connection lapsed', (t) => {
  const pending = answeredState({ method: VENMO, actions: ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT'] });
  t.is(stepOf(pending, signedIn), 'connect');
  const ready = answeredState({ payout: { status: 'READY' }, method: VENMO, actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'] });
  t.is(stepOf(ready, signedIn), 'confirm');
  t.is(stepOf(ready, { ...signedIn, connecting: 'asked' }), 'connect');
  t.is(stepOf(ready, { ...signedIn, connecting: 'lapsed' }), 'connect');
  t.deepEqual(connectableMethod(ready), VENMO);
  // A method whose account does not connect, or one that can no longer change, is never connected.
  const zelle = answeredState({
    payout: { status: 'READY' },
    method: { rail: 'zelle', handle: 'ana@example.com', currency: 'USD' },
    actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'],
  });
  t.is(connectableMethod(zelle), null);
  t.is(stepOf(zelle, { ...signedIn, connecting: 'asked' }), 'confirm');
  const locked = answeredState({ payout: { status: 'READY' }, method: VENMO, actions: ['SIGN_IN'] });
  t.is(stepOf(locked, { ...signedIn, connecting: 'asked' }), 'listing-pending');
});

test('an account is connected now only while its attestation holds: not once it lapsed, not when skipped', (t) => {
  const now = Date.parse('2026-11-23T12:00:00.000Z');
  const venmo = { rail: 'venmo', handle: '1618033988', currency: 'USD' } as const;
  const connected = (connectedUntil: string | null) => answeredState({ method: venmo, connection: { status: 'CONNECTED', connectedUntil } });
  t.true(connectedNow(connected('2026-11-24T12:00:00.000Z'), now));
  t.false(connectedNow(connected('2026-11-23T11:59:59.000Z'), now), 'lapsed');
  t.false(connectedNow(answeredState({ method: venmo, connection: { status: 'SKIPPED', connectedUntil: null } }), now), 'skipped');
  t.false(connectedNow(answeredState({ method: venmo, connection: null }), now));
});
