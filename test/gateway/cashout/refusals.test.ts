/**
 * The customer's checkout refusals of document 2 that the other checkout tests leave out,
 * each through HTTP with its status, errorCode and responseObject, and each shown to change
 * nothing (the checkout state read after it is the one read before): the listing's floor by
 * NODE_ENV; CASHOUT_SEND_IN_PROGRESS while a listing or send is on its way;
 * CASHOUT_METHOD_LOCKED once listed or paying; an empty Bearer; the payee directory and the
 * wallet provider out of reach; the wallet check's timing and what it leaves alone; every
 * action on an ended payout; another customer's login. On the test clock (refusal-world.ts).
 */
import test, { type ExecutionContext } from 'ava';
import type { ApiResponse } from '../../support/gateway.js';
import { payoutBody, USDC_ON_BASE } from '../../support/payout-fakes.js';
import { SETTINGS } from '../payouts/payout-world.js';
import type { CheckoutLink } from './cashout-world.js';
import { refusalWorld, type RefusalWorld } from './refusal-world.js';

const MINUTES = 60 * 1000;
const ZELLE = { rail: 'zelle', payeeHandle: 'ana@example.com' };
const VENMO = { rail: 'venmo', payeeHandle: '3141592653' };
const BASE_USDC = { rail: 'routea_8453', tokenAddress: USDC_ON_BASE, address: '0x9999999999999999999999999999999999999999' };
/** Every action of a signed-in customer, with a body it takes. */
const ACTIONS: Array<[method: string, path: string, body?: unknown]> = [
  ['POST', '/signer'],
  ['PUT', '/method', ZELLE],
  ['POST', '/skip-connect'],
  ['POST', '/confirm'],
  ['POST', '/payout-quote', BASE_USDC],
  ['POST', '/send-to-address', BASE_USDC],
  ['POST', '/withdraw'],
];
/** The actions that would send or change what is sent: each refused while a listing or send is on its way. */
const SENDING_ACTIONS: Array<[method: string, path: string, body?: unknown]> = [
  ['PUT', '/method', ZELLE],
  ['PUT', '/method', VENMO],
  ['PUT', '/method', BASE_USDC],
  ['POST', '/skip-connect'],
  ['POST', '/confirm'],
  ['POST', '/send-to-address', BASE_USDC],
  ['POST', '/withdraw'],
];
const ON_ITS_WAY = { status: 'READY', actions: ['SIGN_IN'] };

interface Refusal {
  status: number;
  errorCode: string;
  responseObject: unknown;
}

/** `call` is refused as `expected` says, and the checkout state reads the same after it. */
async function refusedUnchanged(
  t: ExecutionContext,
  world: RefusalWorld,
  link: CheckoutLink,
  call: () => Promise<ApiResponse>,
  expected: Refusal,
  what: string,
) {
  const before = await world.state(link);
  const answer = await call();
  t.is(answer.status, expected.status, what);
  t.like(answer.body, { success: false, statusCode: expected.status, errorCode: expected.errorCode }, what);
  t.deepEqual(answer.body.responseObject, expected.responseObject, what);
  t.deepEqual(await world.state(link), before, `${what}: nothing changed`);
}

/** A funded payout whose customer signed in and chose `method`, READY: its link and the login. */
async function readyPayout(world: RefusalWorld, method: unknown = ZELLE): Promise<{ link: CheckoutLink; login: string }> {
  const link = await world.fundedPayout();
  const login = await world.signIn(link);
  const saved = await world.checkout(link, 'PUT', '/method', { body: method, login });
  if (saved.body.responseObject?.payout.status !== 'READY') throw new Error(`the method did not make the payout READY: ${JSON.stringify(saved.body)}`);
  return { link, login };
}

/** Confirms with the listing or send held on its way: the answer offers nothing but signing in. */
async function confirmedOnItsWay(t: ExecutionContext, world: RefusalWorld, link: CheckoutLink, login: string): Promise<void> {
  world.hold(link);
  const confirmed = await world.checkout(link, 'POST', '/confirm', { login });
  t.is(confirmed.status, 200, JSON.stringify(confirmed.body));
  t.like(confirmed.body.responseObject, { payout: { status: 'READY' }, actions: ON_ITS_WAY.actions });
}

