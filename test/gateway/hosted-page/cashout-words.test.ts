/**
 * What the payout checkout says of each refusal (gateway/hosted-page/client/cashout-words.ts),
 * row by row: every CASHOUT_* code in the error table has words, and each refusal is read as
 * what the page does about it: a dead link, signing in again, the payout read again, a wait,
 * a retry, or a field to fix.
 */
import test from 'ava';
import { ERROR_CODES } from '../../../actors/errors/error-codes.js';
import { CashoutError } from '../../../gateway/hosted-page/client/cashout-api.js';
import { CASHOUT_WORDS, CODE_WORDS, listingErrorWords, refusalOf, waitWords } from '../../../gateway/hosted-page/client/cashout-words.js';

const CASHOUT_CODES = Object.keys(ERROR_CODES).filter((code) => code.startsWith('CASHOUT_'));
const refused = (status: number, code: string | null, details: Record<string, unknown> | null = null) =>
  new CashoutError(status, code, 'the node’s message', details);

test('every CASHOUT_* code of the error table has words, and none that is not in it', (t) => {
  t.deepEqual(Object.keys(CASHOUT_WORDS).sort(), CASHOUT_CODES.sort());
  for (const [code, words] of Object.entries(CASHOUT_WORDS)) {
    t.regex(words, /^[A-Z].*\.$/, `${code} is a sentence`);
    t.notRegex(words, /CASHOUT|_|undefined|null/, `${code} names no code`);
  }
});

test('every code the API answers is read as what its status means to the page', (t) => {
  for (const code of CASHOUT_CODES) {
    const { status } = ERROR_CODES[code as keyof typeof ERROR_CODES] as { status: number };
    // The sign-in ration is answered as a plain 429 (docs/payout-checkout.md), never under its code.
    if (status === 429) continue;
    const refusal = refusalOf(refused(status, code, { status: 'READY', actions: ['SIGN_IN'] }));
    t.is(refusal.words, CASHOUT_WORDS[code as keyof typeof CASHOUT_WORDS], code);
    const expected =
      code === 'CASHOUT_TOKEN_INVALID' || code === 'CASHOUT_NOT_FOUND'
        ? 'dead'
        : ['CASHOUT_LOGIN_REQUIRED', 'CASHOUT_LOGIN_INVALID', 'CASHOUT_PLAYER_MISMATCH'].includes(code)
          ? 'sign-in'
          : status === 409 || code === 'CASHOUT_LINK_EXPIRED'
            ? 'moved'
            : status >= 500
              ? 'retry'
              : 'fix';
    t.is(refusal.kind, expected, code);
  }
});

test('a code that did not sign in is said by its reason, on the code field', (t) => {
  for (const reason of ['WRONG_CODE', 'CODE_EXPIRED', 'NO_CODE', 'CODE_USED', 'TOO_MANY_TRIES']) {
    t.deepEqual(refusalOf(refused(422, 'CASHOUT_CODE_INVALID', { reason })), { kind: 'fix', words: CODE_WORDS[reason]!, field: 'code' }, reason);
  }
  t.is(refusalOf(refused(422, 'CASHOUT_CODE_INVALID', { reason: 'SOMETHING_NEW' })).words, CASHOUT_WORDS.CASHOUT_CODE_INVALID);
});

