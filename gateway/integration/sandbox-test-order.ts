/**
 * POST /api/v1/sandbox/test-order: a sandbox order paid through the simulator, so a
 * merchant can watch a whole checkout reach its endpoint (ORDER_CREATED,
 * PAYMENT_CREATED, PAYMENT_SETTLED, ORDER_FULFILLED) without a customer. It goes through
 * the same create-order and create-payment code as a real checkout; only the payment
 * is simulated, as every sandbox payment is.
 */
import { orderKind, type OrderView } from '../../actors/kinds/order-kind.js';
import { paymentKind } from '../../actors/kinds/payment-kind.js';
import { createPayment, type CreatePaymentDependencies } from '../checkout/create-payment.js';
import { ApiError } from '../envelope.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import { createOrder, type CreateOrderDependencies } from '../orders/create-order.js';
import { createOrderBody } from '../orders/order-schemas.js';
import { parseOrThrow } from '../validation.js';

export type SandboxTestOrderDependencies = CreateOrderDependencies & CreatePaymentDependencies;

/**
 * Where a test order delivers when neither the request nor the sandbox account names a
 * wallet: nothing is delivered in the sandbox, and a test order should not wait on
 * setting one up. The burn address, so it reads as nobody's.
 */
export const SANDBOX_PLACEHOLDER_DESTINATION = '0x000000000000000000000000000000000000dEaD';

/** How long the answer waits for the order to read FULFILLED after the simulated settlement. */
const FULFIL_WAIT_MS = 5_000;
const POLL_MS = 20;

export async function sandboxTestOrder(
  deps: SandboxTestOrderDependencies,
  account: MerchantAccount,
  body: { requestedUsdcAmount: string; rail?: string | undefined; destinationAddress?: string | undefined },
) {
  if (account.environment !== 'SANDBOX') throw new ApiError(403, 'Test orders are for a sandbox key; this is a live key', 'SANDBOX_ONLY');
  const { evmWalletAddress, solanaWalletAddress } = account.profile;
  const fallback = evmWalletAddress || solanaWalletAddress ? {} : { destinationAddress: SANDBOX_PLACEHOLDER_DESTINATION };
  const request = parseOrThrow(createOrderBody, {
    requestedUsdcAmount: body.requestedUsdcAmount,
    ...(body.destinationAddress ? { destinationAddress: body.destinationAddress } : fallback),
    notes: { sandboxTestOrder: true },
  });
  const created = await createOrder(deps, account, request);
  const view = await orderView(deps, created.order.id);
  const rail = body.rail ?? view.order.enabledRails[0];
  if (!rail) throw new ApiError(422, 'The account has no rail enabled to pay the test order on', 'RAIL_NOT_SUPPORTED');
  // A test order is never created on a test clock.
  const payment = await createPayment(deps, view, { rail }, undefined);
  const settled = await deps.system.ask(paymentKind, payment.payment.id, { type: 'SIMULATE_PAYMENT', at: deps.now() });
  const deadline = Date.now() + FULFIL_WAIT_MS;
  let order = await orderView(deps, created.order.id);
  while (order.order.status !== 'FULFILLED' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    order = await orderView(deps, created.order.id);
  }
  return { order: order.order, payment: settled.payment };
}

async function orderView(deps: SandboxTestOrderDependencies, orderId: string): Promise<OrderView> {
  const doc = await deps.system.views(orderKind).findOne({ _id: orderId }, { projection: { view: 1 } });
  return doc!.view;
}
