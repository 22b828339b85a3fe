/**
 * A signed-in customer's actions on a payout's checkout, refused as document 2 says: the login
 * token's customer must be the payout's; an ended payout is read, not acted on; a method is
 * checked against the rail's rules, the payout's rails and the payout catalog; and a refusal of
 * the payout's state carries { status, actions }. (On the local chain the same actions list a
 * payout and buyers pay it: test/deploy/payout-listing-local.test.ts.)
 */
import test from 'ava';
import { payoutBody } from '../../support/payout-fakes.js';
import { SETTINGS } from '../payouts/payout-world.js';
import { cashoutWorld, linkOf } from './cashout-world.js';

const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

test('the login token speaks for its customer on every payout of theirs and on no one else’s', async (t) => {
  const world = await cashoutWorld(t);
  const ana = await world.fundedPayout();
  const anaAgain = await world.fundedPayout();
  const ben = await world.fundedPayout(payoutBody({ customerEmail: 'ben@example.com' }));
  const login = await world.signIn(ana);
  const zelle = { rail: 'zelle', payeeHandle: 'ana@example.com' };
  t.is((await world.checkout(anaAgain, 'PUT', '/method', { body: zelle, login })).status, 200, 'another payout of the same customer');
  const mismatch = await world.checkout(ben, 'PUT', '/method', { body: zelle, login });
  t.is(mismatch.status, 403);
  t.is(mismatch.body.errorCode, 'CASHOUT_PLAYER_MISMATCH');
  t.is((await world.checkout(ana, 'PUT', '/method', { body: zelle })).body.errorCode, 'CASHOUT_LOGIN_REQUIRED');
  t.is((await world.checkout(ana, 'PUT', '/method', { body: zelle, login: `${login}x` })).body.errorCode, 'CASHOUT_LOGIN_INVALID');
  t.is((await world.checkout(ana, 'PUT', '/method', { body: zelle, login, token: 'wrong' })).body.errorCode, 'CASHOUT_TOKEN_INVALID');
  await world.advance(2 * 60 * 60 * 1000);
  t.is((await world.checkout(ana, 'PUT', '/method', { body: zelle, login })).body.errorCode, 'CASHOUT_LOGIN_INVALID', 'expired after two hours');
});

test('an ended payout answers every action 401 CASHOUT_LINK_EXPIRED with its status, and stays readable', async (t) => {
  const world = await cashoutWorld(t);
  const created = await world.created();
  t.is((await world.cancel(created.payoutId)).status, 200);
  const link = linkOf(created.checkoutUrl);
  const login = await world.signIn(link);
  const refused = await world.checkout(link, 'PUT', '/method', { body: { rail: 'zelle', payeeHandle: 'ana@example.com' }, login });
  t.is(refused.status, 401);
  t.like(refused.body, { errorCode: 'CASHOUT_LINK_EXPIRED', responseObject: { status: 'CANCELLED' } });
  const read = await world.checkout(link, 'GET');
  t.is(read.status, 200);
  t.like(read.body.responseObject, { payout: { status: 'CANCELLED' }, actions: [] });
});