test('a refused address is said by its reason and names the network; a refused handle names the app', (t) => {
  const invalid = refusalOf(refused(422, 'CASHOUT_ADDRESS_NOT_ALLOWED', { reason: 'INVALID' }), { networkName: 'Base' });
  t.deepEqual(invalid, { kind: 'fix', words: 'That is not an address on Base. Check it and paste it again.', field: 'address' });
  for (const reason of ['ZERO', 'OWN_WALLET', 'ESCROW', 'TOKEN']) {
    const refusal = refusalOf(refused(422, 'CASHOUT_ADDRESS_NOT_ALLOWED', { reason }));
    t.is(refusal.field, 'address', reason);
    t.not(refusal.words, CASHOUT_WORDS.CASHOUT_ADDRESS_NOT_ALLOWED, `${reason} has words of its own`);
  }
  t.deepEqual(refusalOf(refused(422, 'CASHOUT_PAYEE_HANDLE_INVALID'), { railName: 'Venmo' }), {
    kind: 'fix',
    words: 'That is not a Venmo account we can pay. Check it and try again.',
    field: 'handle',
  });
  t.deepEqual(
    refusalOf(refused(422, 'CASHOUT_PAYEE_HANDLE_INVALID'), { railName: 'Venmo', account: '1618033988' }),
    {
      kind: 'fix',
      words: 'That is not the Venmo account you gave (1618033988). Sign in to 1618033988 and connect again, or change how you are paid.',
      field: 'account',
    },
    'connecting: the account signed in to is not the one given',
  );
  t.is(refusalOf(refused(422, 'CASHOUT_PAYPAL_EMAIL_MISMATCH')).field, 'paypalEmail');
  t.is(refusalOf(refused(422, 'CASHOUT_PAYOUT_DESTINATION_UNSUPPORTED')).field, 'token');
  t.is(refusalOf(refused(422, 'CASHOUT_PAYOUT_ROUTE_UNAVAILABLE')).field, 'network', 'no route: choose another network');
  t.is(refusalOf(refused(422, 'CASHOUT_PAYOUT_AMOUNT_TOO_LOW')).field, undefined);
});

test('too many tries waits what x-retry-after says; the node out of reach or down is retried', (t) => {
  const rationed = new CashoutError(429, null, 'Too many requests', null, 540);
  t.deepEqual(refusalOf(rationed), { kind: 'wait', words: 'Too many tries for now. Wait 9 minutes, then try again.' });
  t.is(refusalOf(new TypeError('Failed to fetch')).kind, 'retry');
  t.is(refusalOf(new Error('a bug')).kind, 'retry');
  t.is(refusalOf(refused(503, 'RATE_UNAVAILABLE')).kind, 'retry');
  t.is(refusalOf(refused(500, null)).kind, 'retry');
});

test('a validation 400 names the field it is about, in words', (t) => {
  const code = new CashoutError(400, null, 'Invalid request', { fieldErrors: { code: ['x'] } }, null, { code: ['must be the six digits'] });
  t.deepEqual(refusalOf(code), { kind: 'fix', words: 'Enter the 6 digits of the code we e-mailed you.', field: 'code' });
  const address = new CashoutError(400, null, 'Invalid request', null, null, { address: ['Too big'] });
  t.is(refusalOf(address).field, 'address');
  t.is(refusalOf(new CashoutError(400, null, 'Invalid request')).kind, 'fix');
});

test('a wait in words: seconds below a minute, whole minutes above', (t) => {
  t.is(waitWords(1), '1 second');
  t.is(waitWords(45), '45 seconds');
  t.is(waitWords(60), '1 minute');
  t.is(waitWords(61), '2 minutes');
  t.is(waitWords(900), '15 minutes');
});

test('a wallet short of the payout says how much it holds of what is needed, and the page reads the payout again', (t) => {
  const short = refused(409, 'CASHOUT_WALLET_SHORT', { walletShortfall: { requiredAmount: '100.00', availableAmount: '12.5' } });
  t.deepEqual(refusalOf(short), {
    kind: 'moved',
    words: 'Your wallet holds 12.50 USDC of the 100.00 USDC this payout needs: the rest was spent in the wallet app, so it cannot be paid out.',
  });
});

test('why a confirm did not list or send: a code’s words, a failed send, or the node’s message as a sentence', (t) => {
  t.is(
    listingErrorWords({ code: 'CASHOUT_LISTING_UNAVAILABLE', message: 'the listing could not be made: reverted' }),
    CASHOUT_WORDS.CASHOUT_LISTING_UNAVAILABLE,
  );
  t.is(
    listingErrorWords({ code: 'CASHOUT_SEND_FAILED', message: 'the transfer did not go through: reverted' }),
    'The transfer did not go through, so your USDC is still in your wallet. Try sending it again.',
  );
  t.regex(listingErrorWords({ code: 'CASHOUT_SEND_UNAVAILABLE', message: 'this node sends no payouts' }), /^Your payout could not be sent just now/);
  t.is(listingErrorWords({ code: 'POLICY_REFUSED', message: 'the signer refused the batch' }), 'The signer refused the batch.');
});
