/**
 * Steady traffic through the balancer while a test does something to the nodes behind
 * it: merchants creating orders (each with an idempotency key of its own) and customers
 * reading their hosted orders, a few at a time, until stopped. Every request is counted;
 * any answer but the expected one (a network error, a 5xx, a refusal) is kept as a
 * failure with what it was, when, and what the node said.
 */
import { randomUUID } from 'node:crypto';
import { send, type CheckoutWorld, type PlacedOrder } from '../support/cluster-customer.js';

export interface Failure {
  at: number;
  request: string;
  status: number;
  body: unknown;
}

export class SteadyLoad {
  readonly created: PlacedOrder[] = [];
  readonly failures: Failure[] = [];
  requests = 0;
  #running = true;
  #loops: Promise<void>[] = [];

  constructor(private readonly world: CheckoutWorld) {}

  start(creators: number, readers: number): void {
    for (let index = 0; index < creators; index++) this.#loops.push(this.#creator());
    for (let index = 0; index < readers; index++) this.#loops.push(this.#reader());
  }

  async stop(): Promise<void> {
    this.#running = false;
    await Promise.all(this.#loops);
  }

  async #creator(): Promise<void> {
    while (this.#running) {
      const key = randomUUID();
      const answer = await this.#count(
        'POST /api/v1/orders',
        send(this.world.url, 'POST', '/api/v1/orders', {
          headers: { 'x-api-key': this.world.merchantKey },
          body: { requestedUsdcAmount: '10', destinationAddress: '0x2222222222222222222222222222222222222222', idempotencyKey: key },
        }),
        201,
      );
      if (answer) this.created.push({ orderId: answer.order.id, token: answer.orderToken });
    }
  }

  async #reader(): Promise<void> {
    while (this.#running) {
      const order = this.created[Math.floor(Math.random() * this.created.length)];
      if (!order) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      await this.#count('GET /api/v1/orders/{id}', send(this.world.url, 'GET', `/api/v1/orders/${order.orderId}`), 200);
    }
  }

  async #count(request: string, sent: Promise<{ status: number; body: any }>, expected: number): Promise<any> {
    const answer = await sent;
    this.requests++;
    if (answer.status === expected) return answer.body.responseObject;
    this.failures.push({ at: Date.now(), request, status: answer.status, body: answer.body });
    return null;
  }
}
