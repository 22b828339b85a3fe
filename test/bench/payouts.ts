/**
 * Payout creates against order creates, on one embedded node in the same run: each create
 * runs 16 at a time for the same number of seconds, every payout with its own
 * Idempotency-Key. The payout's providers are the in-memory stand-ins (test/support/
 * payout-fakes.ts), so what is measured is the platform's own work: the validation, the
 * actor's two turns (CREATE, then PREPARED from its effect) and the wait for the second,
 * against the order's one turn. Funding is then reported for a batch of payouts at once
 * (each provider report and the USDC delivered), and the time until every payout is FUNDED
 * is measured: the platform's detection, beside none of a chain's latency.
 */
import { performance } from 'node:perf_hooks';
import { startTestGateway } from '../support/gateway.js';
import { FakeFunding, FakeWallets, SERVICE_WALLET, USDC_ON_BASE, WORKED_PAYOUT_SETTINGS, payoutBody } from '../support/payout-fakes.js';

const CONNECTIONS = 16;

export interface PayoutBench {
  orderCreatesPerSecond: number;
  payoutCreatesPerSecond: number;
  payoutP50Ms: number;
  payoutP99Ms: number;
  orderP50Ms: number;
  orderP99Ms: number;
  funded: number;
  fundingToFundedMs: { p50: number; p99: number };
}

