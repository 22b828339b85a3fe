import test, { type ExecutionContext } from 'ava';
import { createSiweMessage } from 'viem/siwe';
import { withGateway, type TestGateway } from '../support/gateway.js';
import { newWallet, signIn, signedMessage, verify } from '../support/maker-sign-in.js';

const HOUR = 60 * 60 * 1000;

const me = (gateway: TestGateway, headers: Record<string, string>) => gateway.request('GET', '/v1/v1/me/referral', { headers });

function refusal(t: ExecutionContext, answer: { status: number; body: { errorCode?: string; success: boolean } }, status: number, code: string) {
  t.is(answer.status, status, JSON.stringify(answer.body));
  t.is(answer.body.errorCode, code);
  t.false(answer.body.success);
}

test('a wallet signs in with an EIP-4361 message and its token opens the maker operations', async (t) => {
  await withGateway(async (gateway) => {
    const challenge = await gateway.request('POST', '/v2/auth/nonce');
    t.is(challenge.status, 200);
    t.is(challenge.headers.get('cache-control'), 'no-store');
    const url = new URL(gateway.url);
    t.like(challenge.body.responseObject, {
      domain: url.host,
      uri: url.origin,
      version: '1',
      issuedAt: '2026-11-23T12:00:00.000Z',
      expiresAt: '2026-11-23T12:10:00.000Z',
    });
    t.true(challenge.body.responseObject.chainIds.includes(8453));
    t.regex(challenge.body.responseObject.nonce, /^[0-9a-z]{74}$/);

    const wallet = newWallet();
    const answer = await verify(gateway, await signedMessage(gateway, wallet));
    t.is(answer.status, 200);
    const { token, tokenType, expiresAt, walletAddress, chainId } = answer.body.responseObject;
    t.regex(token, /^pmt_[A-Za-z0-9_-]{43}$/);
    t.deepEqual([tokenType, expiresAt, walletAddress, chainId], ['Bearer', '2026-11-24T12:00:00.000Z', wallet.address, 8453]);

    const read = await me(gateway, { authorization: `Bearer ${token}` });
    t.is(read.status, 200);
    t.is(read.body.responseObject.walletAddress, wallet.address);
    // The store holds the session under the token's hash only.
    const sessions = await gateway.node.system.documents('maker-session').find({});
    t.is(sessions.length, 1);
    t.false(JSON.stringify(sessions).includes(token));
  });
});

test('a nonce signs in once, however many verifications race for it', async (t) => {
  await withGateway(async (gateway) => {
    const signed = await signedMessage(gateway, newWallet());
    const answers = await Promise.all(Array.from({ length: 12 }, () => verify(gateway, signed)));
    t.is(answers.filter((answer) => answer.status === 200).length, 1);
    for (const answer of answers.filter((candidate) => candidate.status !== 200)) refusal(t, answer, 401, 'SIWE_NONCE_USED');
    t.is(await gateway.node.system.documents('maker-session').count({}), 1);
    refusal(t, await verify(gateway, signed), 401, 'SIWE_NONCE_USED');
  });
});

test('nonces expire on the node’s clock, and one not issued here is unknown', async (t) => {
  await withGateway(
    async (gateway) => {
      const wallet = newWallet();
      const signed = await signedMessage(gateway, wallet);
      await gateway.clock.advance(10 * 60 * 1000);
      refusal(t, await verify(gateway, signed), 401, 'SIWE_NONCE_EXPIRED');

      const madeUp = await signedMessage(gateway, wallet, { nonce: 'a'.repeat(74) });
      refusal(t, await verify(gateway, madeUp), 401, 'SIWE_NONCE_UNKNOWN');
      // A real nonce with its expiry pushed later no longer matches its MAC.
      const real = await signedMessage(gateway, wallet);
      const stretched = await signedMessage(gateway, wallet, { nonce: `zzzzzzzzzz${real.nonce.slice(10)}` });
      refusal(t, await verify(gateway, stretched), 401, 'SIWE_NONCE_UNKNOWN');
      t.is(await gateway.node.system.documents('maker-session').count({}), 0);
    },
    { MAKER_NONCE_TTL_MS: 10 * 60 * 1000 },
  );
});

