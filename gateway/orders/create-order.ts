/**
 * POST /api/v1/orders as a command: the create body (already schema-valid) is checked
 * against the merchant's account by the order's create rules (machines/order), turned
 * into the order machine's input and asked of a new order actor. An idempotency key
 * maps to one order id, so concurrent duplicates meet at one actor; the caller whose
 * token the order holds created it, everyone else gets the replay answer.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { CommandRejectedError } from '../../actors/errors.js';
import type { RateSource } from '../../actors/adapters/rates/rate-source.js';
import { parseFiat, parseUsdc } from '../../machines/money.js';
import { checkTier, resolveDynamicOrders, resolveEnabledRails, type OrderAccount, type RuleResult } from '../../machines/order/create-rules.js';
import { resolveDestination } from '../../machines/order/destination.js';
import { orderKind, type OrderReply } from '../../actors/kinds/order-kind.js';
import type { CheckoutOrder } from '../../machines/order/checkout-order.js';
import type { CreateOrderEvent } from '../../machines/order/order-types.js';
import { normaliseOpenAmount } from '../../machines/order/open-amount.js';
import { fiatPricedAmount, fixedUsdcAmount, openAmountWithin, pricingCurrency, type OrderAmount } from '../../machines/order/order-amount.js';
import { secretHash } from '../auth/secret-hash.js';
import { ApiError, fieldError } from '../envelope.js';
import { derivedId, newId } from '../ids.js';
import { pooledRandomBytes } from '../random-pool.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import type { CreateOrderBody } from './order-schemas.js';
import { requestHash } from './request-hash.js';
import type { PaymentSettings } from '../checkout/quotes.js';
import type { TestClocks } from '../test-clocks/test-clocks.js';
import { positiveMoneyField } from '../validation.js';

export interface CreateOrderDependencies {
  system: ActorSystem;
  rates: RateSource;
  /** Keys order ids derived from idempotency keys. */
  idSecret: string;
  /** The largest order, in USDC base units; a fiat price or an open amount's bounds count at today's rate. */
  orderMaxUsdc: bigint;
  /** The test clock an order names is read through the sandbox-only rules every clock answer follows. */
  clocks: Pick<TestClocks, 'read'>;
  /** Whether live orders may be bridged: the node's bridge wallet (docs/bridges.md). */
  payments?: Pick<PaymentSettings, 'bridgeWallet'>;
  now(): string;
}

export type CreateOrderResult =
  | { created: true; order: CheckoutOrder; orderToken: string }
  | { created: false; order: CheckoutOrder; orderToken: null; idempotentReplay: true };

export async function createOrder(deps: CreateOrderDependencies, account: MerchantAccount, body: CreateOrderBody): Promise<CreateOrderResult> {
  // A replay answers with what the first request made, whatever the account's settings or rates are now.
  const fingerprint = body.idempotencyKey ? requestHash(body) : null;
  if (body.idempotencyKey) {
    const replay = await replayOf(deps, account, body.idempotencyKey, fingerprint);
    if (replay) return replay;
  }
  // Refused before anything else is looked at: a live key never learns which clocks exist.
  const clock = body.testClockId === undefined ? null : await deps.clocks.read(account, body.testClockId);
  // An order on a test clock is created, and priced, at the clock's time.
  const timed: CreateOrderDependencies = clock ? { ...deps, now: () => clock.frozenTime } : deps;
  const { profile } = account;
  const config = profile.merchantConfig;
  const rules = orderAccount(account, Boolean(deps.payments?.bridgeWallet));
  // In the order refusals have always come in: the account, the amount, then the destination and rails.
  allowed(checkTier(rules));
  const { dynamicOrdersEnabled } = allowed(resolveDynamicOrders(body.dynamicOrdersEnabled, body.openAmount !== undefined, rules));
  const amount = await amountOf(timed, body, config.defaultPaymentCurrency);
  const { destinationAddress, destinationToken, destinationChainId } = allowed(resolveDestination(body, rules));
  const { enabledRails } = allowed(resolveEnabledRails(body.enabledRails, rules));

  const orderToken = pooledRandomBytes(32).toString('base64url');
  const orderTokenHash = secretHash(orderToken);
  const id = body.idempotencyKey ? derivedId('ord', deps.idSecret, account.merchantId, account.environment, body.idempotencyKey) : newId('ord');
  const event = {
    type: 'CREATE',
    id,
    merchantId: account.merchantId,
    environment: account.environment,
    ...amount,
    destinationAddress,
    destinationToken,
    destinationChainId,
    feePayer: body.feePayer ?? config.feePayer,
    buyerFeeShareBps: body.buyerFeeShareBps ?? 0,
    enabledRails,
    successUrl: body.successUrl ?? null,
    cancelUrl: body.cancelUrl ?? null,
    notes: body.notes ?? null,
    metadata: null,
    dynamicOrdersEnabled,
    inPersonCheckout: profile.inPersonCheckoutEnabled,
    completionDustThresholdUsdc: parseUsdc(config.completionDustThresholdUsdc),
    referralSplitConfig: config.referralSplitConfig,
    cryptoReferralSplitConfig: config.cryptoReferralSplitConfig,
    orderTokenHash,
    idempotencyKey: body.idempotencyKey ?? null,
    requestHash: fingerprint,
    at: timed.now(),
    ...(clock ? { clockId: clock.id } : {}),
  } satisfies CreateOrderEvent;

  let reply: OrderReply;
  try {
    reply = await deps.system.ask(orderKind, id, event, { messageId: fingerprint ? `create:${fingerprint}` : undefined });
  } catch (error) {
    // ALREADY_EXISTS: a concurrent create with this key won the actor. DUPLICATE: an order holds the key under
    // another id (ids derived with another ID_SECRET, as after a restart without one).
    const lost = error instanceof CommandRejectedError && (error.code === 'ALREADY_EXISTS' || error.code === 'DUPLICATE');
    if (!lost || !body.idempotencyKey) throw error;
    const replay = await replayOf(deps, account, body.idempotencyKey, fingerprint);
    if (!replay) throw error;
    return replay;
  }
  if (reply.orderTokenHash !== orderTokenHash) return { created: false, order: reply.order, orderToken: null, idempotentReplay: true };
  return { created: true, order: reply.order, orderToken };
}

