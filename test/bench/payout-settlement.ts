/**
 * A payout from FUNDED to SETTLED through one buyer, per second, beside the order checkout's
 * paid orders per second in the same run (issue 39, Checks). Both one at a time, in process,
 * on the local chain with the indexer, the attestation service and its platform simulator.
 *
 * A payout counts from its customer asking for a sign-in code (it is FUNDED) to the read that
 * shows it SETTLED: the code mailed and read from the local mail catcher, sign-in (which
 * attaches the payout signer), Venmo saved, connecting skipped, confirm, the listing's batch
 * mined and indexed, then one checkout buyer taking all 100 USDC: order, quote, payment, intent
 * signalled, paid in the simulator, proven, fulfilled, and the escrow's release indexed. The
 * baseline is the same buyer's half alone on a node whose seeded makers hold the liquidity: an
 * order of 100 USDC from its create to the read that shows it FULFILLED.
 */
import { performance } from 'node:perf_hooks';
import type { Hex } from 'viem';
import type { CheckoutPayment } from '../../machines/payment/index.js';
import { BuyerSimulator, sealForPayment } from '../support/buyer-simulator.js';
import { placeOrder } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { USDC_ON_BASE, WORKED_PAYOUT_SETTINGS, payoutBody } from '../support/payout-fakes.js';