test('a message for another site, chain or time is refused, and a refused attempt leaves the nonce usable', async (t) => {
  await withGateway(async (gateway) => {
    const wallet = newWallet();
    const now = gateway.clock.now();
    const cases: Array<[Parameters<typeof signedMessage>[2], string]> = [
      [{ domain: 'evil.example' }, 'SIWE_DOMAIN_MISMATCH'],
      [{ uri: 'https://evil.example/login' }, 'SIWE_DOMAIN_MISMATCH'],
      [{ scheme: 'https' }, 'SIWE_DOMAIN_MISMATCH'],
      [{ chainId: 999 }, 'SIWE_CHAIN_UNSUPPORTED'],
      [{ expirationTime: new Date(now - 1) }, 'SIWE_MESSAGE_EXPIRED'],
      [{ notBefore: new Date(now + HOUR) }, 'SIWE_MESSAGE_NOT_YET_VALID'],
      [{ issuedAt: new Date(now + HOUR) }, 'SIWE_MESSAGE_NOT_YET_VALID'],
    ];
    for (const [fields, code] of cases) refusal(t, await verify(gateway, await signedMessage(gateway, wallet, fields)), 401, code);

    // The local chain's id is good only where the node runs one: this node runs none.
    refusal(t, await verify(gateway, await signedMessage(gateway, wallet, { chainId: 31337 })), 401, 'SIWE_CHAIN_UNSUPPORTED');
    const signed = await signedMessage(gateway, wallet, { uri: `${new URL(gateway.url).origin}/makers/sign-in`, chainId: 10 });
    const forged = await newWallet().signMessage({ message: signed.message });
    refusal(t, await verify(gateway, { message: signed.message, signature: forged }), 401, 'SIGNATURE_INVALID');
    t.is(await gateway.node.system.documents('maker-session').count({}), 0);
    t.is((await verify(gateway, signed)).status, 200, 'the nonce was not spent by the refusals');
  });
});

test('only an exact EIP-4361 message is read; times may be written with or without fractions', async (t) => {
  await withGateway(async (gateway) => {
    const wallet = newWallet();
    const signedWith = async (message: string) => ({ message, signature: await wallet.signMessage({ message }) });
    const base = await signedMessage(gateway, wallet);
    for (const message of [
      'hello',
      `${base.message}\nP.S. and transfer everything`,
      base.message.replace(wallet.address, wallet.address.toLowerCase()),
      base.message.replace('Version: 1', 'Version: 2'),
      base.message.replace(/Issued At: .*/, 'Issued At: yesterday'),
    ]) {
      refusal(t, await verify(gateway, await signedWith(message)), 400, 'SIWE_MESSAGE_INVALID');
    }
    const seconds = base.message.replace(/Issued At: (.*)\.000Z/, 'Issued At: $1Z');
    t.not(seconds, base.message);
    t.is((await verify(gateway, await signedWith(seconds))).status, 200);
  });
});

test('a malformed body is the validation 400 and a smart-contract wallet’s signature is refused by shape', async (t) => {
  await withGateway(async (gateway) => {
    const signed = await signedMessage(gateway, newWallet());
    for (const body of [
      {},
      { message: signed.message },
      { ...signed, extra: 1 },
      { message: signed.message, signature: `${signed.signature}00` },
      { message: '', signature: signed.signature },
    ]) {
      const answer = await gateway.request('POST', '/v2/auth/verify', { body });
      t.is(answer.status, 400);
      t.is(answer.body.errorCode, undefined);
      t.truthy(answer.body.responseObject.fieldErrors);
    }
    t.is((await verify(gateway, signed)).status, 200);
  });
});

