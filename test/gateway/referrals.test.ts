import test, { type ExecutionContext } from 'ava';
import { withGateway, type TestGateway } from '../support/gateway.js';
import { signIn } from '../support/maker-sign-in.js';

type Maker = Awaited<ReturnType<typeof signIn>>;

const read = (gateway: TestGateway, maker: Maker) => gateway.request('GET', '/v1/v1/me/referral', { headers: maker.headers });
const setCode = (gateway: TestGateway, maker: Maker, code: unknown) =>
  gateway.request('PATCH', '/v1/v1/me/referral/code', { headers: maker.headers, body: { code } });
const redeem = (gateway: TestGateway, maker: Maker, code: unknown) => gateway.request('POST', '/v1/v1/redeem', { headers: maker.headers, body: { code } });

function refusal(t: ExecutionContext, answer: { status: number; body: { errorCode?: string } }, status: number, code: string): void {
  t.is(answer.status, status, JSON.stringify(answer.body));
  t.is(answer.body.errorCode, code);
}

/** Every code held, by wallet: what the uniqueness rules are about. */
async function heldCodes(gateway: TestGateway): Promise<Array<{ key: string; owner: string }>> {
  const docs = await gateway.node.system.documents('referral-code').find({ 'view.held': true });
  return docs.map((doc) => ({ key: doc._id, owner: (doc.view as { owner: string }).owner }));
}

test('a new maker has no code, no redemptions and no referrer; it sets a code and changes it', async (t) => {
  await withGateway(async (gateway) => {
    const alice = await signIn(gateway);
    const fresh = await read(gateway, alice);
    t.is(fresh.status, 200);
    t.deepEqual(fresh.body.responseObject, { walletAddress: alice.account.address, code: null, redemptions: 0, referredBy: null });
    t.is(await gateway.node.system.documents('maker-referral').count({}), 0, 'a read writes nothing');

    const set = await setCode(gateway, alice, 'Alice-2026');
    t.is(set.status, 200);
    t.is(set.body.responseObject.code, 'Alice-2026');
    t.is((await read(gateway, alice)).body.responseObject.code, 'Alice-2026');
    // Its own code in another spelling is still its own.
    t.is((await setCode(gateway, alice, 'ALICE-2026')).body.responseObject.code, 'ALICE-2026');
    const changed = await setCode(gateway, alice, 'alice_new');
    t.is(changed.body.responseObject.code, 'alice_new');
    t.deepEqual(await heldCodes(gateway), [{ key: 'alice_new', owner: alice.account.address.toLowerCase() }]);

    // The old code is free again.
    const bob = await signIn(gateway);
    t.is((await setCode(gateway, bob, 'alice-2026')).status, 200);
  });
});

test('a code is one maker’s whatever its letter case; a taken code changes nothing', async (t) => {
  await withGateway(async (gateway) => {
    const [alice, bob] = [await signIn(gateway), await signIn(gateway)];
    await setCode(gateway, alice, 'Sunrise');
    await setCode(gateway, bob, 'bob-code');
    refusal(t, await setCode(gateway, bob, 'sunRISE'), 409, 'REFERRAL_CODE_TAKEN');
    t.is((await read(gateway, bob)).body.responseObject.code, 'bob-code');
    t.is((await read(gateway, alice)).body.responseObject.code, 'Sunrise');
  });
});

test('concurrent claims of one code: exactly one maker gets it', async (t) => {
  await withGateway(async (gateway) => {
    const makers = await Promise.all(Array.from({ length: 10 }, () => signIn(gateway)));
    const answers = await Promise.all(makers.map((maker) => setCode(gateway, maker, maker === makers[3] ? 'SHARED' : 'shared')));
    const winners = answers.flatMap((answer, index) => (answer.status === 200 ? [makers[index]!] : []));
    t.is(winners.length, 1);
    for (const answer of answers.filter((candidate) => candidate.status !== 200)) refusal(t, answer, 409, 'REFERRAL_CODE_TAKEN');
    t.deepEqual(await heldCodes(gateway), [{ key: 'shared', owner: winners[0]!.account.address.toLowerCase() }]);
    for (const maker of makers)
      t.is((await read(gateway, maker)).body.responseObject.code, maker === winners[0] ? answers[makers.indexOf(maker)]!.body.responseObject.code : null);
  });
});

test('concurrent changes by one maker leave it exactly one code, and free the rest', async (t) => {
  await withGateway(async (gateway) => {
    const alice = await signIn(gateway);
    await setCode(gateway, alice, 'first');
    const codes = ['one', 'two', 'three', 'four', 'five', 'six'];
    const answers = await Promise.all(codes.map((code) => setCode(gateway, alice, code)));
    t.true(answers.every((answer) => answer.status === 200));
    const held = await heldCodes(gateway);
    t.is(held.length, 1);
    const { code } = (await read(gateway, alice)).body.responseObject;
    t.is(held[0]!.key, code);
    const bob = await signIn(gateway);
    for (const other of ['first', ...codes].filter((candidate) => candidate !== code)) t.is((await setCode(gateway, bob, other)).status, 200, other);
  });
});