/** The facts the chain would bring: the listing's deposit landed, then a buyer locked part of it. */
const listed = (world: RefusalWorld, link: CheckoutLink) =>
  world.deliver(link, { type: 'LISTED', listing: 1, depositId: '7', requestId: `${link.payoutId.toLowerCase()}-listing-1`, dustUsdc: '0', at: world.iso() });
const buyerLocks = (world: RefusalWorld, link: CheckoutLink) =>
  world.deliver(link, {
    type: 'CHAIN_FACT',
    fact: {
      id: 'fact-1',
      transactionHash: `0x${'1'.repeat(64)}`,
      blockTimestamp: String(Math.floor(Date.parse(world.iso()) / 1000)),
      fundsLocked: { depositId: '7', intentHash: `0x${'a'.repeat(64)}`, amount: '40000000' },
    },
  });

test('a production checkout lists buyers from 10 USDC; any other environment from 1 USDC', async (t) => {
  for (const [environment, floor] of [
    ['production', '10000000'],
    ['development', '1000000'],
    ['test', '1000000'],
  ]) {
    const world = await refusalWorld(t, environment);
    const { link, login } = await readyPayout(world);
    await confirmedOnItsWay(t, world, link, login);
    // The floor goes with the confirm to the payout, whose listing asks the escrow for a deposit taking buyers from it.
    const payout = await world.inspect(link);
    t.deepEqual(payout.state, { READY: 'LISTING_PENDING' }, environment);
    t.deepEqual(payout.context.listingMinUsdc, { __bigint: floor }, environment);
  }
});

// Document 2: "the summary's rails[].minAmount shows" the floor.
test('the checkout state shows each rail’s listing minimum (document 2: rails[].minAmount)', async (t) => {
  const world = await refusalWorld(t, 'production');
  const link = await world.fundedPayout();
  const zelle = (await world.state(link)).rails.find((rail: { rail: string }) => rail.rail === 'zelle');
  t.is(zelle?.minAmount, '10.00');
});

for (const [what, method] of [
  ['a listing', ZELLE],
  ['a send to an address', BASE_USDC],
] as const)
  test(`while ${what} is on its way, every action that sends or changes the method is 409 CASHOUT_SEND_IN_PROGRESS with { status, actions }`, async (t) => {
    const world = await refusalWorld(t);
    const { link, login } = await readyPayout(world, method);
    await confirmedOnItsWay(t, world, link, login);
    for (const [verb, path, body] of SENDING_ACTIONS)
      await refusedUnchanged(
        t,
        world,
        link,
        () => world.checkout(link, verb, path, { body, login }),
        { status: 409, errorCode: 'CASHOUT_SEND_IN_PROGRESS', responseObject: ON_ITS_WAY },
        `${verb} ${path} ${JSON.stringify(body ?? '')}`,
      );
  });

test('a LISTING or PAYING payout’s method is locked: 409 CASHOUT_METHOD_LOCKED with { status, actions }', async (t) => {
  const world = await refusalWorld(t);
  const { link, login } = await readyPayout(world);
  await confirmedOnItsWay(t, world, link, login);
  await listed(world, link);
  t.like(await world.state(link), { payout: { status: 'LISTING' }, actions: ['SIGN_IN', 'WITHDRAW'] });
  for (const body of [ZELLE, VENMO, BASE_USDC])
    await refusedUnchanged(
      t,
      world,
      link,
      () => world.checkout(link, 'PUT', '/method', { body, login }),
      { status: 409, errorCode: 'CASHOUT_METHOD_LOCKED', responseObject: { status: 'LISTING', actions: ['SIGN_IN', 'WITHDRAW'] } },
      `saving ${body.rail} on LISTING`,
    );
  await buyerLocks(world, link);
  t.like(await world.state(link), { payout: { status: 'PAYING' }, actions: ['SIGN_IN'] });
  for (const body of [ZELLE, VENMO])
    await refusedUnchanged(
      t,
      world,
      link,
      () => world.checkout(link, 'PUT', '/method', { body, login }),
      { status: 409, errorCode: 'CASHOUT_METHOD_LOCKED', responseObject: { status: 'PAYING', actions: ['SIGN_IN'] } },
      `saving ${body.rail} on PAYING`,
    );
});

