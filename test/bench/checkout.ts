/**
 * The whole checkout through the local cluster (issue 43): `npm run bench -- checkout`.
 *
 * `LocalCluster` (deploy/cluster/) as `npm run cluster` starts it: three clustered
 * nats-servers, the stand-in store, the attestation service and a local anvil (automine,
 * the seeded makers) in this process, the indexer, three node processes and HAProxy. This
 * process is the merchant and the customers, over HTTP through the balancer only
 * (checkout-run.ts): paid orders per second over the run's window, and the time from
 * "I've paid" (the proof about to be posted) to the first hosted read that shows the order
 * FULFILLED, p50 and p99.
 *
 * Baseline, in the same run and on the same anvil before the customers start: plain USDC
 * transfers of one base unit, a bare viem `writeContract` and its receipt, one wallet per
 * transfer in flight (payments.ts), with as many in flight as there are customers.
 *
 * The second run is the same with one node SIGKILLed once half its orders are paid; it is
 * not started again before the run ends, so the rest of the run is two nodes taking over
 * the dead one's shards once their leases lapse. Afterwards every paid order is checked:
 * FULFILLED, one IntentFulfilled on chain for its intent, one SETTLED payment in the
 * merchant's payment list; failed customer requests (status 0 or 5xx) are counted apart.
 *
 * Beside each run, where its time went: CPU per process group and the nodes' store and ask
 * histograms (checkout-costs.ts), and the cluster's one chain-facts reader (checkout-facts.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEventLogs } from 'viem';
import { createLogger } from '../../actors/index.js';
import { LocalCluster } from '../../deploy/cluster/index.js';
import { orchestratorAbi } from '../../indexer/chain/index.js';
import { send, type CheckoutWorld } from '../support/cluster-customer.js';
import { costSnapshot, costsBetween, type Costs } from './checkout-costs.js';
import { sampleFactBacklog, type FactBacklog } from './checkout-facts.js';
import { checkoutRun, type Checkout, type RunOutcome } from './checkout-run.js';
import { closedLoop, median, percentile, type LoadResult } from './harness.js';
import { transfers } from './payments.js';

export interface CheckoutSettings {
  customers: number;
  orders: number;
  transfers: number;
  nodes: number;
}

export function checkoutSettings(env: NodeJS.ProcessEnv = process.env): CheckoutSettings {
  return {
    customers: Number(env.BENCH_CHECKOUT_CUSTOMERS ?? 24),
    orders: Number(env.BENCH_CHECKOUT_ORDERS ?? 96),
    transfers: Number(env.BENCH_CHECKOUT_TRANSFERS ?? 300),
    nodes: Number(env.BENCH_CHECKOUT_NODES ?? 3),
  };
}

export interface RunReport {
  label: string;
  outcome: RunOutcome;
  /** Paid orders seen FULFILLED per second, from the first order to the last FULFILLED read. */
  perSecond: number;
  paidToFulfilled: Spread;
  /**
   * Proof posted to the IntentFulfilled log seen, and that to the FULFILLED read (the hosted read shows the payment SETTLED
   * and the order FULFILLED in the same version: a first version polled both apart and never saw one without the other).
   */
  paidToMined: Spread;
  minedToFulfilled: Spread;
  /** Order placed to the intent signalled and read. */
  orderToSignalled: Spread;
  settlement: Settlement;
  costs: Costs;
  facts: FactBacklog;
  killedAt?: number;
  killed?: string;
}

interface Spread {
  p50: number;
  p99: number;
  max: number;
}

/** What the end of a run finds of its paid orders. */
export interface Settlement {
  paid: number;
  fulfilled: number;
  /** Paid orders whose intent has exactly one IntentFulfilled log. */
  onceOnChain: number;
  /** Intents of the run with more than one IntentFulfilled log. */
  twiceOnChain: number;
  /** Paid orders with exactly one SETTLED payment in the merchant's list. */
  settledOnce: number;
  /** Orders of the run with two or more SETTLED payments. */
  settledTwice: number;
  /** Checkouts that failed, by step. */
  failedCheckouts: Record<string, number>;
}

export interface CheckoutBench {
  settings: CheckoutSettings;
  baseline: LoadResult;
  runs: RunReport[];
  folder: string;
}

