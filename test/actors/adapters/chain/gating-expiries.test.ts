/**
 * Two nodes of a cluster approving intents on equal terms in the same block: the approvals
 * must differ (the orchestrator takes each once), so their expiries are claimed in the
 * cluster's store. Kept in each process, both nodes picked the same expiry and the second
 * signal reverted with GatingSignatureAlreadyUsed: a customer's payment FAILED for nothing
 * (seen in the local cluster's rolling-restart test).
 */
import test from 'ava';
import type { Hex } from 'viem';
import { EmbeddedStore } from '../../../../actors/index.js';
import { LocalExpiries, StoredExpiries, type ExpiryClaims } from '../../../../actors/adapters/chain/gating-expiries.js';
import { ViemIntents } from '../../../../actors/adapters/chain/viem-intents.js';
import {
  LOCAL_GATING_SERVICE_INDEX,
  LOCAL_INTENT_GUARDIAN_INDEX,
  anvilTestAccount,
  startLocalChain,
  type LocalChain,
} from '../../../../indexer/chain/index.js';
import { RATE, venmoDeposit } from '../../../support/payment-flow.js';

const relayer = anvilTestAccount(LOCAL_INTENT_GUARDIAN_INDEX);
const payout = anvilTestAccount(5).address;

const nodeOver = (local: LocalChain, expiries: ExpiryClaims) =>
  new ViemIntents({
    client: local.publicClient as never,
    wallets: [relayer.address],
    gatingSigner: anvilTestAccount(LOCAL_GATING_SERVICE_INDEX),
    feeRecipient: null,
    expiries,
  });

async function twoSignals(local: LocalChain, first: ViemIntents, second: ViemIntents): Promise<Array<{ data: Hex; to: Hex }>> {
  const depositId = await venmoDeposit(local);
  const chain = { chainId: local.chainId, escrow: local.escrow, orchestrator: local.orchestrator };
  const terms = { depositId, amount: 10_000_000n, to: payout, paymentMethod: 'venmo', fiatCurrency: 'USD', conversionRate: RATE, platformFeeBps: 0 };
  // Both built before either is mined: the same block, so the same earliest expiry.
  return Promise.all([first.signalCall(chain, relayer.address, terms), second.signalCall(chain, relayer.address, terms)]);
}

test('two nodes claiming expiries in one store sign different approvals for equal terms, and both intents are signalled', async (t) => {
  const local = await startLocalChain();
  t.teardown(() => local.stop());
  const store = new EmbeddedStore();
  const now = () => Date.now();
  const [one, two] = await twoSignals(local, nodeOver(local, await StoredExpiries.open(store, now)), nodeOver(local, await StoredExpiries.open(store, now)));
  t.not(one!.data, two!.data);
  const wallet = local.walletFor(relayer);
  t.is((await local.confirm(await wallet.sendTransaction(one!))).status, 'success');
  t.is((await local.confirm(await wallet.sendTransaction(two!))).status, 'success');
});

test('kept in each process, two nodes sign the same approval and the second signal is refused as a used signature', async (t) => {
  const local = await startLocalChain();
  t.teardown(() => local.stop());
  const [one, two] = await twoSignals(local, nodeOver(local, new LocalExpiries()), nodeOver(local, new LocalExpiries()));
  t.is(one!.data, two!.data);
  const wallet = local.walletFor(relayer);
  t.is((await local.confirm(await wallet.sendTransaction(one!))).status, 'success');
  await t.throwsAsync(wallet.sendTransaction(two!), { message: /GatingSignatureAlreadyUsed|reverted/ });
});

test('a claim is the first free second at or after the earliest, per terms', async (t) => {
  const claims = await StoredExpiries.open(new EmbeddedStore(), () => 0);
  t.is(await claims.claim('terms-a', 100n), 100n);
  t.is(await claims.claim('terms-a', 100n), 101n);
  t.is(await claims.claim('terms-a', 100n), 102n);
  t.is(await claims.claim('terms-b', 100n), 100n, 'other terms are apart already');
  t.is(await claims.claim('terms-a', 200n), 200n);
});