/** `liveBridges`: whether the node bridges live payments (PaymentSettings.bridgeWallet). */
export function orderAccount(account: MerchantAccount, liveBridges: boolean): OrderAccount {
  const { profile } = account;
  return {
    environment: account.environment,
    tier: profile.tier,
    dynamicOrdersEnabled: profile.merchantConfig.dynamicOrdersEnabled,
    enabledRails: profile.merchantConfig.enabledRails,
    evmWalletAddress: profile.evmWalletAddress,
    solanaWalletAddress: profile.solanaWalletAddress,
    liveBridges,
  };
}

/** What a create rule allowed; a refusal becomes its answer: 403 for a missing plan, a coded 400, or a field error. */
export function allowed<T extends object>(result: RuleResult<T>): T {
  if (result.ok) return result;
  switch (result.code) {
    case 'TIER_REQUIRED':
      throw new ApiError(403, result.message, result.code);
    case 'FIELD_REFUSED':
      throw fieldError(result.field, result.message);
    default:
      throw new ApiError(400, result.message, result.code);
  }
}

/** The order this merchant environment created with `idempotencyKey`, as a replay; 422 if it was made by another request. */
async function replayOf(
  deps: CreateOrderDependencies,
  account: MerchantAccount,
  idempotencyKey: string,
  fingerprint: string | null,
): Promise<CreateOrderResult | null> {
  const existing = await deps.system
    .views(orderKind)
    .findOne(
      { 'view.merchantId': account.merchantId, 'view.environment': account.environment, 'view.idempotencyKey': idempotencyKey },
      { projection: { view: 1 } },
    );
  if (!existing) return null;
  const view = existing.view;
  if (view.requestHash !== fingerprint) {
    throw new ApiError(422, 'This idempotencyKey was used for a different request', 'IDEMPOTENCY_KEY_MISMATCH');
  }
  return { created: false, order: view.order, orderToken: null, idempotentReplay: true };
}

async function amountOf(deps: CreateOrderDependencies, body: CreateOrderBody, defaultCurrency: string | null): Promise<OrderAmount> {
  const max = deps.orderMaxUsdc;
  if (body.requestedUsdcAmount !== undefined) {
    const usdc = positiveMoneyField('requestedUsdcAmount', () => parseUsdc(body.requestedUsdcAmount!));
    return allowed(fixedUsdcAmount(usdc, max)).amount;
  }
  if (body.requestedFiatAmount !== undefined) {
    const cents = positiveMoneyField('requestedFiatAmount', () => parseFiat(body.requestedFiatAmount!));
    const { currency } = allowed(pricingCurrency(body.requestedFiatCurrency, defaultCurrency));
    const rate = await deps.rates.currencyPerUsd(currency);
    return allowed(fiatPricedAmount({ cents, currency, rate, maxUsdc: max, pricedAt: deps.now() })).amount;
  }
  // An open amount: resolveDynamicOrders has already refused one the order's dynamic orders do not allow.
  const { config } = allowed(normaliseOpenAmount(body.openAmount!));
  return allowed(openAmountWithin(config, await deps.rates.currencyPerUsd(config.currency), max)).amount;
}