export async function checkoutBenchmark(settings: CheckoutSettings): Promise<CheckoutBench> {
  const folder = mkdtempSync(join(tmpdir(), 'peer-checkout-bench-'));
  const logger = createLogger({ level: 'warn' });
  let cluster: LocalCluster | undefined;
  let kept = false;
  try {
    cluster = await LocalCluster.start({ folder, logger, nodes: settings.nodes, nodeEnv: { RATE_LIMIT_PER_MINUTE: '1000000' } });
    const world = await merchantWorld(cluster);
    const c = cluster;
    // Cold code in every node: a few checkouts not counted.
    const warm = await checkoutRun(world, c.chain, { label: 'warm', customers: settings.nodes, orders: settings.nodes * 2 });
    const cold = warm.checkouts.find((checkout) => checkout.failed);
    if (cold) throw new Error(`a warm-up checkout failed at ${cold.failed!.step}: ${cold.failed!.message}`);

    const transfer = await transfers(c.chain, settings.customers, settings.transfers);
    const baseline = await closedLoop(transfer, settings.customers, settings.transfers);

    const runs: RunReport[] = [];
    let facts = await sampleFactBacklog(c);
    let before = await costSnapshot(c);
    const steady = await checkoutRun(world, c.chain, { label: 'steady', customers: settings.customers, orders: settings.orders });
    runs.push(await report('all nodes up', steady, c, world, costsBetween(before, await costSnapshot(c)), await facts.stop()));

    const victim = c.nodes[1] ?? c.nodes[0]!;
    let killedAt = 0;
    facts = await sampleFactBacklog(c);
    before = await costSnapshot(c);
    const killed = await checkoutRun(world, c.chain, {
      label: 'kill',
      customers: settings.customers,
      orders: settings.orders,
      atPaid: {
        count: Math.floor(settings.orders / 2),
        act: async () => {
          killedAt = Date.now();
          await c.killNode(victim);
        },
      },
    });
    const costs = costsBetween(before, await costSnapshot(c));
    runs.push({ ...(await report(`${victim.name} SIGKILLed at half`, killed, c, world, costs, await facts.stop())), killedAt, killed: victim.name });
    return { settings, baseline, runs, folder };
  } catch (error) {
    kept = true;
    throw new Error(`${(error as Error).message}\n(the cluster's logs are kept in ${folder})`, { cause: error });
  } finally {
    await cluster?.stop();
    if (!kept) rmSync(folder, { recursive: true, force: true });
  }
}

