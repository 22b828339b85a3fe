/**
 * One run of the whole-checkout bench: `customers` buyers, each a closed loop through the
 * balancer (order, Venmo payment until its intent is signalled, fiat sent on the simulator
 * and the proof posted, the hosted order read every 50 ms until FULFILLED) until `orders`
 * have been started. A step that fails ends that checkout (the buyer goes on to the next);
 * every answer of status 0 or 5xx from the balancer is counted, polls included, as a
 * customer would see it.
 *
 * Beside the customers, the orchestrator's IntentFulfilled logs are read every 50 ms, so a
 * paid order's wait splits into proof to fulfilment seen on chain, and that to FULFILLED.
 */
import { randomBytes } from 'node:crypto';
import { parseEventLogs } from 'viem';
import { orchestratorAbi, type LocalChain } from '../../indexer/chain/index.js';
import { ClusterCustomer, type Answer, type CheckoutWorld } from '../support/cluster-customer.js';

export interface Checkout {
  index: number;
  orderId?: string;
  intentHash?: string;
  /** ms on Date.now()'s clock. */
  startedAt: number;
  signalledAt?: number;
  /** "I've paid": the proof about to be posted (set once the proof was taken). */
  paidAt?: number;
  fulfilledAt?: number;
  /** The first time this process saw the intent's IntentFulfilled log. */
  minedSeenAt?: number;
  failed?: { step: string; message: string };
}

export interface FailedAnswer {
  at: number;
  request: string;
  status: number;
}

export interface RunOutcome {
  checkouts: Checkout[];
  failedAnswers: FailedAnswer[];
  answers: number;
  startedAt: number;
  endedAt: number;
}

export interface RunOptions {
  label: string;
  customers: number;
  orders: number;
  /** Called once, when this many proofs have been taken. */
  atPaid?: { count: number; act: () => Promise<void> };
}

const POLL_MS = 50;

export async function checkoutRun(world: CheckoutWorld, chain: LocalChain, options: RunOptions): Promise<RunOutcome> {
  const failedAnswers: FailedAnswer[] = [];
  let answers = 0;
  const observe = (request: string, answer: Answer) => {
    answers++;
    if (answer.status === 0 || answer.status >= 500)
      failedAnswers.push({ at: Date.now(), request: request.replace(/\/[a-z]+_[A-Za-z0-9]+/g, '/{id}'), status: answer.status });
  };
  const watcher = watchFulfilments(chain);
  const checkouts: Checkout[] = [];
  let next = 0;
  let paid = 0;
  let hook: Promise<void> | null = null;
  const startedAt = Date.now();
  const buyer = async (customer: ClusterCustomer) => {
    while (next < options.orders) {
      const checkout: Checkout = { index: next++, startedAt: Date.now() };
      checkouts.push(checkout);
      let step = 'order';
      try {
        const amount = String(1 + (checkout.index % 5));
        const order = await customer.placeOrder(amount, `checkout-bench-${options.label}-${checkout.index}`, `0x${randomBytes(20).toString('hex')}`);
        checkout.orderId = order.orderId;
        step = 'payment';
        const payment = await customer.startPayment(order);
        checkout.intentHash = payment.intentHash.toLowerCase();
        checkout.signalledAt = Date.now();
        step = 'pay and prove';
        checkout.paidAt = await customer.pay(payment);
        paid++;
        if (options.atPaid && paid === options.atPaid.count) hook = options.atPaid.act();
        step = 'fulfilled';
        checkout.fulfilledAt = await customer.fulfilled(order, 120_000);
      } catch (error) {
        const message = (error as Error).message;
        // A payment that failed before its signal says why in its errorCode and errorMessage.
        const code = /"errorCode":("[^"]*")/.exec(message)?.[1];
        const why = /"errorMessage":("[^"]*")/.exec(message)?.[1];
        checkout.failed = { step, message: code ? `${message.slice(0, 60)}… errorCode ${code}: ${why}` : message.slice(0, 300) };
      }
    }
  };
  await Promise.all(Array.from({ length: options.customers }, (_, index) => buyer(new ClusterCustomer(world, `${options.label}-buyer-${index}`, observe))));
  const endedAt = Date.now();
  await hook;
  const seen = await watcher.stop();
  for (const checkout of checkouts) if (checkout.intentHash) checkout.minedSeenAt = seen.get(checkout.intentHash);
  return { checkouts, failedAnswers, answers, startedAt, endedAt };
}

/** IntentFulfilled logs as they are mined: the time each intent's first was seen. */
function watchFulfilments(chain: LocalChain): { stop: () => Promise<Map<string, number>> } {
  const seen = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    let from = await chain.publicClient.getBlockNumber();
    for (;;) {
      // One more read after stop: the last fulfilments are mined before their orders read FULFILLED.
      const last = !running;
      const head = await chain.publicClient.getBlockNumber();
      if (head >= from) {
        const logs = await chain.publicClient.getLogs({ address: chain.orchestrator, fromBlock: from, toBlock: head });
        const now = Date.now();
        for (const log of parseEventLogs({ abi: orchestratorAbi, eventName: 'IntentFulfilled', logs })) {
          const hash = log.args.intentHash?.toLowerCase();
          if (hash && !seen.has(hash)) seen.set(hash, now);
        }
        from = head + 1n;
      }
      if (last) return;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return seen;
    },
  };
}