test('a method is checked: the handle against the rail, the rail and network against the payout, the token and address against the catalog', async (t) => {
  const world = await cashoutWorld(t);
  const link = await world.fundedPayout();
  const login = await world.signIn(link);
  const save = (body: unknown) => world.checkout(link, 'PUT', '/method', { body, login });
  const cases: Array<[string, unknown, number, string, unknown?]> = [
    ['a Venmo handle that is not a user id', { rail: 'venmo', payeeHandle: '@ana' }, 422, 'CASHOUT_PAYEE_HANDLE_INVALID'],
    ['a Zelle handle that is neither e-mail nor US phone', { rail: 'zelle', payeeHandle: 'ana' }, 422, 'CASHOUT_PAYEE_HANDLE_INVALID'],
    ['Revolut, which the payout does not offer', { rail: 'revolut', payeeHandle: '@anapays', currency: 'EUR' }, 422, 'CASHOUT_RAIL_UNAVAILABLE'],
    [
      'Ethereum, which the payout does not offer',
      { rail: 'routea_1', tokenAddress: USDC_ON_BASE, address: '0x9999999999999999999999999999999999999999' },
      422,
      'CASHOUT_PAYOUT_NETWORK_UNAVAILABLE',
    ],
    [
      'a token Base does not pay out',
      { rail: 'routea_8453', tokenAddress: '0x000000000000000000000000000000000000dEaD', address: '0x9999999999999999999999999999999999999999' },
      422,
      'CASHOUT_PAYOUT_DESTINATION_UNSUPPORTED',
    ],
    [
      'the zero address',
      { rail: 'routea_8453', tokenAddress: USDC_ON_BASE, address: '0x0000000000000000000000000000000000000000' },
      422,
      'CASHOUT_ADDRESS_NOT_ALLOWED',
      { reason: 'ZERO' },
    ],
    ['a token contract', { rail: 'routea_8453', tokenAddress: USDC_ON_BASE, address: USDC_ON_BASE }, 422, 'CASHOUT_ADDRESS_NOT_ALLOWED', { reason: 'TOKEN' }],
    [
      'a Bitcoin address on Base',
      { rail: 'routea_8453', tokenAddress: USDC_ON_BASE, address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      422,
      'CASHOUT_ADDRESS_NOT_ALLOWED',
      { reason: 'INVALID' },
    ],
    ['a currency on Zelle', { rail: 'zelle', payeeHandle: 'ana@example.com', currency: 'USD' }, 400, ''],
    ['an unknown field', { rail: 'routea_8453', tokenAddress: USDC_ON_BASE, address: '0x9999999999999999999999999999999999999999', chainId: 8453 }, 400, ''],
  ];
  for (const [what, body, status, code, details] of cases) {
    const answer = await save(body);
    t.is(answer.status, status, what);
    if (code) t.is(answer.body.errorCode, code, what);
    if (details) t.like(answer.body.responseObject, details as Record<string, unknown>, what);
  }
  t.like((await world.checkout(link, 'GET')).body.responseObject, { payout: { status: 'FUNDED' }, method: null }, 'nothing refused was saved');
  const wallet = (await world.context(link.payoutId)).walletAddress!;
  const own = await save({ rail: 'routea_8453', tokenAddress: USDC_ON_BASE, address: wallet });
  t.like(own.body, { errorCode: 'CASHOUT_ADDRESS_NOT_ALLOWED', responseObject: { reason: 'OWN_WALLET' } });

  const crypto = await save({ rail: 'routea_8453', tokenAddress: USDC_ON_BASE, address: ' 0x9999999999999999999999999999999999999999 ' });
  t.is(crypto.status, 200);
  t.like(crypto.body.responseObject, {
    payout: { status: 'READY', payoutCurrency: null },
    method: { rail: 'routea_8453', destination: { symbol: 'USDC', address: '0x9999999999999999999999999999999999999999' } },
  });
});

test('Zelle is READY at once; Venmo waits for SKIP_CONNECT; what is not offered is refused with the status and the actions', async (t) => {
  const world = await cashoutWorld(t);
  const link = await world.fundedPayout();
  const login = await world.signIn(link);
  const skipEarly = await world.checkout(link, 'POST', '/skip-connect', { login });
  t.like(skipEarly.body, { errorCode: 'CASHOUT_SKIP_NOT_ALLOWED', responseObject: { status: 'FUNDED', actions: ['SIGN_IN', 'SAVE_METHOD'] } });
  const confirmEarly = await world.checkout(link, 'POST', '/confirm', { login });
  t.like(confirmEarly.body, { errorCode: 'CASHOUT_NOT_READY', responseObject: { status: 'FUNDED' } });

  const venmo = await world.checkout(link, 'PUT', '/method', { body: { rail: 'venmo', payeeHandle: '3141592653' }, login });
  t.like(venmo.body.responseObject, {
    payout: { status: 'FUNDED' },
    actions: ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT'],
    method: { rail: 'venmo', currency: 'USD' },
  });
  t.like((await world.checkout(link, 'POST', '/skip-connect', { login })).body.responseObject, {
    payout: { status: 'READY' },
    actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'],
  });

  const zelle = await world.checkout(link, 'PUT', '/method', { body: { rail: 'zelle', payeeHandle: 'Ana@Example.com' }, login });
  t.like(zelle.body.responseObject, { payout: { status: 'READY', payoutCurrency: 'USD' }, method: { rail: 'zelle', handle: 'Ana@Example.com' } });
  // This node has no payout signer (the fake wallet provider): confirming says so, with the state.
  const noSigner = await world.checkout(link, 'POST', '/confirm', { login });
  t.is(noSigner.status, 409);
  t.like(noSigner.body, { errorCode: 'CASHOUT_SIGNER_NOT_ATTACHED', responseObject: { status: 'READY', actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'] } });
  const timeline = (await world.checkout(link, 'GET')).body.responseObject.timeline.map((entry: { type: string }) => entry.type);
  t.deepEqual(timeline, ['CREATED', 'FUNDED', 'SIGNED_IN', 'METHOD_READY', 'METHOD_READY']);
});

test('PayPal pays only an account already set up, under the e-mail it was set up with; Revolut takes its currencies', async (t) => {
  const world = await cashoutWorld(t);
  await world.setSettings({ ...SETTINGS, methods: ['paypal', 'revolut'] });
  const link = await world.fundedPayout();
  const login = await world.signIn(link);
  const save = (body: unknown) => world.checkout(link, 'PUT', '/method', { body, login });
  const paypal = { rail: 'paypal', payeeHandle: 'ana@example.com', paypalEmail: 'ana@example.com', currency: 'EUR' };
  t.is((await save(paypal)).body.errorCode, 'CASHOUT_PAYEE_NOT_REGISTERED');
  await world.gateway.node.payeeDirectory.register('paypal', 'ana@example.com', world.iso());
  t.is((await save({ ...paypal, paypalEmail: 'not-an-email' })).body.errorCode, 'CASHOUT_PAYPAL_EMAIL_INVALID');
  t.is((await save({ ...paypal, payeeHandle: 'ana.other@example.com' })).body.errorCode, 'CASHOUT_PAYPAL_EMAIL_MISMATCH');
  t.is((await save({ ...paypal, currency: 'CHF' })).status, 400, 'PayPal does not pay CHF');
  const saved = await save(paypal);
  t.like(saved.body.responseObject, { payout: { status: 'FUNDED', payoutCurrency: 'EUR' }, actions: ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT'] });
  const revolut = await save({ rail: 'revolut', payeeHandle: '@AnaPays', currency: 'CHF' });
  t.like(revolut.body.responseObject, { payout: { status: 'READY', payoutCurrency: 'CHF' }, method: { rail: 'revolut', handle: '@AnaPays', currency: 'CHF' } });
  t.is((await save({ rail: 'revolut', payeeHandle: '@AnaPays' })).status, 400, 'Revolut needs its currency');
});
