/**
 * Payment-id claims are the service's durable memory of which intent a payment proved, per
 * chain: they survive a restart, bind per (chain, platform, payment id), and a claim whose
 * signing failed is given back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { EmbeddedStore } from '../../actors/index.js';
import { ChainRegistry, USED_PAYMENT_IDS_COLLECTION, UsedPaymentIds, type UsedPaymentIdCollection } from '../../enclave/index.js';
import {
  DISPUTE_VERIFIER,
  PAYMENT_VERIFIER,
  PLATFORM_FIXTURES,
  TEST_CHAIN_ID,
  buyerVerify,
  intentFor,
  preparePayment,
  startTestEnclave,
} from '../support/enclave.js';

const root = mkdtempSync(join(tmpdir(), 'peer-claims-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

const OTHER_CHAIN = 10;
const chains = () =>
  new ChainRegistry({
    [TEST_CHAIN_ID]: { paymentVerifier: PAYMENT_VERIFIER, disputeVerifier: DISPUTE_VERIFIER },
    [OTHER_CHAIN]: { paymentVerifier: PAYMENT_VERIFIER },
  });
const cashapp = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'cashapp')!;

test('a payment id claimed on one chain is refused for another intent after a restart, and stays free on another chain', async (t) => {
  const dataDir = join(root, 'restart');
  const firstStore = await EmbeddedStore.open({ dataDir });
  const first = await startTestEnclave({ chains: chains(), store: firstStore });
  const prepared = preparePayment(first, cashapp);
  const intent = intentFor(cashapp);
  t.is((await buyerVerify(first, cashapp, prepared, intent)).status, 200);
  await first.stop();
  await firstStore.close();

  const store = await EmbeddedStore.open({ dataDir });
  const restarted = await startTestEnclave({ chains: chains(), store });
  t.teardown(async () => {
    await restarted.stop();
    await store.close();
  });
  // The same payment, seen through a new session on the restarted service's simulator.
  const again = preparePayment(restarted, cashapp, { paymentId: prepared.payment.paymentId });
  const replay = await buyerVerify(restarted, cashapp, again, intentFor(cashapp));
  t.is(replay.status, 409);
  t.is(replay.body.errorCode, 'PAYMENT_ID_ALREADY_USED');
  t.is((await buyerVerify(restarted, cashapp, again, intent)).status, 200, 'its own intent may ask again');
  t.is((await buyerVerify(restarted, cashapp, again, intentFor(cashapp), { chainId: OTHER_CHAIN })).status, 200, 'another chain keeps its own nullifiers');
});

test('a released claim frees the payment for another intent; a release by another intent frees nothing', async (t) => {
  const claims = new UsedPaymentIds((await new EmbeddedStore().collection(USED_PAYMENT_IDS_COLLECTION)) as unknown as UsedPaymentIdCollection);
  const nullifier = `0x${'11'.repeat(32)}` as const;
  const [a, b] = [`0x${'aa'.repeat(32)}`, `0x${'bb'.repeat(32)}`] as const;
  t.is(await claims.claim(TEST_CHAIN_ID, nullifier, a, 'cashapp'), 'CLAIMED');
  t.is(await claims.claim(TEST_CHAIN_ID, nullifier, a, 'cashapp'), 'ALREADY_CLAIMED_FOR_THIS_INTENT');
  await claims.release(TEST_CHAIN_ID, nullifier, b);
  await t.throwsAsync(claims.claim(TEST_CHAIN_ID, nullifier, b, 'cashapp'), { message: /already attested for another intent on chain 8453/ });
  await claims.release(TEST_CHAIN_ID, nullifier, a);
  t.is(await claims.claim(TEST_CHAIN_ID, nullifier, b, 'cashapp'), 'CLAIMED');
});
