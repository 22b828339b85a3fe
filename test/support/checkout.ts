/**
 * The customer's side of a test order: an order placed with a merchant key, and requests
 * to its checkout endpoints with its order token, as the hosted page sends them. Beside
 * it, what the checkout tests share: the domain events the node published, the hosted
 * read, and the figures a sandbox quote must show, derived from the pricing functions
 * and the local rate table rather than written down.
 */
import { erc20Abi } from 'viem';
import type { DomainEvent } from '../../actors/index.js';
import { LocalRateProvider } from '../../actors/adapters/rates/rate-source.js';
import { formatFiat, formatRate, formatUsdc, parseRate, RATE_DECIMALS } from '../../machines/money.js';
import { buyerShareBps, CONVERSION_RATE_DECIMALS, fiatOwed, priceIntent, type FeeSchedule } from '../../machines/payment/pricing.js';
import type { FeePayer } from '../../machines/merchant/index.js';
import type { ApiResponse, TestGateway } from './gateway.js';

export const DESTINATION = '0x2222222222222222222222222222222222222222';

/** The responseObject of an answer that must have `status`; anything else throws with the answer. */
export function answerOf(response: ApiResponse, status: number, what: string): any {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.responseObject;
}

/** The USDC `address` holds on the node's local chain. */
export async function usdcBalance(gateway: TestGateway, address: `0x${string}`): Promise<bigint> {
  const local = gateway.node.chain!.localChain!;
  return local.publicClient.readContract({ address: local.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
}
export const HOUR_MS = 60 * 60 * 1000;

export interface PlacedOrder {
  id: string;
  token: string;
  /** A request to /api/v1/checkout/orders/{id}{path} with the order token. */
  customer(method: string, path: string, body?: unknown): Promise<ApiResponse>;
}

export async function placeOrder(gateway: TestGateway, key: string, body: Record<string, unknown> = { requestedUsdcAmount: '25' }): Promise<PlacedOrder> {
  const created = await gateway.request('POST', '/api/v1/orders', { key, body: { destinationAddress: DESTINATION, ...body } });
  if (created.status !== 201) throw new Error(`order creation failed: ${JSON.stringify(created.body)}`);
  const { order, orderToken } = created.body.responseObject as { order: { id: string }; orderToken: string };
  return {
    id: order.id,
    token: orderToken,
    customer: (method, path, requestBody) =>
      gateway.request(method, `/api/v1/checkout/orders/${order.id}${path}`, { body: requestBody, headers: { authorization: `Bearer ${orderToken}` } }),
  };
}

/** A payment attempt started on `order`; throws unless the create answered 201. */
export async function startPayment(order: PlacedOrder, body: Record<string, unknown> = { rail: 'venmo' }): Promise<any> {
  const created = await order.customer('POST', '/payments', body);
  if (created.status !== 201) throw new Error(`payment creation failed: ${JSON.stringify(created.body)}`);
  return created.body.responseObject;
}

/** A new merchant's sandbox order with its payment started, once the effects they queued are done. */
export async function sandboxPayment(gateway: TestGateway): Promise<{ sandboxKey: string; order: PlacedOrder; payment: any }> {
  const { sandboxKey } = await gateway.createMerchant();
  const order = await placeOrder(gateway, sandboxKey);
  const payment = await startPayment(order);
  await gateway.node.system.effectsIdle();
  return { sandboxKey, order, payment };
}

/** GET /api/v1/orders/{id}: the hosted read's responseObject (order, merchant, currentPayment). */
export async function hostedRead(gateway: TestGateway, orderId: string): Promise<any> {
  const read = await gateway.request('GET', `/api/v1/orders/${orderId}`);
  if (read.status !== 200) throw new Error(`hosted read failed: ${JSON.stringify(read.body)}`);
  return read.body.responseObject;
}

/** The node's clock as the ISO time views carry, `offsetMs` from now. */
export const isoNow = (gateway: TestGateway, offsetMs = 0) => new Date(gateway.clock.now() + offsetMs).toISOString();

/** Moves the test clock on and waits for the timers' and effects' work to be done. */
export async function advance(gateway: TestGateway, ms: number): Promise<void> {
  await gateway.clock.advance(ms);
  await gateway.node.system.effectsIdle();
}

/**
 * Every domain event the node publishes from now on. `of(...actorIds)` waits until the
 * effects are idle and the bus has handed over what they published, then gives those
 * actors' events in publication order; `typesOf` their types.
 */
export async function recordEvents(gateway: TestGateway, durable = `checkout-test-${Math.random().toString(36).slice(2)}`) {
  const events: DomainEvent[] = [];
  await gateway.node.bus.consume({ durable }, async (event) => void events.push(event));
  return {
    events,
    async of(...actorIds: string[]): Promise<DomainEvent[]> {
      await gateway.node.system.effectsIdle();
      // The bus delivers on its own schedule: wait until the count stops moving.
      let seen = -1;
      for (let round = 0; round < 40 && seen !== events.length; round++) {
        seen = events.length;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return events.filter((event) => actorIds.includes(event.actor.id));
    },
    async typesOf(...actorIds: string[]): Promise<string[]> {
      return (await this.of(...actorIds)).map((event) => event.type);
    },
  };
}

const USD_RATE = parseRate('1');
const RATE_SCALE = 10n ** BigInt(CONVERSION_RATE_DECIMALS - RATE_DECIMALS);

/** The sandbox reference rate (fiat per USD, 6 decimals): USD is 1, the rest the local provider's table. */
export function referenceRate(currency: string): bigint {
  if (currency === 'USD') return USD_RATE;
  const rate = LocalRateProvider.DEFAULT_RATES[currency];
  if (rate === undefined) throw new Error(`no local rate for ${currency}`);
  return rate;
}

/**
 * What a sandbox quote shows for `owedUsdc` in `currency`: the intent's release (fees as
 * the fee payer bears them) at the reference rate, rounded up to the cent.
 */
export function expectedQuote(owedUsdc: bigint, currency: string, fees: FeeSchedule, feePayer: FeePayer = 'MERCHANT', buyerFeeShareBps = 0) {
  const price = priceIntent(owedUsdc, fees, buyerShareBps(feePayer, buyerFeeShareBps));
  const rate = referenceRate(currency);
  return {
    price,
    conversionRate: rate * RATE_SCALE,
    displayAmount: formatFiat(fiatOwed(price.releasedUsdc, rate * RATE_SCALE)),
    currencyPerUsdRate: formatRate(rate),
    totalUsdcFeeAmount: formatUsdc(price.totalFeeUsdc),
  };
}