async function merchantWorld(cluster: LocalCluster): Promise<CheckoutWorld> {
  const created = await send(cluster.url, 'POST', '/internal/v1/merchants', {
    headers: { authorization: `Bearer ${cluster.adminToken}` },
    body: { name: 'Checkout bench', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' },
  });
  if (created.status !== 201) throw new Error(`the merchant: answered ${created.status} ${JSON.stringify(created.body)}`);
  return {
    url: cluster.url,
    merchantKey: created.body.responseObject.liveApiKey,
    simulatorUrl: cluster.enclave.simulator!.url,
    trusted: { measurement: cluster.enclave.service.attestationDocument().measurement, signer: cluster.enclave.service.signer },
    chainId: cluster.chain.chainId,
  };
}

async function report(label: string, outcome: RunOutcome, cluster: LocalCluster, world: CheckoutWorld, costs: Costs, facts: FactBacklog): Promise<RunReport> {
  const done = outcome.checkouts.filter((checkout) => checkout.fulfilledAt !== undefined);
  const lastFulfilled = Math.max(...done.map((checkout) => checkout.fulfilledAt!));
  const spread = (pick: (checkout: Checkout) => number | undefined) =>
    spreadOf(done.map(pick).filter((value): value is number => value !== undefined && Number.isFinite(value)));
  return {
    label,
    outcome,
    perSecond: done.length === 0 ? 0 : done.length / ((lastFulfilled - outcome.startedAt) / 1000),
    paidToFulfilled: spread((checkout) => checkout.fulfilledAt! - checkout.paidAt!),
    paidToMined: spread((checkout) => (checkout.minedSeenAt === undefined ? undefined : checkout.minedSeenAt - checkout.paidAt!)),
    minedToFulfilled: spread((checkout) => (checkout.minedSeenAt === undefined ? undefined : checkout.fulfilledAt! - checkout.minedSeenAt)),
    orderToSignalled: spread((checkout) => checkout.signalledAt! - checkout.startedAt),
    settlement: await settlement(outcome.checkouts, cluster, world),
    costs,
    facts,
  };
}

function spreadOf(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return { p50: Number.NaN, p99: Number.NaN, max: Number.NaN };
  return { p50: median(sorted), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN };
}

async function settlement(checkouts: Checkout[], cluster: LocalCluster, world: CheckoutWorld): Promise<Settlement> {
  const paid = checkouts.filter((checkout) => checkout.paidAt !== undefined);
  const fulfilments = new Map<string, number>();
  const logs = await cluster.chain.publicClient.getLogs({ address: cluster.chain.orchestrator, fromBlock: cluster.chain.deployBlock });
  for (const log of parseEventLogs({ abi: orchestratorAbi, eventName: 'IntentFulfilled', logs })) {
    const hash = log.args.intentHash!.toLowerCase();
    fulfilments.set(hash, (fulfilments.get(hash) ?? 0) + 1);
  }
  const settledByOrder = await settledPayments(world);
  let fulfilled = 0;
  for (const checkout of paid) {
    const read = await send(world.url, 'GET', `/api/v1/orders/${checkout.orderId}`);
    if (read.status === 200 && read.body.responseObject.order.status === 'FULFILLED') fulfilled++;
  }
  const runIntents = new Set(checkouts.flatMap((checkout) => (checkout.intentHash ? [checkout.intentHash] : [])));
  const runOrders = new Set(checkouts.flatMap((checkout) => (checkout.orderId ? [checkout.orderId] : [])));
  const failedCheckouts: Record<string, number> = {};
  for (const checkout of checkouts) if (checkout.failed) failedCheckouts[checkout.failed.step] = (failedCheckouts[checkout.failed.step] ?? 0) + 1;
  return {
    paid: paid.length,
    fulfilled,
    onceOnChain: paid.filter((checkout) => fulfilments.get(checkout.intentHash!) === 1).length,
    twiceOnChain: [...runIntents].filter((hash) => (fulfilments.get(hash) ?? 0) > 1).length,
    settledOnce: paid.filter((checkout) => settledByOrder.get(checkout.orderId!) === 1).length,
    settledTwice: [...runOrders].filter((id) => (settledByOrder.get(id) ?? 0) > 1).length,
    failedCheckouts,
  };
}

/** SETTLED payments per order, from the merchant's payment list across orders. */
async function settledPayments(world: CheckoutWorld): Promise<Map<string, number>> {
  const byOrder = new Map<string, number>();
  for (let page = 1; ; page++) {
    const answer = await send(world.url, 'GET', `/api/v1/merchants/me/payments?status=SETTLED&limit=100&page=${page}`, {
      headers: { 'x-api-key': world.merchantKey },
    });
    if (answer.status !== 200) throw new Error(`the payment list: answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    const payments = answer.body.responseObject.payments as Array<{ orderId: string }>;
    for (const payment of payments) byOrder.set(payment.orderId, (byOrder.get(payment.orderId) ?? 0) + 1);
    if (payments.length < 100) return byOrder;
  }
}

export function formatCheckout(result: CheckoutBench): string {
  const fmt = (value: number, digits: number) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const ms = (spread: Spread) => `${fmt(spread.p50, 0)} / ${fmt(spread.p99, 0)}`;
  const { settings, baseline } = result;
  const lines = [
    `### Whole checkout through the cluster, ${settings.nodes} nodes behind HAProxy, ${settings.customers} customers, ${settings.orders} orders of 1–5 USDC per run (baseline: plain USDC transfers on the cluster's anvil, bare viem, ${settings.transfers} with ${settings.customers} in flight)`,
    '',
    `Chain baseline: ${fmt(baseline.perSecond, 0)} transfers/s (p50 ${fmt(baseline.p50Ms, 1)} ms, p99 ${fmt(baseline.p99Ms, 1)} ms).`,
    '',
    '| run | paid orders/s | ratio to transfers/s | paid → FULFILLED p50 / p99 ms | paid → fulfilment seen on chain | on chain → FULFILLED read | order → intent signalled |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const run of result.runs) {
    lines.push(
      `| ${run.label} | ${fmt(run.perSecond, 2)} | ${fmt(run.perSecond / baseline.perSecond, 4)} | ${ms(run.paidToFulfilled)} | ${ms(run.paidToMined)} | ${ms(run.minedToFulfilled)} | ${ms(run.orderToSignalled)} |`,
    );
  }
  lines.push(
    '',
    'Settlement at the end of each run: paid = proofs taken (202); fulfilled = hosted order FULFILLED; once on chain = one IntentFulfilled for its intent; settled once = one SETTLED payment in the merchant list. Failed answers = balancer answers of status 0 or 5xx to the customers, polls included.',
    '',
    '| run | orders | paid | fulfilled | once on chain | intents twice on chain | settled once | orders settled twice | failed checkouts (step: n) | failed answers / answers |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---:|',
  );
  for (const run of result.runs) {
    const s = run.settlement;
    const failed = Object.entries(s.failedCheckouts)
      .map(([step, count]) => `${step}: ${count}`)
      .join(', ');
    lines.push(
      `| ${run.label} | ${run.outcome.checkouts.length} | ${s.paid} | ${s.fulfilled} | ${s.onceOnChain} | ${s.twiceOnChain} | ${s.settledOnce} | ${s.settledTwice} | ${failed || 'none'} | ${run.outcome.failedAnswers.length} / ${run.outcome.answers} |`,
    );
  }
  for (const run of result.runs.filter((run) => run.killedAt)) {
    const byRequest = new Map<string, number>();
    for (const answer of run.outcome.failedAnswers)
      byRequest.set(`${answer.request} → ${answer.status}`, (byRequest.get(`${answer.request} → ${answer.status}`) ?? 0) + 1);
    const paidBefore = run.outcome.checkouts.filter((checkout) => checkout.fulfilledAt && checkout.paidAt! < run.killedAt!);
    const paidAfter = run.outcome.checkouts.filter((checkout) => checkout.fulfilledAt && checkout.paidAt! >= run.killedAt!);
    const wait = (checkouts: Checkout[]) => {
      const spread = spreadOf(checkouts.map((checkout) => checkout.fulfilledAt! - checkout.paidAt!));
      return `${checkouts.length} orders, paid → FULFILLED p50 / p99 / max ${ms(spread)} / ${fmt(spread.max, 0)} ms`;
    };
    lines.push(
      '',
      `${run.killed} was SIGKILLed ${fmt((run.killedAt! - run.outcome.startedAt) / 1000, 1)} s into the run (the run took ${fmt((run.outcome.endedAt - run.outcome.startedAt) / 1000, 1)} s) and not started again before it ended. Failed answers: ${[...byRequest].map(([what, count]) => `${what} ×${count}`).join('; ') || 'none'}. Paid before the kill: ${wait(paidBefore)}; paid after it: ${wait(paidAfter)}.`,
    );
  }
  lines.push('', "Where the time went (CPU cores busy over the run by process group; the nodes' histograms with the most time, mean ms × count):", '');
  for (const run of result.runs) {
    const { cores, slowest, turnConflicts } = run.costs;
    const { logged, taken, seconds, maxBacklog, medianBacklog } = run.facts;
    const total = cores.reduce((sum, row) => sum + row.cores, 0);
    lines.push(
      `- ${run.label}: ${fmt(total, 2)} cores in all (${cores.map((row) => `${row.name} ${fmt(row.cores, 2)}`).join(', ')}); ${slowest.map((row) => `${row.name} ${fmt(row.meanMs, 1)} ms × ${fmt(row.count, 0)}`).join(', ')}; ${fmt(turnConflicts, 0)} turn conflicts; chain facts ${fmt(logged, 0)} logged (${fmt(logged / Math.max(1, run.settlement.paid), 1)} per paid order), ${fmt(taken, 0)} taken by the cluster's one reader (${fmt(taken / seconds, 1)}/s), facts waiting median ${fmt(medianBacklog, 0)}, max ${fmt(maxBacklog, 0)}`,
    );
  }
  const failures = result.runs.flatMap((run) =>
    run.outcome.checkouts.filter((checkout) => checkout.failed).map((checkout) => `${run.label}: ${checkout.failed!.step}: ${checkout.failed!.message}`),
  );
  if (failures.length > 0) lines.push('', 'First failed checkouts:', ...failures.slice(0, 5).map((failure) => `- ${failure}`));
  return lines.join('\n');
}