async function closedLoop(seconds: number, send: (i: number) => Promise<number>): Promise<{ perSecond: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        const status = await send(next++);
        if (status !== 201) throw new Error(`a create answered ${status}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / seconds, p50: latencies[Math.floor(latencies.length / 2)]!, p99: latencies[Math.floor(latencies.length * 0.99)]! };
}

export async function payoutsBenchmark(seconds: number): Promise<PayoutBench> {
  const funding = new FakeFunding();
  const gateway = await startTestGateway(
    { RATE_LIMIT_PER_MINUTE: 10_000_000, PAYOUT_FUNDING_POLL_MS: 3_600_000 },
    {
      payoutProviders: {
        funding,
        wallets: new FakeWallets(),
        deliveries: funding,
        settlement: {
          chain: { chainId: 8453, escrow: '0x0000000000000000000000000000000000000001', orchestrator: '0x0000000000000000000000000000000000000002' },
          usdc: '0x0000000000000000000000000000000000000003',
        },
        serviceWalletAddress: SERVICE_WALLET,
      },
    },
  );
  try {
    const merchant = await gateway.createMerchant();
    await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { payouts: WORKED_PAYOUT_SETTINGS });
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
      (
        await fetch(gateway.url + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': merchant.liveKey, ...headers },
          body: JSON.stringify(body),
        }).then(async (response) => {
          await response.arrayBuffer();
          return response;
        })
      ).status;
    const orders = await closedLoop(seconds, () => post('/api/v1/orders', { requestedUsdcAmount: '25' }));
    const payouts = await closedLoop(seconds, (i) =>
      post('/api/v1/payouts', payoutBody({ customerEmail: `c${i}@example.com` }), { 'idempotency-key': `bench-payout-${i}` }),
    );

    // Funding: a batch of payouts is funded in full at once; how long until each reads FUNDED.
    const batch = [...funding.requests.values()].slice(0, 200);
    const rows = gateway.node.system.documents('payout');
    const started = performance.now();
    const at = new Date(gateway.clock.now()).toISOString();
    const doneAt = new Map<string, number>();
    // Watched from the first report on, so each payout's time is when it first read FUNDED.
    const watching = (async () => {
      while (doneAt.size < batch.length && performance.now() - started < 60_000) {
        for (const row of await rows.find({ 'view.status': 'FUNDED' }, { projection: { _id: 1 } }))
          if (!doneAt.has(row._id)) doneAt.set(row._id, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await Promise.all(
      batch.map(async (entry) => {
        const transfer = funding.send(entry.quote.originAmount, at, entry.quote.requestId);
        funding.deliver(transfer, 101_000_000n, entry.quote.requestId);
        await fetch(`${gateway.url}/api/v1/providers/conversion/funding-activity`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ requestId: entry.quote.requestId }),
        }).then((response) => response.arrayBuffer());
      }),
    );
    await watching;
    const times = [...doneAt.values()].sort((a, b) => a - b);
    return {
      orderCreatesPerSecond: orders.perSecond,
      orderP50Ms: orders.p50,
      orderP99Ms: orders.p99,
      payoutCreatesPerSecond: payouts.perSecond,
      payoutP50Ms: payouts.p50,
      payoutP99Ms: payouts.p99,
      funded: times.length,
      fundingToFundedMs: { p50: times[Math.floor(times.length / 2)] ?? Number.NaN, p99: times[Math.floor(times.length * 0.99)] ?? Number.NaN },
    };
  } finally {
    await gateway.stop();
  }
}

export function formatPayouts(result: PayoutBench): string {
  const f = (value: number, digits = 1) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return [
    '### payouts (baseline: order creates on the same node, same run)',
    '',
    '| create | per second | p50 ms | p99 ms | ratio to orders |',
    '|---|---:|---:|---:|---:|',
    `| POST /api/v1/orders | ${f(result.orderCreatesPerSecond, 0)} | ${f(result.orderP50Ms)} | ${f(result.orderP99Ms)} | 1.00 |`,
    `| POST /api/v1/payouts | ${f(result.payoutCreatesPerSecond, 0)} | ${f(result.payoutP50Ms)} | ${f(result.payoutP99Ms)} | ${f(result.payoutCreatesPerSecond / result.orderCreatesPerSecond, 2)} |`,
    '',
    `Funding reported for ${result.funded} payouts at once (in-memory provider, no chain): FUNDED after p50 ${f(result.fundingToFundedMs.p50)} ms, p99 ${f(result.fundingToFundedMs.p99)} ms.`,
  ].join('\n');
}

export interface OnChainFunding {
  payouts: number;
  /** The chain's own latency: a funding transfer sent from the local test wallet until it is mined. */
  transferMs: { p50: number; max: number };
  /** From sending the funding until the payout reads FUNDED: mined, seen by the provider, converted, reported, read from the receipts. */
  fundedMs: { p50: number; max: number };
}

/**
 * Funding on the local chain, one payout at a time, as `npm start` runs it: the local provider
 * sees the transfer, converts and delivers it, reports the activity, and the payout reads the
 * delivery's receipt. Beside it, the chain's own latency for the same transfer.
 */
export async function payoutFundingOnChain(count: number): Promise<OnChainFunding> {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, RATE_LIMIT_PER_MINUTE: 1_000_000 });
  try {
    const merchant = await gateway.createMerchant();
    await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { payouts: WORKED_PAYOUT_SETTINGS });
    const simulator = gateway.node.conversions.simulator!;
    const transfer: number[] = [];
    const funded: number[] = [];
    for (let i = 0; i < count; i++) {
      const created = await gateway.request('POST', '/api/v1/payouts', {
        key: merchant.liveKey,
        body: payoutBody({ customerEmail: `chain${i}@example.com` }),
        headers: { 'idempotency-key': `bench-chain-payout-${i}` },
      });
      const { payoutId, funding } = created.body.responseObject;
      const started = performance.now();
      await simulator.sendFromWallet({ depositAddress: funding.depositAddress, chainId: 8453, tokenAddress: USDC_ON_BASE, amount: funding.amount });
      transfer.push(performance.now() - started);
      const payouts = gateway.node.system.documents('payout');
      while ((await payouts.findOne({ _id: payoutId }, { projection: { 'view.status': 1 } }))?.view.status !== 'FUNDED') {
        if (performance.now() - started > 30_000) throw new Error(`payout ${payoutId} was not FUNDED within 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      funded.push(performance.now() - started);
    }
    const summary = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return { p50: sorted[Math.floor(sorted.length / 2)]!, max: sorted.at(-1)! };
    };
    return { payouts: count, transferMs: summary(transfer), fundedMs: summary(funded) };
  } finally {
    await gateway.stop();
  }
}

export function formatOnChainFunding(result: OnChainFunding): string {
  const f = (value: number) => value.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 0 });
  return [
    `### payout funding on the local chain (baseline: the funding transfer mined), ${result.payouts} payouts one at a time`,
    '',
    '| from sending the funding | p50 ms | max ms | p50 ratio to the transfer |',
    '|---|---:|---:|---:|',
    `| transfer mined | ${f(result.transferMs.p50)} | ${f(result.transferMs.max)} | 1.0 |`,
    `| payout FUNDED | ${f(result.fundedMs.p50)} | ${f(result.fundedMs.max)} | ${(result.fundedMs.p50 / result.transferMs.p50).toFixed(1)} |`,
  ].join('\n');
}