test('the token: missing, invalid and expired are told apart, and it never outlives the message', async (t) => {
  await withGateway(async (gateway) => {
    const missing = await gateway.request('GET', '/v1/v1/me/referral');
    refusal(t, missing, 401, 'TOKEN_MISSING');
    t.is(missing.headers.get('www-authenticate'), 'Bearer realm="maker"');
    refusal(t, await me(gateway, { authorization: 'Basic abc' }), 401, 'TOKEN_MISSING');
    refusal(t, await me(gateway, { 'x-api-key': 'pmt_whatever' }), 401, 'TOKEN_MISSING');
    const invalid = await me(gateway, { authorization: `Bearer pmt_${'A'.repeat(43)}` });
    refusal(t, invalid, 401, 'TOKEN_INVALID');
    t.regex(invalid.headers.get('www-authenticate')!, /error="invalid_token"/);
    refusal(t, await me(gateway, { authorization: 'Bearer not-a-token' }), 401, 'TOKEN_INVALID');

    const { headers } = await signIn(gateway);
    const wallet = newWallet();
    const short = await verify(gateway, await signedMessage(gateway, wallet, { expirationTime: new Date(gateway.clock.now() + HOUR) }));
    t.is(short.body.responseObject.expiresAt, '2026-11-23T13:00:00.000Z');
    const shortHeaders = { authorization: `Bearer ${short.body.responseObject.token}` };
    t.is((await me(gateway, shortHeaders)).status, 200);
    await gateway.clock.advance(HOUR);
    refusal(t, await me(gateway, shortHeaders), 401, 'TOKEN_EXPIRED');
    t.is((await me(gateway, headers)).status, 200);
    await gateway.clock.advance(23 * HOUR);
    refusal(t, await me(gateway, headers), 401, 'TOKEN_EXPIRED');
  });
});

test('signing out ends that session only', async (t) => {
  await withGateway(async (gateway) => {
    const wallet = newWallet();
    const first = await signIn(gateway, wallet);
    const second = await signIn(gateway, wallet);
    const out = await gateway.request('POST', '/v2/auth/logout', { headers: first.headers });
    t.is(out.status, 200);
    t.deepEqual(out.body.responseObject, { walletAddress: wallet.address, signedOutAt: '2026-11-23T12:00:00.000Z' });
    refusal(t, await me(gateway, first.headers), 401, 'TOKEN_INVALID');
    refusal(t, await gateway.request('POST', '/v2/auth/logout', { headers: first.headers }), 401, 'TOKEN_INVALID');
    t.is((await me(gateway, second.headers)).status, 200);
    // Two sign-outs racing with one token are one sign-out: the second to reach the session is taken too, never refused.
    const both = await Promise.all([0, 1].map(() => gateway.request('POST', '/v2/auth/logout', { headers: second.headers })));
    t.true(both.some((answer) => answer.status === 200));
    for (const answer of both.filter((candidate) => candidate.status !== 200)) refusal(t, answer, 401, 'TOKEN_INVALID');
    const [session] = await gateway.node.system.documents('maker-session').find({ 'view.signedIn': false }, { limit: 1 });
    await t.notThrowsAsync(gateway.node.system.askAt({ kind: 'maker-session', id: session!._id }, { type: 'SIGN_OUT', at: '2026-11-23T12:00:00.000Z' }));
    refusal(t, await me(gateway, second.headers), 401, 'TOKEN_INVALID');
  });
});

test('the site makers sign in at is MAKER_AUTH_ORIGIN when set', async (t) => {
  await withGateway(
    async (gateway) => {
      const challenge = (await gateway.request('POST', '/v2/auth/nonce')).body.responseObject;
      t.like(challenge, { domain: 'app.peer.example', uri: 'https://app.peer.example' });
      const wallet = newWallet();
      const message = createSiweMessage({
        domain: 'app.peer.example',
        scheme: 'https',
        address: wallet.address,
        uri: 'https://app.peer.example/',
        version: '1',
        chainId: 1,
        nonce: challenge.nonce,
        issuedAt: new Date(gateway.clock.now()),
      });
      t.is((await verify(gateway, { message, signature: await wallet.signMessage({ message }) })).status, 200);
      refusal(
        t,
        await verify(gateway, await signedMessage(gateway, wallet, { domain: new URL(gateway.url).host, uri: gateway.url })),
        401,
        'SIWE_DOMAIN_MISMATCH',
      );
    },
    { MAKER_AUTH_ORIGIN: 'https://app.peer.example' },
  );
});
