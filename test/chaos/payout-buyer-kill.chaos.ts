/**
 * A payout's buyer payment survives the node being SIGKILLed between the buyer's fulfilment
 * being mined and the node learning of it (issue 39, Checks): after the restart the payout
 * counts that payment once.
 *
 * Everything outside the node lives in this process and outlives it, as in
 * payment-kill.chaos.ts: anvil with our contracts (chain id 8453), the indexer over it (whose
 * head the test caps), the attestation service with its platform simulator, the local
 * conversion provider that funds the payout, a mail catcher the node mails its sign-in codes to
 * (SMTP_URL), and the JSON-RPC gate the node reaches the chain through. The payout is created,
 * funded, signed in to, set to Venmo and listed from the customer's wallet; a checkout buyer
 * takes 40 USDC of it and proves the payment. When the node sends fulfillIntent the gate caps
 * the indexer below it, forwards it, answers, and holds everything after: the node is SIGKILLed
 * once it asks for the receipt. Then the cap is lifted, the gate opens and a new node starts
 * over the same folder: the payout shows the payment once (PARTIALLY_PAID once, paidAmount the
 * USDC the escrow released once), and is listed again for the rest.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parseEventLogs } from 'viem';
import { escrowAbi } from '../../indexer/chain/index.js';
import { BuyerSimulator, sealForPayment } from '../support/buyer-simulator.js';
import { call, ok, until, within } from './http-polls.js';
import { PaymentNodeProcess, type RunEvent } from './payment-node-process.js';
import { fundedSignedInPayout, payoutNodeEnvironment, payoutWorldOutside } from './payout-node.js';
import { fulfilCapture } from './fulfil-capture.js';

const ADMIN_TOKEN = 'payout-buyer-kill-admin-token-0123456789';
const _CHAIN_ID = 8453;
const CUSTOMER_VENMO = '1618033988';

const root = mkdtempSync(join(tmpdir(), 'peer-payout-buyer-kill-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

test('a payout’s buyer payment whose node is SIGKILLed after the fulfilment is mined, before it learns of it, is counted once after the restart', async (t) => {
  t.timeout(150_000);
  const { silent, enclave, local, provider, mail } = await payoutWorldOutside(t);
  const measurement = enclave.service.attestationDocument().measurement;

  const { indexer, gate, lift } = await fulfilCapture(local, silent);
  t.teardown(() => indexer.stop());
  t.teardown(() => gate.stop());

  const world = { name: 'payout-buyer-kill', adminToken: ADMIN_TOKEN, local, rpcUrl: gate.url, indexerAddress: indexer.address, enclave, provider, mail, root };
  const events: RunEvent[] = [];
  const nodes: PaymentNodeProcess[] = [];
  t.teardown(async () => {
    for (const node of nodes) await node.kill();
  });
  const start = async (run: number) => {
    const node = await PaymentNodeProcess.start(run, payoutNodeEnvironment(world, run), events, 60_000);
    nodes.push(node);
    provider.activityUrl = `${node.url}/api/v1/providers/conversion/funding-activity`;
    return node;
  };

  // Run 1: the payout funded, signed in to, on Venmo, listed.
  const first = await start(1);
  const { key, created, read, cashout, loginToken, logsOf } = await fundedSignedInPayout(world, first);
  ok(await cashout(first, 'PUT', '/method', { rail: 'venmo', payeeHandle: CUSTOMER_VENMO }, loginToken), 200, 'the method');
  ok(await cashout(first, 'POST', '/skip-connect', undefined, loginToken), 200, 'skip');
  ok(await cashout(first, 'POST', '/confirm', undefined, loginToken), 200, 'the confirm');
  await until(
    'the listing',
    () => read(first),
    (payout) => payout.status === 'LISTING',
    30_000,
    () => logsOf(1),
  );

  // A checkout buyer takes 40 USDC of it and proves the Venmo payment to the customer.
  const placed = ok(await call(first.url, 'POST', '/api/v1/orders', { headers: key, body: { requestedUsdcAmount: '40' } }), 201, 'the order');
  const customer = (method: string, path: string, body?: unknown) =>
    call(first.url, method, `/api/v1/checkout/orders/${placed.order.id}${path}`, {
      headers: { authorization: `Bearer ${placed.orderToken}` },
      ...(body === undefined ? {} : { body }),
    });
  await until(
    'the listing quoted',
    () => customer('GET', '/quotes?rail=venmo'),
    (answer) => answer.status === 200 && answer.body.responseObject.platforms.some((quote: { payTo: string }) => quote.payTo === CUSTOMER_VENMO),
    30_000,
  );
  const payment = ok(await customer('POST', '/payments', { rail: 'venmo' }), 201, 'the payment');
  const signalled = await until(
    'the intent signalled',
    async () => ok(await customer('GET', `/payments/${payment.id}`), 200, 'the payment read'),
    (read) => read.railIdentifier !== null,
    30_000,
    () => logsOf(1),
  );
  await until(
    'the payout matched',
    () => read(first),
    (payout) => payout.status === 'PAYING',
    30_000,
    () => logsOf(1),
  );
  const buyer = new BuyerSimulator(enclave.simulator!.url);
  const session = await buyer.signIn('venmo', 'payout-kill-buyer');
  const sent = await buyer.pay(session, {
    payee: CUSTOMER_VENMO,
    amount: signalled.paymentAmount,
    currency: signalled.currency,
    note: signalled.suggestedMemo,
  });
  const sealed = await sealForPayment(signalled.attestation.serviceUrl, { measurement, signer: enclave.service.signer }, session, {
    chainId: local.chainId,
    intentHash: signalled.railIdentifier,
  });
  ok(await customer('POST', `/payments/${payment.id}/proof`, { encryptedSessionMaterial: sealed, params: sent.proofParams }), 202, 'the proof');

  // The fulfilment is mined; the node asks for its receipt and is held; it is killed.
  const closed = await within('the node to send fulfillIntent', gate.closed, 30_000, () => logsOf(1));
  const receipt = await local.publicClient.waitForTransactionReceipt({ hash: closed.hash, timeout: 10_000 });
  t.is(receipt.status, 'success');
  const [released] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'FundsUnlockedAndTransferred' });
  t.truthy(released, 'the escrow released the buyer’s USDC from the listing');
  await until(
    'the node to ask for the fulfilment receipt',
    async () => gate.held.some((held) => held.method === 'eth_getTransactionReceipt' && String(held.params[0]).toLowerCase() === closed.hash),
    (asked) => asked,
    10_000,
  );
  t.like(await read(first), { status: 'PAYING', paidAmount: '0.00' }, 'the node had not learned of the payment');
  t.like(await first.kill(), { signal: 'SIGKILL' });

  // The world moves on; a new node starts over the same folder.
  lift();
  gate.open();
  const second = await start(2);
  const after = await until(
    'the payment counted after the restart',
    () => read(second),
    (payout) => payout.status === 'LISTING' && payout.paidAmount !== '0.00',
    30_000,
    () => logsOf(2),
  );
  const paid = released!.args.transferredAmount;
  t.is(after.partialFills.length, 1);
  t.is(BigInt(Math.round(Number(after.partialFills[0].amount) * 1e6)), paid);
  t.is(after.partialFills[0].txHash, closed.hash);
  // Facts may arrive again on a restarted node: the payment is still counted once.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const later = await read(second);
  t.is(later.paidAmount, after.paidAmount);
  t.is(later.partialFills.length, 1);
  const partials = new Set(
    events.filter((event) => event.type === 'PAYOUT_ORDER_PARTIALLY_PAID' && event.actor.id === created.payoutId).map((event) => event.id),
  );
  t.is(partials.size, 1, 'one PAYOUT_ORDER_PARTIALLY_PAID');
});
