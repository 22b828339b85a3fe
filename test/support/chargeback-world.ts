/**
 * Chargebacks on the test node's local chain (docs/chargebacks.md): a maker's Venmo deposit with
 * dispute protection and a stake behind it, and live 25 USDC payments on it settled end to end
 * (intent signalled through the relayer, the buyer's payment in the simulator, the proof verified
 * by the enclave, the fulfilment indexed), ready for staff to charge back.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { sealSessionMaterial } from '../../enclave/index.js';
import { escrowAbi, mockUSDCAbi, type LocalChain } from '../../indexer/chain/index.js';
import type { PaymentView } from '../../actors/kinds/payment-kind.js';
import type { TestGateway } from './gateway.js';
import { untilOnClock } from './real-time-poll.js';
import { MAKER, MAKER_PAYEE, attemptInput, venmoDeposit } from './payment-flow.js';

/** A Venmo deposit with dispute protection on, and `stakeUsdc` staked by its maker. */
export async function protectedDeposit(local: LocalChain, stakeUsdc: bigint): Promise<bigint> {
  const depositId = await venmoDeposit(local);
  const wallet = local.walletFor(MAKER);
  await local.confirm(
    await wallet.writeContract({ address: local.escrow, abi: escrowAbi, functionName: 'setDisputeProtectionEnabled', args: [depositId, true] }),
  );
  if (stakeUsdc > 0n) await stake(local, stakeUsdc);
  return depositId;
}

export async function stake(local: LocalChain, amount: bigint): Promise<void> {
  const wallet = local.walletFor(MAKER);
  await local.mintUsdc(MAKER.address, amount);
  await local.confirm(await wallet.writeContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'approve', args: [local.escrow, amount] }));
  await local.confirm(await wallet.writeContract({ address: local.escrow, abi: escrowAbi, functionName: 'stake', args: [amount] }));
}

export const paymentView = async (gateway: TestGateway, id: string) =>
  (await gateway.node.system.documents('payment').findOne({ _id: id }))?.view as unknown as PaymentView | undefined;

export interface SettledPayment {
  orderId: string;
  paymentId: string;
  intentHash: Hex;
}

/**
 * A 25 USDC order of the merchant's live key, paid by a live attempt `paymentId` on `depositId` and
 * settled from the indexed fulfilment. `receipt` is the buyer's Venmo payment id, one per payment;
 * `order` adds to the order's creation body (a bridged destination, say).
 */
export async function settledPayment(
  gateway: TestGateway,
  key: string,
  paymentId: string,
  depositId: bigint,
  receipt: string,
  order: Record<string, unknown> = {},
): Promise<SettledPayment> {
  const { node } = gateway;
  const local = node.chain!.localChain!;
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const created = await gateway.request('POST', '/api/v1/orders', { key, body: { requestedUsdcAmount: '25', destinationAddress: destination, ...order } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const placed = created.body.responseObject.order as { id: string; merchantId: string };
  const input = attemptInput({
    id: paymentId,
    orderId: placed.id,
    merchantId: placed.merchantId,
    owedUsdc: 25_000_000n,
    destination,
    depositId,
    chain: node.payments.chain,
    fees: node.payments.fees,
    at: new Date(gateway.clock.now()).toISOString(),
  });
  await node.system.askAt({ kind: 'payment', id: paymentId }, { type: 'CREATE', ...input });
  const awaiting = await untilOnClock(
    gateway.clock,
    () => paymentView(gateway, paymentId),
    (view) => view?.step === 'AWAITING_PAYMENT',
    'the intent to be signalled',
  );
  const intentHash = awaiting!.payment.railIdentifier as Hex;

  const simulator = node.enclave!.simulator!;
  const material = simulator.openSession('venmo', { id: `buyer-${receipt}`, username: `buyer${receipt}` });
  const block = await local.publicClient.getBlock();
  simulator.recordPayment('venmo', material, {
    paymentId: receipt,
    amount: input.paymentAmountCents,
    currency: 'USD',
    payee: MAKER_PAYEE,
    timestampMs: Number(block.timestamp) * 1000 + 60_000,
    status: 'completed',
  });
  const sealed = await sealSessionMaterial(node.enclave!.service.attestationDocument(), material, {
    purpose: 'payment',
    platform: 'venmo',
    chainId: local.chainId,
    intentHash,
    expiresAt: Math.floor(Date.now() / 1000) + 600,
  });
  await node.system.askAt(
    { kind: 'payment', id: paymentId },
    { type: 'SUBMIT_PROOF', proof: { encryptedSessionMaterial: sealed, params: { PAYMENT_ID: receipt } }, at: new Date(gateway.clock.now()).toISOString() },
  );
  await untilOnClock(
    gateway.clock,
    () => paymentView(gateway, paymentId),
    (view) => view?.status === 'SETTLED',
    'the payment to settle',
  );
  return { orderId: placed.id, paymentId, intentHash };
}
