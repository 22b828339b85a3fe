/**
 * A live dispute end to end on a node with its local chain and attestation service
 * (docs/disputes.md): the platform's DKIM-signed e-mail, attested by the node's own
 * attestation service, opens the dispute over the settled payment whose intent it names,
 * with the maker's deposit owner as seller; the merchant pays by a real USDC transfer on
 * the chain, which the node reads before it records paidTxHash.
 */
import test from 'ava';
import { erc20Abi, type Hex } from 'viem';
import { sealSessionMaterial } from '../../../enclave/index.js';
import { anvilTestAccount } from '../../../indexer/chain/index.js';
import { paymentKind } from '../../../actors/kinds/index.js';
import { answerOf } from '../../support/checkout.js';
import { MAKER } from '../../support/payment-flow.js';
import { untilOnClock } from '../../support/real-time-poll.js';
import { liveRemediationNode, paymentOnce, signalledAttempt } from '../../support/remediation-node.js';

const PAYER = anvilTestAccount(7);

test('an attested dispute opens over the settled live payment; the merchant’s chain transfer to the seller pays it', async (t) => {
  const { gateway, merchant, depositId } = await liveRemediationNode(t);
  const node = gateway.node;
  const local = node.chain!.localChain!;
  const enclave = node.enclave!;
  await untilOnClock(
    gateway.clock,
    async () => node.liquidity!.deposit(depositId.toString()),
    (deposit) => deposit !== null,
    'the deposit in the book',
  );
  const attempt = await signalledAttempt(gateway, merchant.liveKey, depositId, 'pay_disputedLive0000000001');
  const intentHash = attempt.awaiting.payment.railIdentifier as Hex;
  await node.system.ask(paymentKind, attempt.input.id, {
    type: 'CHAIN_FACT',
    fact: {
      id: 'fact_disputed_live',
      transactionHash: `0x${'f1'.repeat(32)}`,
      blockTimestamp: String(Math.floor(gateway.clock.now() / 1000)),
      intentFulfilled: { intentHash, amount: attempt.input.price.netUsdc.toString(), fundsTransferredTo: attempt.destination },
    },
  });
  await paymentOnce(gateway, attempt.input.id, (view) => view.status === 'SETTLED', 'the payment to settle');

  const rawEmail = await enclave.mailer!.disputeEmail({ platform: 'venmo', paymentId: '4139920210011', disputeId: 'VD-20261123-0042', date: new Date() });
  const use = { purpose: 'dispute' as const, platform: 'venmo', chainId: local.chainId, intentHash, expiresAt: Math.floor(Date.now() / 1000) + 600 };
  const attestation = await enclave.service.verifyDispute('venmo', 'dispute_venmo', {
    encryptedSessionMaterial: await sealSessionMaterial(enclave.service.attestationDocument(), { rawEmail }, use),
    params: {},
    chainId: local.chainId,
    intentHash,
  });
  const body = JSON.parse(JSON.stringify(attestation));

  const forged = await gateway.request('POST', '/api/v1/disputes', { body: { ...body, dispute: { ...body.dispute, disputeId: 'VD-20261123-0043' } } });
  t.is(forged.status, 422);
  t.is(forged.body.errorCode, 'DISPUTE_ATTESTATION_INVALID');
  const resigned = await gateway.request('POST', '/api/v1/disputes', { body: { ...body, signature: `0x${'11'.repeat(65)}` } });
  t.is(resigned.body.errorCode, 'DISPUTE_ATTESTATION_INVALID');

  const opened = await gateway.request('POST', '/api/v1/disputes', { body });
  t.is(opened.status, 201, JSON.stringify(opened.body));
  const payload = opened.body.responseObject;
  t.like(payload, {
    disputeId: 'VD-20261123-0042',
    orderId: attempt.placed.id,
    paymentId: attempt.input.id,
    intentHash,
    amountUsdc: attempt.input.price.releasedUsdc.toString(),
    sellerAddress: MAKER.address,
    status: 'OPEN',
    paidTxHash: null,
  });
  t.is((await gateway.request('POST', '/api/v1/disputes', { body })).status, 200, 'the same dispute again');

  const list = answerOf(await gateway.request('GET', '/api/v1/merchants/me/disputes', { key: merchant.liveKey }), 200, 'disputes');
  t.is(list.total, 1);
  const dispute = list.disputes[0];
  t.like(dispute, { platform: 'venmo', rail: 'venmo', stakeStatusAtOpen: 'UNPROTECTED', merchantId: merchant.liveId });
  t.is(answerOf(await gateway.request('GET', '/api/v1/merchants/me/disputes', { key: merchant.sandboxKey }), 200, 'sandbox').total, 0);

  const pay = (txHash: string) => gateway.request('POST', `/api/v1/merchants/me/disputes/${dispute.id}/payment`, { key: merchant.liveKey, body: { txHash } });
  const unmined = await pay(`0x${'77'.repeat(32)}`);
  t.is(unmined.status, 422);
  t.is(unmined.body.errorCode, 'DISPUTE_TRANSFER_NOT_FOUND');

  const amount = BigInt(payload.amountUsdc);
  await local.mintUsdc(PAYER.address, amount * 2n);
  const send = async (value: bigint) =>
    (
      await local.confirm(
        await local.walletFor(PAYER).writeContract({ address: local.usdc, abi: erc20Abi, functionName: 'transfer', args: [MAKER.address, value] }),
      )
    ).transactionHash;
  const short = await pay(await send(amount - 1n));
  t.is(short.status, 422);
  t.is(short.body.errorCode, 'DISPUTE_TRANSFER_NOT_FOUND');
  t.is(answerOf(await gateway.request('GET', `/api/v1/merchants/me/disputes/${dispute.id}`, { key: merchant.liveKey }), 200, 'still open').status, 'OPEN');

  const full = await send(amount);
  const paid = answerOf(await pay(full), 200, 'paid');
  t.like(paid, { status: 'PAID', paidTxHash: full.toLowerCase() });
});
