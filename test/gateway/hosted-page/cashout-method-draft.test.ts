/**
 * Choosing how to be paid on the payout checkout (gateway/hosted-page/client/cashout-method-draft.ts):
 * the choices a payout's rails give, the form as a saved method fills it, and the body sent
 * or what to fix, each body one the API's own schema takes (gateway/cashout/cashout-methods.ts).
 */
import test from 'ava';
import { saveMethodBody } from '../../../gateway/cashout/cashout-methods.js';
import {
  CRYPTO_CHOICE,
  currenciesOf,
  draftOf,
  handleKind,
  type MethodDraft,
  methodBody,
  methodChoices,
} from '../../../gateway/hosted-page/client/cashout-method-draft.js';
import { answeredState, VENMO } from './cashout-state-fixture.js';

const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const state = answeredState();
const choices = methodChoices(state);
const draft = (change: Partial<MethodDraft>): MethodDraft => ({ ...draftOf(state, choices), ...change });

function bodyOf(check: ReturnType<typeof methodBody>) {
  if (!('body' in check)) throw new Error(`refused: ${check.problem}`);
  return check.body;
}

test('the payout’s fiat rails are offered by name in the document’s order, every crypto rail as its network', (t) => {
  t.deepEqual(choices.fiat, ['venmo', 'cashapp', 'paypal', 'zelle', 'revolut', 'chime']);
  t.deepEqual(
    choices.networks.map((network) => network.name),
    ['Base'],
  );
  const fewer = methodChoices(answeredState({ rails: [{ rail: 'zelle', kind: 'FIAT', minAmount: '1.00' }] }));
  t.deepEqual(fewer, { fiat: ['zelle'], networks: [] });
});

test('the form starts empty with USDC on the first network, picks the only choice there is, and is filled by a saved method', (t) => {
  t.like(draftOf(state, choices), { choice: null, handle: '', currency: 'USD', network: 'routea_8453', tokenAddress: BASE_USDC });
  const onlyVenmo = answeredState({ rails: [{ rail: 'venmo', kind: 'FIAT', minAmount: '1.00' }] });
  t.is(draftOf(onlyVenmo, methodChoices(onlyVenmo)).choice, 'venmo');
  t.like(draftOf(answeredState({ method: VENMO }), choices), { choice: 'venmo', handle: '1618033988', currency: 'USD' });
  const crypto = answeredState({
    method: {
      rail: 'routea_8453',
      destination: { chainId: 8453, tokenAddress: BASE_USDC, symbol: 'USDC', decimals: 6, address: '0x4444444444444444444444444444444444444444' },
    },
  });
  t.like(draftOf(crypto, choices), { choice: CRYPTO_CHOICE, network: 'routea_8453', address: '0x4444444444444444444444444444444444444444' });
});

test('what is missing or wrong is said before anything is sent, on its field', (t) => {
  t.deepEqual(methodBody(draft({}), choices), { problem: 'Choose how you want to be paid.', field: 'choice' });
  t.deepEqual(methodBody(draft({ choice: 'venmo' }), choices), { problem: 'Enter your Venmo user ID.', field: 'handle' });
  t.deepEqual(methodBody(draft({ choice: 'venmo', handle: '@ana' }), choices), { problem: 'That is not a Venmo user id.', field: 'handle' });
  t.deepEqual(methodBody(draft({ choice: 'revolut', handle: '@anapays', currency: 'JPY' }), choices), {
    problem: 'Choose the currency you want to receive.',
    field: 'currency',
  });
  t.deepEqual(methodBody(draft({ choice: 'paypal', handle: 'ana@example.com' }), choices), {
    problem: 'Type your PayPal e-mail again to confirm it.',
    field: 'paypalEmail',
  });
  t.deepEqual(methodBody(draft({ choice: 'paypal', handle: 'ana@example.com', paypalEmail: 'ann@example.com' }), choices), {
    problem: 'The two PayPal e-mails are not the same.',
    field: 'paypalEmail',
  });
  t.deepEqual(methodBody(draft({ choice: CRYPTO_CHOICE }), choices), { problem: 'Paste your address on Base.', field: 'address' });
  t.deepEqual(methodBody(draft({ choice: CRYPTO_CHOICE, tokenAddress: '0xdAC17F958D2ee523a2206206994597C13D831ec7', address: '0x44' }), choices), {
    problem: 'Choose the token to receive.',
    field: 'token',
  });
  const noChime = methodChoices(answeredState({ rails: [{ rail: 'venmo', kind: 'FIAT', minAmount: '1.00' }] }));
  t.is((methodBody(draft({ choice: 'chime', handle: '$ana' }), noChime) as { field: string }).field, 'choice', 'a rail the payout does not offer');
});

test('each body is one the API’s schema takes: a currency only where the rail has a choice, PayPal’s e-mail, a crypto destination', (t) => {
  const bodies = [
    [bodyOf(methodBody(draft({ choice: 'venmo', handle: ' 1618033988 ' }), choices)), { rail: 'venmo', payeeHandle: '1618033988' }],
    [bodyOf(methodBody(draft({ choice: 'cashapp', handle: '$AnaPays' }), choices)), { rail: 'cashapp', payeeHandle: '$AnaPays' }],
    [bodyOf(methodBody(draft({ choice: 'zelle', handle: '+1 415 555 0100' }), choices)), { rail: 'zelle', payeeHandle: '+1 415 555 0100' }],
    [bodyOf(methodBody(draft({ choice: 'chime', handle: '$Ana-Pays' }), choices)), { rail: 'chime', payeeHandle: '$Ana-Pays' }],
    [
      bodyOf(methodBody(draft({ choice: 'revolut', handle: '@anapays', currency: 'CHF' }), choices)),
      { rail: 'revolut', payeeHandle: '@anapays', currency: 'CHF' },
    ],
    [
      bodyOf(methodBody(draft({ choice: 'paypal', handle: 'Ana@Example.com', paypalEmail: 'ana@example.com', currency: 'EUR' }), choices)),
      { rail: 'paypal', payeeHandle: 'Ana@Example.com', paypalEmail: 'ana@example.com', currency: 'EUR' },
    ],
    [
      bodyOf(methodBody(draft({ choice: CRYPTO_CHOICE, address: ' 0x4444444444444444444444444444444444444444 ' }), choices)),
      { rail: 'routea_8453', tokenAddress: BASE_USDC, address: '0x4444444444444444444444444444444444444444' },
    ],
  ] as const;
  for (const [body, expected] of bodies) {
    t.deepEqual(body, expected);
    t.true(saveMethodBody.safeParse(body).success, JSON.stringify(body));
  }
});

test('what each rail’s handle is, and the currencies of document 2’s table', (t) => {
  t.is(handleKind('venmo'), 'a Venmo user id');
  t.is(handleKind('cashapp'), 'a $Cashtag');
  t.is(handleKind('zelle'), 'an e-mail address or a US phone number');
  t.is(handleKind('paypal'), 'an e-mail address');
  t.deepEqual(currenciesOf('venmo'), ['USD']);
  t.deepEqual(currenciesOf('paypal'), ['USD', 'EUR', 'GBP', 'AUD', 'CAD', 'NZD', 'SGD']);
  t.is(currenciesOf('revolut').length, 12);
});
