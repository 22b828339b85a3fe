/**
 * The start every kill test of a live fiat payment shares: an order placed on the first node
 * and its customer's Venmo attempt on the world's deposit, with the customer's calls (bearer the
 * order token) kept for the rest of the test, on whichever node serves it.
 */
import { call, ok, until } from './http-polls.js';

export async function placeVenmoAttempt(url: string, apiKey: string, body: Record<string, unknown>) {
  const placed = ok(await call(url, 'POST', '/api/v1/orders', { headers: { 'x-api-key': apiKey }, body }), 201, 'the order');
  const orderId: string = placed.order.id;
  const customer = (nodeUrl: string, method: string, path: string, payload?: unknown) =>
    call(nodeUrl, method, `/api/v1/checkout/orders/${orderId}${path}`, {
      headers: { authorization: `Bearer ${placed.orderToken}` },
      ...(payload === undefined ? {} : { body: payload }),
    });
  await until(
    'the deposit to be quoted',
    () => customer(url, 'GET', '/quotes?rail=venmo'),
    (answer) => answer.status === 200 && answer.body.responseObject.platforms.length > 0,
  );
  const created = ok(await customer(url, 'POST', '/payments', { rail: 'venmo' }), 201, 'the payment');
  return { orderId, customer, created, paymentId: created.id as string };
}