test('no Bearer token, or an empty one, is 401 CASHOUT_LOGIN_REQUIRED on every action', async (t) => {
  const world = await refusalWorld(t);
  const { link } = await readyPayout(world);
  // The client trims a header's trailing blanks, so `Bearer ` arrives as `Bearer`: empty either way.
  const headers: Array<[string, Record<string, string>]> = [
    ['no Authorization', {}],
    ['an empty Bearer', { authorization: 'Bearer ' }],
    ['a Bearer of blanks', { authorization: 'Bearer    ' }],
    ['Basic credentials', { authorization: 'Basic YW5hOnNlY3JldA==' }],
  ];
  for (const [what, authorization] of headers)
    for (const [method, path, body] of ACTIONS)
      await refusedUnchanged(
        t,
        world,
        link,
        () => world.checkout(link, method, path, { body, headers: { 'x-cashout-token': link.token, ...authorization } }),
        { status: 401, errorCode: 'CASHOUT_LOGIN_REQUIRED', responseObject: null },
        `${what}: ${method} ${path}`,
      );
});

// A payee directory that cannot be reached (its store down) once answered 500 INTERNAL_ERROR.
test('a PayPal method while the payee directory cannot be reached is 503 CASHOUT_PAYEE_UNAVAILABLE', async (t) => {
  const world = await refusalWorld(t);
  await world.setSettings({ ...SETTINGS, methods: ['paypal', 'zelle'] });
  const link = await world.fundedPayout();
  const login = await world.signIn(link);
  world.cutPayeeDirectory();
  await refusedUnchanged(
    t,
    world,
    link,
    () =>
      world.checkout(link, 'PUT', '/method', {
        body: { rail: 'paypal', payeeHandle: 'ana@example.com', paypalEmail: 'ana@example.com', currency: 'EUR' },
        login,
      }),
    { status: 503, errorCode: 'CASHOUT_PAYEE_UNAVAILABLE', responseObject: null },
    'PayPal with the directory down',
  );
});