export interface PayoutSettlementBench {
  count: number;
  payoutMs: number[];
  orderMs: number[];
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function answer(response: { status: number; body: any }, status: number, what: string): any {
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.responseObject;
}

/** One checkout buyer pays an order of `usdc` over Venmo to whoever the quote names, until the order is FULFILLED. */
async function buyOnce(gateway: TestGateway, key: string, usdc: string, buyer: BuyerSimulator, who: string): Promise<void> {
  const enclave = gateway.node.enclave!;
  const trusted = { measurement: enclave.service.attestationDocument().measurement, signer: enclave.service.signer };
  const order = await placeOrder(gateway, key, { requestedUsdcAmount: usdc });
  await until(
    () => order.customer('GET', '/quotes?rail=venmo'),
    (read) => read.status === 200 && read.body.responseObject.platforms.length > 0,
    'a quote',
  );
  const payment = answer(await order.customer('POST', '/payments', { rail: 'venmo' }), 201, 'the payment') as CheckoutPayment;
  const signalled = (await until(
    async () => answer(await order.customer('GET', `/payments/${payment.id}`), 200, 'the payment') as CheckoutPayment,
    (read) => read.railIdentifier !== null,
    'the intent',
  )) as CheckoutPayment & { railIdentifier: Hex };
  const session = await buyer.signIn('venmo', who);
  const sent = await buyer.pay(session, {
    payee: signalled.payTo,
    amount: signalled.paymentAmount,
    currency: signalled.currency,
    note: signalled.suggestedMemo!,
  });
  const encryptedSessionMaterial = await sealForPayment(signalled.attestation.serviceUrl, trusted, session, {
    chainId: gateway.node.payments.chain!.chainId,
    intentHash: signalled.railIdentifier,
  });
  answer(await order.customer('POST', `/payments/${payment.id}/proof`, { encryptedSessionMaterial, params: sent.proofParams }), 202, 'the proof');
  await until(
    async () => (await gateway.request('GET', `/api/v1/orders/${order.id}`)).body.responseObject.order.status,
    (status) => status === 'FULFILLED',
    'the order',
  );
}

export async function payoutSettlementBenchmark(count: number): Promise<PayoutSettlementBench> {
  const config = { INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, PAYOUT_FUNDING_POLL_MS: 1_000, RATE_LIMIT_PER_MINUTE: 1_000_000 };
  const payoutMs: number[] = [];
  const orderMs: number[] = [];
  const payouts = await startTestGateway(config);
  try {
    const { node } = payouts;
    const merchant = await payouts.createMerchant();
    await payouts.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { payouts: WORKED_PAYOUT_SETTINGS });
    const buyer = new BuyerSimulator(node.enclave!.simulator!.url);
    for (let i = 0; i < count; i++) {
      const email = `bench${i}@example.com`;
      const created = answer(
        await payouts.request('POST', '/api/v1/payouts', {
          key: merchant.liveKey,
          body: payoutBody({ customerEmail: email }),
          headers: { 'idempotency-key': `bench-settle-${i}` },
        }),
        201,
        'the payout',
      );
      await node.conversions.simulator!.sendFromWallet({
        depositAddress: created.funding.depositAddress,
        chainId: 8453,
        tokenAddress: USDC_ON_BASE,
        amount: created.funding.amount,
      });
      const read = async () => answer(await payouts.request('GET', `/api/v1/payouts/${created.payoutId}`, { key: merchant.liveKey }), 200, 'the read');
      await until(read, (payout) => payout.status === 'FUNDED', 'FUNDED');
      const link = new URL(created.checkoutUrl);
      const checkout = (method: string, path = '', body?: unknown, login?: string) =>
        payouts.request(method, `/api/v1/cashout-checkout/${created.payoutId}${path}`, {
          headers: { 'x-cashout-token': link.searchParams.get('token')!, ...(login ? { authorization: `Bearer ${login}` } : {}) },
          ...(body === undefined ? {} : { body }),
        });
      const started = performance.now();
      answer(await checkout('POST', '/sign-in/code'), 202, 'the code');
      const mailed = node.mail.inbox!.messages().find((message) => message.to.includes(email))!;
      const code = /\b(\d{6})\b/.exec(mailed.subject)![1]!;
      const { loginToken } = answer(await checkout('POST', '/sign-in', { code }), 200, 'the sign-in');
      answer(await checkout('PUT', '/method', { rail: 'venmo', payeeHandle: String(2_000_000_000 + i) }, loginToken), 200, 'the method');
      answer(await checkout('POST', '/skip-connect', undefined, loginToken), 200, 'skip');
      answer(await checkout('POST', '/confirm', undefined, loginToken), 200, 'the confirm');
      await until(read, (payout) => payout.status === 'LISTING', 'LISTING');
      await buyOnce(payouts, merchant.liveKey, '100', buyer, `bench-payout-buyer-${i}`);
      await until(read, (payout) => payout.status === 'SETTLED', 'SETTLED');
      payoutMs.push(performance.now() - started);
    }
  } finally {
    await payouts.stop();
  }
  const orders = await startTestGateway({ ...config, LOCAL_MAKERS: true });
  try {
    const merchant = await orders.createMerchant();
    const buyer = new BuyerSimulator(orders.node.enclave!.simulator!.url);
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await buyOnce(orders, merchant.liveKey, '100', buyer, `bench-order-buyer-${i}`);
      orderMs.push(performance.now() - started);
    }
  } finally {
    await orders.stop();
  }
  return { count, payoutMs, orderMs };
}

export function formatPayoutSettlement(result: PayoutSettlementBench): string {
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const p50 = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;
  const perSecond = (values: number[]) => (1000 * values.length) / values.reduce((sum, value) => sum + value, 0);
  const payouts = perSecond(result.payoutMs);
  const orders = perSecond(result.orderMs);
  return [
    `### a payout from FUNDED to SETTLED through one buyer (baseline: a paid order through the same buyer's steps), ${result.count} each, one at a time`,
    '',
    '| | per second | p50 ms | max ms | ratio to the paid order |',
    '|---|---:|---:|---:|---:|',
    `| paid order (create to FULFILLED) | ${orders.toFixed(2)} | ${p50(result.orderMs).toFixed(0)} | ${Math.max(...result.orderMs).toFixed(0)} | 1.00 |`,
    `| payout (sign-in to SETTLED) | ${payouts.toFixed(2)} | ${p50(result.payoutMs).toFixed(0)} | ${Math.max(...result.payoutMs).toFixed(0)} | ${(payouts / orders).toFixed(2)} |`,
  ].join('\n');
}
