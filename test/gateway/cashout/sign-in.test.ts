/**
 * The customer's way into a payout's checkout (document 2, Authentication 4;
 * docs/payout-checkout.md): the link token opens the payout and nothing else; a code mailed
 * to the payout's e-mail signs in once, expires, dies after five wrong tries and is rationed;
 * the login token speaks for that customer on every payout of theirs and no one else's; a
 * rotated link key ends old links and a replayed create answers the new one.
 */
import test from 'ava';
import { payoutBody } from '../../support/payout-fakes.js';
import { cashoutWorld, linkOf } from './cashout-world.js';

test('the link opens its payout’s checkout; a wrong token, no token and an unknown payout are the same 401', async (t) => {
  const world = await cashoutWorld(t);
  const link = await world.fundedPayout();
  const state = await world.checkout(link, 'GET');
  t.is(state.status, 200, JSON.stringify(state.body));
  t.like(state.body.responseObject, { payout: { payoutId: link.payoutId, status: 'FUNDED' }, sentTo: 'a••@example.com', actions: ['SIGN_IN', 'SAVE_METHOD'] });
  t.false(JSON.stringify(state.body).includes('ana@example.com'), 'the e-mail never leaves unmasked');

  const other = await world.fundedPayout(payoutBody({ customerEmail: 'ben@example.com' }));
  for (const [what, answer] of [
    ['a wrong token', await world.checkout(link, 'GET', '', { token: 'x' })],
    ['no token', await world.checkout(link, 'GET', '', { token: null })],
    ['another payout’s token', await world.checkout(link, 'GET', '', { token: other.token })],
    ['an unknown payout', await world.checkout({ payoutId: 'po_unknown', token: link.token }, 'GET')],
  ] as const) {
    t.is(answer.status, 401, what);
    t.is(answer.body.errorCode, 'CASHOUT_TOKEN_INVALID', what);
  }
});

test('a code mailed to the payout’s e-mail signs in once; wrong, reused and expired codes say why', async (t) => {
  const world = await cashoutWorld(t);
  const link = await world.fundedPayout();
  const sent = await world.checkout(link, 'POST', '/sign-in/code');
  t.is(sent.status, 202);
  t.like(sent.body.responseObject, { sentTo: 'a••@example.com' });
  t.is(world.mail.sent.length, 1);
  const code = world.mail.codeFor('ana@example.com');
  t.regex(code, /^\d{6}$/);

  const wrong = code === '000000' ? '000001' : '000000';
  const refused = await world.checkout(link, 'POST', '/sign-in', { body: { code: wrong } });
  t.is(refused.status, 422);
  t.like(refused.body, { errorCode: 'CASHOUT_CODE_INVALID', responseObject: { reason: 'WRONG_CODE' } });
  const signedIn = await world.checkout(link, 'POST', '/sign-in', { body: { code } });
  t.is(signedIn.status, 200);
  t.truthy(signedIn.body.responseObject.loginToken);
  const again = await world.checkout(link, 'POST', '/sign-in', { body: { code } });
  t.like(again.body, { errorCode: 'CASHOUT_CODE_INVALID', responseObject: { reason: 'CODE_USED' } });

  await world.checkout(link, 'POST', '/sign-in/code');
  await world.advance(10 * 60 * 1000);
  const late = await world.checkout(link, 'POST', '/sign-in', { body: { code: world.mail.codeFor('ana@example.com') } });
  t.like(late.body, { errorCode: 'CASHOUT_CODE_INVALID', responseObject: { reason: 'CODE_EXPIRED' } });

  const none = await world.fundedPayout(payoutBody({ customerEmail: 'ben@example.com' }));
  const noCode = await world.checkout(none, 'POST', '/sign-in', { body: { code: '123456' } });
  t.like(noCode.body, { errorCode: 'CASHOUT_CODE_INVALID', responseObject: { reason: 'NO_CODE' } });
  const malformed = await world.checkout(link, 'POST', '/sign-in', { body: { code: '12345' } });
  t.is(malformed.status, 400);
});

test('five wrong tries end a code, even the right one after them; a new code replaces the old', async (t) => {
  const world = await cashoutWorld(t);
  const link = await world.fundedPayout();
  await world.checkout(link, 'POST', '/sign-in/code');
  const first = world.mail.codeFor('ana@example.com');
  const wrong = first === '000000' ? '000001' : '000000';
  for (let i = 0; i < 5; i++) t.is((await world.checkout(link, 'POST', '/sign-in', { body: { code: wrong } })).body.responseObject.reason, 'WRONG_CODE');
  const locked = await world.checkout(link, 'POST', '/sign-in', { body: { code: first } });
  t.like(locked.body, { errorCode: 'CASHOUT_CODE_INVALID', responseObject: { reason: 'TOO_MANY_TRIES' } });

  await world.checkout(link, 'POST', '/sign-in/code');
  const second = world.mail.codeFor('ana@example.com');
  if (second !== first) t.is((await world.checkout(link, 'POST', '/sign-in', { body: { code: first } })).body.responseObject.reason, 'WRONG_CODE');
  t.is((await world.checkout(link, 'POST', '/sign-in', { body: { code: second } })).status, 200);
});

test('a payout is sent five codes in 15 minutes, then 429 with x-retry-after; the window passes and codes flow again', async (t) => {
  const world = await cashoutWorld(t);
  const link = await world.fundedPayout();
  for (let i = 0; i < 5; i++) t.is((await world.checkout(link, 'POST', '/sign-in/code')).status, 202);
  const limited = await world.checkout(link, 'POST', '/sign-in/code');
  t.is(limited.status, 429);
  t.is(limited.body.errorCode, undefined);
  t.is(limited.headers.get('x-retry-after'), '900');
  t.is(world.mail.sent.length, 5, 'nothing mailed when refused');
  await world.advance(15 * 60 * 1000);
  t.is((await world.checkout(link, 'POST', '/sign-in/code')).status, 202);
});

test('a code the mail server will not take is 503 CASHOUT_CODE_NOT_SENT', async (t) => {
  const world = await cashoutWorld(t);
  const link = await world.fundedPayout();
  world.mail.failing = true;
  const answer = await world.checkout(link, 'POST', '/sign-in/code');
  t.is(answer.status, 503);
  t.is(answer.body.errorCode, 'CASHOUT_CODE_NOT_SENT');
});

test('a rotated link key ends every earlier link with 401; a replayed create answers the new link, which opens the payout', async (t) => {
  const world = await cashoutWorld(t);
  const body = payoutBody();
  const created = await world.created(body, 'rotation-key-1');
  const old = linkOf(created.checkoutUrl);
  t.is((await world.checkout(old, 'GET')).status, 200);
  t.is((await world.gateway.admin('POST', '/internal/v1/payout-links/rotate')).status, 200);
  t.is((await world.checkout(old, 'GET')).body.errorCode, 'CASHOUT_TOKEN_INVALID');
  const replay = (await world.create(body, 'rotation-key-1')).body.responseObject;
  t.not(replay.checkoutUrl, created.checkoutUrl);
  t.is((await world.checkout(linkOf(replay.checkoutUrl), 'GET')).status, 200);
});