test('a wallet provider that fails to attach the signer is 503 CASHOUT_SIGNER_UNAVAILABLE; the sign-in still succeeds, and a retry attaches it', async (t) => {
  const world = await refusalWorld(t);
  world.signers.failing = true;
  const { link, login } = await readyPayout(world);
  await refusedUnchanged(
    t,
    world,
    link,
    () => world.checkout(link, 'POST', '/signer', { login }),
    { status: 503, errorCode: 'CASHOUT_SIGNER_UNAVAILABLE', responseObject: null },
    'attaching',
  );
  await refusedUnchanged(
    t,
    world,
    link,
    () => world.checkout(link, 'POST', '/confirm', { login }),
    { status: 409, errorCode: 'CASHOUT_SIGNER_NOT_ATTACHED', responseObject: { status: 'READY', actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'] } },
    'confirming without the signer',
  );
  world.signers.failing = false;
  t.is((await world.checkout(link, 'POST', '/signer', { login })).status, 200);
  world.hold(link);
  t.like((await world.checkout(link, 'POST', '/confirm', { login })).body.responseObject, { actions: ['SIGN_IN'] });
});

test('the wallet check reads the wallet 5 minutes after funding, not before; the check at 10 minutes cancels, a payout funded since is left out', async (t) => {
  const world = await refusalWorld(t);
  const ana = await world.fundedPayout();
  const fundedAt = world.iso();
  world.balances.set((await world.inspect(ana)).context.walletAddress, 0n);
  await world.advance(5 * MINUTES - 1);
  t.is(world.balances.reads, 0, 'no check before 5 minutes');
  await world.advance(1);
  t.is(world.balances.reads, 1, 'the check at 5 minutes');
  t.is((await world.view(ana)).status, 'FUNDED', 'inside the 10-minute grace');

  const ben = await world.fundedPayout(payoutBody({ customerEmail: 'ben@example.com' }));
  world.balances.set((await world.inspect(ben)).context.walletAddress, 0n);
  await world.advance(5 * MINUTES - 1);
  t.is((await world.view(ana)).status, 'FUNDED', 'not a moment before the 10-minute check');
  await world.advance(1);
  t.like(await world.view(ana), { status: 'CANCELLED', cancelSource: 'PEER_APP', cancelledAt: new Date(Date.parse(fundedAt) + 10 * MINUTES).toISOString() });
  t.is((await world.view(ben)).status, 'FUNDED', 'funded 5 minutes ago: left out');
  const state = await world.state(ana);
  t.like(state, { payout: { status: 'CANCELLED' }, actions: [] });
  t.is(state.timeline.at(-1).type, 'CANCELLED');
  await world.advance(5 * MINUTES);
  t.like(await world.view(ben), { status: 'CANCELLED', cancelSource: 'PEER_APP' });
});

test('no wallet check while a listing is on its way, nor once listed: the USDC is in the escrow', async (t) => {
  const world = await refusalWorld(t);
  const { link, login } = await readyPayout(world);
  await confirmedOnItsWay(t, world, link, login);
  world.balances.set((await world.inspect(link)).context.walletAddress, 0n);
  await world.advance(15 * MINUTES);
  t.like(await world.state(link), { payout: { status: 'READY' }, actions: ON_ITS_WAY.actions });
  await listed(world, link);
  await world.advance(15 * MINUTES);
  t.like(await world.view(link), { status: 'LISTING', cancelSource: null });
  t.is(world.balances.reads, 0);
});

test('every action on an ended payout is 401 CASHOUT_LINK_EXPIRED with { status }; GET stays 200', async (t) => {
  const world = await refusalWorld(t);
  const expired = await world.awaitingPayout(payoutBody({ customerEmail: 'eve@example.com' }));

  const sent = await world.fundedPayout(payoutBody({ customerEmail: 'dan@example.com' }));
  const dan = await world.signIn(sent, 'dan@example.com');
  await world.checkout(sent, 'PUT', '/method', { body: BASE_USDC, login: dan });
  await confirmedOnItsWay(t, world, sent, dan);
  await world.deliver(sent, {
    type: 'TRANSACTION_OUTCOME',
    transactionId: `${sent.payoutId.toLowerCase()}-send-1`,
    purpose: 'payoutSend',
    outcome: {
      status: 'MINED',
      hash: `0x${'b'.repeat(64)}`,
      blockNumber: null,
      gasUsed: null,
      effectiveGasPrice: null,
      reason: null,
      revertData: null,
      at: Date.parse(world.iso()),
    },
  });

  const spent = await world.fundedPayout(payoutBody({ customerEmail: 'cara@example.com' }));
  world.balances.set((await world.inspect(spent)).context.walletAddress, 0n);
  // Past the funding deadline: the unfunded payout expires; the spent one was cancelled by the wallet check long before.
  await world.advance(24 * 60 * MINUTES);

  const ended: Array<[string, CheckoutLink, string]> = [
    ['EXPIRED', expired, 'eve@example.com'],
    ['SETTLED', sent, 'dan@example.com'],
    ['CANCELLED', spent, 'cara@example.com'],
  ];
  for (const [status, link, email] of ended) {
    t.like(await world.state(link), { payout: { status }, actions: [] });
    // A fresh sign-in: the refusal is the payout's end, not the login's.
    const login = await world.signIn(link, email);
    for (const [method, path, body] of ACTIONS)
      await refusedUnchanged(
        t,
        world,
        link,
        () => world.checkout(link, method, path, { body, login }),
        { status: 401, errorCode: 'CASHOUT_LINK_EXPIRED', responseObject: { status } },
        `${method} ${path} on ${status}`,
      );
  }
});

test('a login token of another payout’s customer is 403 CASHOUT_PLAYER_MISMATCH on every action', async (t) => {
  const world = await refusalWorld(t);
  const ana = await world.fundedPayout();
  const login = await world.signIn(ana);
  const ben = await world.fundedPayout(payoutBody({ customerEmail: 'ben@example.com' }));
  for (const [method, path, body] of ACTIONS)
    await refusedUnchanged(
      t,
      world,
      ben,
      () => world.checkout(ben, method, path, { body, login }),
      { status: 403, errorCode: 'CASHOUT_PLAYER_MISMATCH', responseObject: null },
      `${method} ${path}`,
    );
});
