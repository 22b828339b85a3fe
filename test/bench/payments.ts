/**
 * Paid orders per second end to end on the embedded default, beside the local chain's own
 * USDC transfers per second in the same run.
 *
 * The node runs as `npm start` runs it (payments-node.ts, a process of its own: a durable
 * embedded store in a fresh DATA_DIR, a fresh anvil with automine and the seeded makers,
 * the indexer, the attestation service and its platform simulator in-process). This
 * process is the merchant and the customers, over HTTP on loopback, as the hosted
 * checkout page is: create an order with the API key; POST a Venmo payment with the order
 * token; wait for the intent to be signalled on chain; pay the maker in the simulator's
 * buyer API; fetch and check the attestation document and seal the session to it; submit
 * the proof; then read the hosted order until it is FULFILLED with its payment SETTLED,
 * which takes the attestation, fulfillIntent mined, IntentFulfilled indexed, the payment
 * settled from the fact and the order applying it. A paid order counts from its create to
 * the read that shows it fulfilled; the customer's reads poll every 25 ms.
 *
 * Baseline: plain USDC `transfer`s of one base unit on another anvil with our contracts
 * (started by this process, automine), a bare viem `writeContract` and its receipt, with as
 * many wallets as there are transfers in flight, so the same concurrency needs no nonce
 * manager. Each level runs the baseline, then the paid orders.
 */
import { randomBytes } from 'node:crypto';
import { createPublicClient, createWalletClient, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { mockUSDCAbi } from '../../indexer/chain/artifacts/index.js';
import { startLocalChain, type LocalChain } from '../../indexer/chain/local-chain.js';
import { LOOPBACK_POLLING_MS } from '../../indexer/chain/rpc.js';
import { BuyerSimulator, sealForPayment } from '../support/buyer-simulator.js';
import { closedLoop, median, type LoadResult } from './harness.js';
import { bookNow } from './quotes-book.js';
import { expect, liveMerchant, placeOrder, startPaymentsNode, until, type PaymentsNode } from './payments-support.js';

export const PAYMENT_LEVELS = [1, 4, 16];

export interface PaymentsBench {
  ordersPerLevel: number;
  transfersPerLevel: number;
  amountUsdc: string;
  rows: Array<{ subject: LoadResult; base: LoadResult; phases: Phases }>;
}

/** Medians, in ms, of the steps of a paid order at one level. */
export interface Phases {
  create: number;
  payment: number;
  signal: number;
  prove: number;
  settle: number;
}

const AMOUNT_USDC = '2';
const POLL_MS = 25;

export async function paymentsBenchmark(ordersPerLevel: number, transfersPerLevel: number, options: { levels?: number[] } = {}): Promise<PaymentsBench> {
  const levels = options.levels ?? PAYMENT_LEVELS;
  const baseline = await startLocalChain();
  let node: PaymentsNode | undefined;
  try {
    node = await startPaymentsNode();
    const key = await liveMerchant(node);
    // The seeded makers' deposits are on chain at start; they can be paid once the book has read them.
    await bookNow(node);
    const buyer = new BuyerSimulator(node.simulatorUrl);
    const n = node;
    const pay = (times?: number[]) => paidOrder(n, key, buyer, times);
    // Cold code: two orders that are not counted.
    for (let i = 0; i < 2; i++) await pay();

    const transfer = await transfers(baseline, Math.max(...levels), transfersPerLevel * levels.length);
    const rows: PaymentsBench['rows'] = [];
    for (const inFlight of levels) {
      const base = await closedLoop(transfer, inFlight, transfersPerLevel);
      const steps: number[][] = [];
      const subject = await closedLoop(
        async () => {
          const times: number[] = [];
          await pay(times);
          steps.push(times);
        },
        inFlight,
        Math.max(ordersPerLevel, inFlight),
      );
      rows.push({ subject, base, phases: medians(steps) });
    }
    return { ordersPerLevel, transfersPerLevel, amountUsdc: AMOUNT_USDC, rows };
  } catch (error) {
    if (node) throw new Error(`${(error as Error).message}\nthe node's last log lines:\n${node.logTail()}`, { cause: error });
    throw error;
  } finally {
    await node?.stop();
    await baseline.stop();
  }
}

/** One order paid end to end; `times`, when given, gets the end of each step in ms from the start. */
async function paidOrder(node: PaymentsNode, key: string, buyer: BuyerSimulator, times?: number[]): Promise<void> {
  const t0 = performance.now();
  const mark = () => times?.push(performance.now() - t0);
  // Each order pays out to an address of its own: two intents on the same terms signalled within the same second carry the
  // same gating approval, and the second reverts with GatingSignatureAlreadyUsed (actors/adapters/chain/viem-intents.ts; see docs/benchmarks.md).
  const order = await placeOrder(node, key, { requestedUsdcAmount: AMOUNT_USDC, destinationAddress: `0x${randomBytes(20).toString('hex')}` });
  mark();
  const created = await order.customer('POST', '/payments', { rail: 'venmo' });
  if (created.status !== 201) throw new Error(`payment create answered ${created.status}: ${JSON.stringify(created.body)}`);
  const paymentId = created.body.responseObject.id as string;
  mark();
  const signalled = await until(
    async () => {
      const read = await order.customer('GET', `/payments/${paymentId}`);
      if (read.status !== 200) throw new Error(`payment read answered ${read.status}: ${JSON.stringify(read.body)}`);
      return read.body.responseObject;
    },
    (payment) => {
      if (payment.status !== 'CREATED')
        throw new Error(`payment ${paymentId} is ${payment.status} (${payment.errorCode}: ${payment.errorMessage}) before its intent was signalled`);
      return payment.railIdentifier !== null;
    },
    `the intent of ${paymentId} to be signalled`,
    { everyMs: POLL_MS },
  );
  mark();
  const session = await buyer.signIn('venmo');
  const sent = await buyer.pay(session, {
    payee: signalled.payTo,
    amount: signalled.paymentAmount,
    currency: signalled.currency,
    note: signalled.suggestedMemo,
  });
  const encryptedSessionMaterial = await sealForPayment(signalled.attestation.serviceUrl, node.trusted, session, {
    chainId: node.chainId,
    intentHash: signalled.railIdentifier as Hex,
  });
  await expect(202, `${node.url}/api/v1/checkout/orders/${order.id}/payments/${paymentId}/proof`, {
    method: 'POST',
    headers: { authorization: `Bearer ${order.token}` },
    body: { encryptedSessionMaterial, params: sent.proofParams },
  });
  mark();
  await until(
    () => expect(200, `${node.url}/api/v1/orders/${order.id}`),
    (hosted) => {
      const payment = hosted.currentPayment;
      if (payment?.errorCode || (payment && !['CREATED', 'SETTLED'].includes(payment.status))) {
        throw new Error(`payment ${paymentId} is ${payment.status} with ${payment.errorCode}: ${payment.errorMessage}`);
      }
      return hosted.order.status === 'FULFILLED' && payment?.status === 'SETTLED';
    },
    `order ${order.id} to be fulfilled`,
    { everyMs: POLL_MS },
  );
  mark();
}

/** A transfer of one base unit from whichever of `wallets` funded wallets is free, to its receipt (the checkout bench uses it too). */
export async function transfers(chain: LocalChain, wallets: number, total: number) {
  const to = privateKeyToAccount(generatePrivateKey()).address;
  const publicClient = createPublicClient({ chain: chain.chain, transport: http(chain.rpcUrl), pollingInterval: LOOPBACK_POLLING_MS });
  const free = await Promise.all(
    Array.from({ length: wallets }, async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      await chain.testClient.setBalance({ address: account.address, value: 10n ** 20n });
      return createWalletClient({ account, chain: chain.chain, transport: http(chain.rpcUrl) });
    }),
  );
  for (const wallet of free) await chain.mintUsdc(wallet.account.address, BigInt(total));
  return async () => {
    const wallet = free.pop()!;
    try {
      const hash = await wallet.writeContract({ address: chain.usdc, abi: mockUSDCAbi, functionName: 'transfer', args: [to, 1n] });
      // Automine: the transaction is usually in a block once it is accepted; when it is not, its receipt is polled for.
      const receipt = await publicClient.getTransactionReceipt({ hash }).catch(() => publicClient.waitForTransactionReceipt({ hash, timeout: 10_000 }));
      if (receipt.status !== 'success') throw new Error(`transfer ${hash} reverted`);
    } finally {
      free.push(wallet);
    }
  };
}

