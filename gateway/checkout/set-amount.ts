/**
 * The customer sets the amount of an open-amount order (document 1's ORDER_AMOUNT_SET),
 * in the open amount's currency, inside the merchant's bounds and the node's order limit,
 * converted to USDC at today's rate. `amountVersion`, when sent, makes the write
 * conditional: a page that saw an older amount gets AMOUNT_CONFLICT instead of writing
 * over a change it never showed. The order itself decides that, in the turn that writes
 * (machines/order/amount-conflict.ts): the view read here may be old by the time the
 * message arrives. It also refuses a fixed amount (AMOUNT_NOT_ALLOWED) and a locked one
 * (AMOUNT_LOCKED).
 */
import { orderKind, type OrderView } from '../../actors/kinds/order-kind.js';
import type { RateSource } from '../../actors/adapters/rates/rate-source.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { fiatToUsdc, formatFiat, formatUsdc, parseFiat } from '../../machines/money.js';
import { ApiError, fieldError } from '../envelope.js';
import { moneyField } from '../validation.js';

export interface SetAmountDependencies {
  system: ActorSystem;
  rates: RateSource;
  orderMaxUsdc: bigint;
  now(): string;
}

export interface SetAmountRequest {
  amount: string;
  currency?: string | undefined;
  amountVersion?: number | undefined;
}

export async function setOrderAmount(deps: SetAmountDependencies, view: OrderView, request: SetAmountRequest): Promise<void> {
  const { order } = view;
  if (order.amountMode !== 'OPEN')
    throw new ApiError(409, `Order ${order.id} has a fixed amount; only an open amount is set by the customer`, 'AMOUNT_NOT_ALLOWED');
  const { openAmount } = order;
  if (request.currency !== undefined && request.currency !== openAmount.currency)
    throw fieldError('currency', `this order takes amounts in ${openAmount.currency}`);
  const cents = moneyField('amount', () => parseFiat(request.amount));
  const min = openAmount.minAmount === null ? 1n : parseFiat(openAmount.minAmount);
  const max = openAmount.maxAmount === null ? null : parseFiat(openAmount.maxAmount);
  if (cents < min || (max !== null && cents > max)) throw outOfRange(openAmount.currency, formatFiat(min), max === null ? null : formatFiat(max));
  const rate = await deps.rates.currencyPerUsd(openAmount.currency);
  if (rate === null) throw new ApiError(422, `No exchange rate prices ${openAmount.currency} now`, 'CURRENCY_NOT_SUPPORTED');
  const usdcAmount = fiatToUsdc(cents, rate);
  if (usdcAmount <= 0n || usdcAmount > deps.orderMaxUsdc) {
    throw new ApiError(
      422,
      `${formatFiat(cents)} ${openAmount.currency} is over this node’s order limit of ${formatUsdc(deps.orderMaxUsdc)} USDC`,
      'AMOUNT_OUT_OF_RANGE',
    );
  }
  await deps.system.ask(orderKind, order.id, {
    type: 'SET_AMOUNT',
    usdcAmount,
    fiat: { amount: formatFiat(cents), currency: openAmount.currency },
    amountVersion: request.amountVersion,
    at: deps.now(),
  });
}

function outOfRange(currency: string, min: string, max: string | null): ApiError {
  const range = max === null ? `at least ${min} ${currency}` : `between ${min} and ${max} ${currency}`;
  return new ApiError(422, `The amount must be ${range}`, 'AMOUNT_OUT_OF_RANGE', { minAmount: min, maxAmount: max });
}
