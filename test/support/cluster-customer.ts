/**
 * A customer paying a merchant through a cluster's balancer, as the hosted checkout does
 * over HTTP: an order, a payment on a fiat rail once a deposit is quoted, the fiat sent on
 * the platform simulator, the session material sealed to the attestation service and the
 * proof posted ("I've paid"), then the order read until it is FULFILLED. Used by the
 * rolling-restart test and the whole-checkout benchmark; nothing reaches into a node.
 */
import type { Address, Hex } from 'viem';
import { BuyerSimulator, sealForPayment } from './buyer-simulator.js';

export interface CheckoutWorld {
  /** The balancer. */
  url: string;
  merchantKey: string;
  simulatorUrl: string;
  trusted: { measurement: string; signer: Address };
  chainId: number;
}

export interface Answer {
  status: number;
  body: any;
}

/** One request; a network failure is an answer of status 0, so a caller counts it with the other failures. */
export async function send(url: string, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  try {
    const response = await fetch(url + path, {
      method,
      headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  } catch (error) {
    return { status: 0, body: { message: (error as Error).message } };
  }
}

function expect(answer: Answer, status: number, what: string): any {
  if (answer.status !== status) throw new Error(`${what}: answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)}`);
  return answer.body.responseObject;
}

async function poll<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: last ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface PlacedOrder {
  orderId: string;
  token: string;
}

export interface StartedPayment extends PlacedOrder {
  paymentId: string;
  intentHash: Hex;
  payTo: string;
  amount: string;
  currency: string;
  memo: string;
  serviceUrl: string;
}

/** Sees every answer the balancer gives a customer, polls included: a benchmark counts the failed ones. */
export type AnswerObserver = (request: string, answer: Answer) => void;

export class ClusterCustomer {
  readonly #buyer: BuyerSimulator;

  constructor(
    readonly world: CheckoutWorld,
    readonly name: string,
    private readonly observe: AnswerObserver = () => undefined,
  ) {
    this.#buyer = new BuyerSimulator(world.simulatorUrl);
  }

  async #send(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const answer = await send(this.world.url, method, path, options);
    this.observe(`${method} ${path}`, answer);
    return answer;
  }

  /**
   * Orders that pay out to one address on identical terms within one block's second share a gating approval and the second
   * intent reverts (docs/benchmarks.md): concurrent customers give each order a `destinationAddress` of its own.
   */
  async placeOrder(usdc: string, idempotencyKey: string, destinationAddress = '0x2222222222222222222222222222222222222222'): Promise<PlacedOrder> {
    const placed = expect(
      await this.#send('POST', '/api/v1/orders', {
        headers: { 'x-api-key': this.world.merchantKey },
        body: { requestedUsdcAmount: usdc, destinationAddress, idempotencyKey },
      }),
      201,
      'the order',
    );
    return { orderId: placed.order.id, token: placed.orderToken };
  }

  checkout(order: PlacedOrder, method: string, path: string, body?: unknown): Promise<Answer> {
    return this.#send(method, `/api/v1/checkout/orders/${order.orderId}${path}`, {
      headers: { authorization: `Bearer ${order.token}` },
      ...(body === undefined ? {} : { body }),
    });
  }

  /** A payment on Venmo against a quoted deposit, once its intent is signalled on chain. */
  async startPayment(order: PlacedOrder, timeoutMs = 30_000): Promise<StartedPayment> {
    await poll(
      'a deposit to be quoted',
      () => this.checkout(order, 'GET', '/quotes?rail=venmo'),
      (answer) => answer.status === 200 && answer.body.responseObject.platforms.length > 0,
      timeoutMs,
    );
    const created = expect(await this.checkout(order, 'POST', '/payments', { rail: 'venmo' }), 201, 'the payment');
    const signalled = await poll(
      'the intent to be signalled',
      async () => expect(await this.checkout(order, 'GET', `/payments/${created.id}`), 200, 'the payment read'),
      (payment) => {
        if (payment.status === 'FAILED') throw new Error(`the payment failed before its intent was signalled: ${JSON.stringify(payment)}`);
        return payment.railIdentifier !== null;
      },
      timeoutMs,
    );
    return {
      ...order,
      paymentId: created.id,
      intentHash: signalled.railIdentifier,
      payTo: signalled.payTo,
      amount: signalled.paymentAmount,
      currency: signalled.currency,
      memo: signalled.suggestedMemo,
      serviceUrl: signalled.attestation.serviceUrl,
    };
  }

  /** Sends the fiat on the simulator and posts the proof: the moment the customer says "I've paid". Returns when the proof is taken. */
  async pay(payment: StartedPayment): Promise<number> {
    const session = await this.#buyer.signIn('venmo', this.name);
    const sent = await this.#buyer.pay(session, { payee: payment.payTo, amount: payment.amount, currency: payment.currency, note: payment.memo });
    const sealed = await sealForPayment(payment.serviceUrl, this.world.trusted, session, { chainId: this.world.chainId, intentHash: payment.intentHash });
    const paidAt = Date.now();
    expect(
      await this.checkout(payment, 'POST', `/payments/${payment.paymentId}/proof`, { encryptedSessionMaterial: sealed, params: sent.proofParams }),
      202,
      'the proof',
    );
    return paidAt;
  }

  /** Reads the hosted order (the checkout page's read) until it is FULFILLED; the time it was first seen so. */
  async fulfilled(order: PlacedOrder, timeoutMs = 60_000): Promise<number> {
    await poll(
      'the order to be fulfilled',
      () => this.#send('GET', `/api/v1/orders/${order.orderId}`),
      (answer) => answer.status === 200 && answer.body.responseObject.order.status === 'FULFILLED',
      timeoutMs,
      50,
    );
    return Date.now();
  }
}