function medians(steps: number[][]): Phases {
  const step = (i: number) => median(steps.map((times) => times[i]! - (i === 0 ? 0 : times[i - 1]!)));
  return { create: step(0), payment: step(1), signal: step(2), prove: step(3), settle: step(4) };
}

export function formatPayments(result: PaymentsBench): string {
  const fmt = (value: number, digits: number) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const lines = [
    `### Paid orders end to end on the embedded default with a local anvil (automine), ${result.ordersPerLevel} orders of ${result.amountUsdc} USDC per level (baseline: plain USDC transfers on another anvil, bare viem, ${result.transfersPerLevel} per level, one wallet per transfer in flight)`,
    '',
    '| in flight | paid orders/s | p50 ms | p99 ms | transfers/s | transfer p50 ms | transfer p99 ms | throughput ratio | p99 ratio |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { subject, base } of result.rows) {
    lines.push(
      `| ${subject.inFlight} | ${fmt(subject.perSecond, 2)} | ${fmt(subject.p50Ms, 0)} | ${fmt(subject.p99Ms, 0)} | ${fmt(base.perSecond, 0)} | ${fmt(base.p50Ms, 1)} | ${fmt(base.p99Ms, 1)} | ${fmt(subject.perSecond / base.perSecond, 4)} | ${fmt(subject.p99Ms / base.p99Ms, 0)} |`,
    );
  }
  lines.push(
    '',
    'Median ms of each step of a paid order: create the order; create the payment; until its intent is signalled and read; sign in, pay in the simulator, seal and submit the proof; until the hosted read shows it FULFILLED.',
    '',
    '| in flight | create order | create payment | signalled | pay and prove | fulfilled |',
    '|---:|---:|---:|---:|---:|---:|',
  );
  for (const { subject, phases } of result.rows) {
    lines.push(
      `| ${subject.inFlight} | ${fmt(phases.create, 0)} | ${fmt(phases.payment, 0)} | ${fmt(phases.signal, 0)} | ${fmt(phases.prove, 0)} | ${fmt(phases.settle, 0)} |`,
    );
  }
  return lines.join('\n');
}
