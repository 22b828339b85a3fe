/**
 * The background wallet check (document 2, Limits: every 5 minutes, payouts funded in the last
 * 10 left out): while the customer's wallet covers the payout nothing happens; once the USDC
 * was spent in the wallet app before any buyer paid, the payout is CANCELLED with cancelSource
 * PEER_APP and its webhook, and the checkout can no longer act on it. On the test clock.
 */
import test from 'ava';
import { cashoutWorld } from './cashout-world.js';

const MINUTES = 60 * 1000;

test('a payout whose USDC was spent in the wallet app is CANCELLED by PEER_APP at the first check past the 10-minute grace', async (t) => {
  const world = await cashoutWorld(t, { webhooks: true });
  const link = await world.fundedPayout();
  const wallet = (await world.context(link.payoutId)).walletAddress!;

  await world.advance(5 * MINUTES);
  t.is((await world.view(link.payoutId)).status, 'FUNDED', 'the wallet covers it');
  world.balances.set(wallet, 99_999_999n);
  await world.advance(4 * MINUTES);
  t.is((await world.view(link.payoutId)).status, 'FUNDED', 'the check at 5 minutes is inside the grace, and at 9 none runs');
  await world.advance(6 * MINUTES);
  const cancelled = await world.view(link.payoutId);
  t.like(cancelled, { status: 'CANCELLED', cancelSource: 'PEER_APP', fundingStatus: 'FUNDED' });
  t.not(cancelled.cancelledAt, null);
  const receiver = world.receiver!;
  await receiver.until(() => receiver.delivered().some((body) => body.type === 'PAYOUT_ORDER_CANCELLED'), 10_000, 'the cancel webhook');
  t.like(
    receiver.delivered().find((body) => body.type === 'PAYOUT_ORDER_CANCELLED'),
    {
      data: { payoutId: link.payoutId, status: 'CANCELLED', cancelSource: 'PEER_APP' },
    },
  );

  const login = await world.signIn(link);
  const refused = await world.checkout(link, 'PUT', '/method', { body: { rail: 'zelle', payeeHandle: 'ana@example.com' }, login });
  t.like(refused.body, { errorCode: 'CASHOUT_LINK_EXPIRED', responseObject: { status: 'CANCELLED' } });
});

test('a READY payout is checked too', async (t) => {
  const world = await cashoutWorld(t);
  const link = await world.fundedPayout();
  const login = await world.signIn(link);
  await world.checkout(link, 'PUT', '/method', { body: { rail: 'zelle', payeeHandle: 'ana@example.com' }, login });
  t.is((await world.view(link.payoutId)).status, 'READY');
  world.balances.set((await world.context(link.payoutId)).walletAddress!, 0n);
  await world.advance(10 * MINUTES);
  t.like(await world.view(link.payoutId), { status: 'CANCELLED', cancelSource: 'PEER_APP' });
});

test('confirming when the wallet no longer holds the payout is 409 CASHOUT_WALLET_SHORT with the checkout state and its shortfall; inside 10 minutes of funding it is not checked', async (t) => {
  const world = await cashoutWorld(t);
  const link = await world.fundedPayout();
  const login = await world.signIn(link);
  await world.checkout(link, 'PUT', '/method', { body: { rail: 'zelle', payeeHandle: 'ana@example.com' }, login });
  const wallet = (await world.context(link.payoutId)).walletAddress!;
  world.balances.set(wallet, 40_000_000n);
  const early = await world.checkout(link, 'POST', '/confirm', { login });
  t.is(early.body.errorCode, 'CASHOUT_SIGNER_NOT_ATTACHED', 'funded under 10 minutes ago: the wallet is not checked yet');
  // The background check at 10 minutes finds it whole; the USDC is spent between two checks.
  world.balances.set(wallet, 100_000_000n);
  await world.advance(10 * MINUTES);
  t.is((await world.view(link.payoutId)).status, 'READY');
  world.balances.set(wallet, 40_000_000n);
  const short = await world.checkout(link, 'POST', '/confirm', { login });
  t.is(short.status, 409);
  t.like(short.body, {
    errorCode: 'CASHOUT_WALLET_SHORT',
    responseObject: { payout: { payoutId: link.payoutId, status: 'READY' }, walletShortfall: { requiredAmount: '100.00', availableAmount: '40.00' } },
  });
});