test('redeeming another maker’s code, once, and the redemptions it is counted in', async (t) => {
  await withGateway(async (gateway) => {
    const [alice, bob, carol] = [await signIn(gateway), await signIn(gateway), await signIn(gateway)];
    await setCode(gateway, alice, 'Alice-Code');
    await setCode(gateway, bob, 'bobs');

    refusal(t, await redeem(gateway, bob, 'nobody-has-this'), 404, 'REFERRAL_CODE_NOT_FOUND');
    refusal(t, await redeem(gateway, alice, 'ALICE-code'), 400, 'REFERRAL_OWN_CODE');
    const redeemed = await redeem(gateway, bob, 'alice-code');
    t.is(redeemed.status, 201);
    t.deepEqual(redeemed.body.responseObject, {
      walletAddress: bob.account.address,
      code: 'bobs',
      redemptions: 0,
      referredBy: { code: 'Alice-Code', redeemedAt: '2026-11-23T12:00:00.000Z' },
    });
    refusal(t, await redeem(gateway, bob, 'Alice-Code'), 409, 'REFERRAL_ALREADY_REDEEMED');
    t.is((await read(gateway, bob)).body.responseObject.referredBy.code, 'Alice-Code');
    t.is((await redeem(gateway, carol, 'Alice-Code')).status, 201);
    t.is((await read(gateway, alice)).body.responseObject.redemptions, 2);

    // Redemptions belong to the maker, not the code; a released code redeems nothing.
    await setCode(gateway, alice, 'alice-v2');
    t.is((await read(gateway, alice)).body.responseObject.redemptions, 2);
    const dave = await signIn(gateway);
    refusal(t, await redeem(gateway, dave, 'Alice-Code'), 404, 'REFERRAL_CODE_NOT_FOUND');
    t.is((await redeem(gateway, dave, 'ALICE-V2')).status, 201);
    t.is((await read(gateway, alice)).body.responseObject.redemptions, 3);
  });
});

test('codes out of shape, unknown fields and missing tokens are refused before anything changes', async (t) => {
  await withGateway(async (gateway) => {
    const alice = await signIn(gateway);
    for (const code of ['ab', 'x'.repeat(33), '-dash-first', 'has space', 'émile', 42, null]) {
      for (const answer of [await setCode(gateway, alice, code), await redeem(gateway, alice, code)]) {
        t.is(answer.status, 400, JSON.stringify(code));
        t.truthy(answer.body.responseObject.fieldErrors.code);
      }
    }
    // document 3: `code` is required on both.
    for (const path of ['/v1/v1/me/referral/code', '/v1/v1/redeem']) {
      const answer = await gateway.request(path.endsWith('code') ? 'PATCH' : 'POST', path, { headers: alice.headers, body: {} });
      t.is(answer.status, 400, path);
      t.truthy(answer.body.responseObject.fieldErrors.code, path);
    }
    const extra = await gateway.request('PATCH', '/v1/v1/me/referral/code', { headers: alice.headers, body: { code: 'valid', owner: 'someone' } });
    t.is(extra.status, 400);
    for (const [method, path] of [
      ['GET', '/v1/v1/me/referral'],
      ['PATCH', '/v1/v1/me/referral/code'],
      ['POST', '/v1/v1/redeem'],
    ] as const) {
      refusal(t, await gateway.request(method, path, method === 'GET' ? {} : { body: { code: 'valid' } }), 401, 'TOKEN_MISSING');
    }
    t.deepEqual(await heldCodes(gateway), []);
    t.is(await gateway.node.system.documents('maker-referral').count({}), 0);
  });
});

test('a wallet redeeming two codes at once is referred once: one 201, one 409', async (t) => {
  await withGateway(async (gateway) => {
    const [alice, bob, carol] = [await signIn(gateway), await signIn(gateway), await signIn(gateway)];
    await setCode(gateway, alice, 'alice-code');
    await setCode(gateway, bob, 'bob-code');
    const answers = await Promise.all([redeem(gateway, carol, 'alice-code'), redeem(gateway, carol, 'bob-code')]);
    t.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409]);
    t.is(answers.find((answer) => answer.status === 409)!.body.errorCode, 'REFERRAL_ALREADY_REDEEMED');
    const redemptions = [(await read(gateway, alice)).body.responseObject.redemptions, (await read(gateway, bob)).body.responseObject.redemptions];
    t.deepEqual(redemptions.sort(), [0, 1]);
  });
});
