/**
 * The merchant resizes a FIXED order (docs/resize.md). The order decides whether it may
 * (machines/order/resize.ts) in the turn that resizes it, so nothing read here can be
 * stale by the time it counts; this only checks the body, finds the order of this
 * merchant and environment, and tells a repeated request from a new one.
 *
 * Idempotency as the order create's: `idempotencyKey` names the resize. The same key and
 * amount answer the resize as it was taken (idempotentReplay true) and change nothing;
 * the same key with another amount is a 422 IDEMPOTENCY_KEY_MISMATCH. The order keeps the
 * keys, so two requests with one key at once resize once.
 */
import { orderKind, type OrderView } from '../../actors/kinds/order-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { formatUsdc, parseUsdc } from '../../machines/money.js';
import type { CheckoutOrder } from '../../machines/order/index.js';
import { merchantOrder } from '../checkout/order-access.js';
import { ApiError, fieldError } from '../envelope.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import { positiveMoneyField } from '../validation.js';

export interface ResizeDependencies {
  system: ActorSystem;
  orderMaxUsdc: bigint;
  now(): string;
}

interface ResizeResult {
  order: CheckoutOrder;
  resize: { previousAmountUsdc: string; newAmountUsdc: string };
  idempotentReplay: boolean;
}

export async function resizeOrder(
  deps: ResizeDependencies,
  account: MerchantAccount,
  orderId: string,
  body: { requestedUsdcAmount: string; idempotencyKey: string },
): Promise<ResizeResult> {
  const usdcAmount = positiveMoneyField('requestedUsdcAmount', () => parseUsdc(body.requestedUsdcAmount));
  if (usdcAmount > deps.orderMaxUsdc) throw fieldError('requestedUsdcAmount', `must be at most ${formatUsdc(deps.orderMaxUsdc)} USDC`);
  const before = await merchantOrder(deps.system, account, orderId);
  const replay = answered(before, body.idempotencyKey, usdcAmount, true);
  if (replay) return replay;
  // Refused by the order with RESIZE_NOT_SUPPORTED and its reason; a key it took meanwhile is acknowledged.
  await deps.system.ask(orderKind, orderId, { type: 'RESIZE', usdcAmount, idempotencyKey: body.idempotencyKey, at: deps.now() });
  const after = answered(await merchantOrder(deps.system, account, orderId), body.idempotencyKey, usdcAmount, false);
  if (!after) throw new Error(`order ${orderId} took resize ${body.idempotencyKey} but does not show it`);
  return after;
}

/** The resize the key names, as the order took it, or null when the order took none under it. */
function answered(view: OrderView, idempotencyKey: string, usdcAmount: bigint, idempotentReplay: boolean): ResizeResult | null {
  const taken = view.resizes.find((resize) => resize.idempotencyKey === idempotencyKey);
  if (!taken) return null;
  if (taken.newAmountUsdc !== formatUsdc(usdcAmount))
    throw new ApiError(422, 'This idempotencyKey resized the order to another amount', 'IDEMPOTENCY_KEY_MISMATCH');
  return { order: view.order, resize: { previousAmountUsdc: taken.previousAmountUsdc, newAmountUsdc: taken.newAmountUsdc }, idempotentReplay };
}
