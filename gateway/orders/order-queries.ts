/**
 * The order reads: the merchant's list and the hosted read. Both query the order
 * actors' views; neither wakes an actor.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { RateSource } from '../../actors/rates/rate-source.js';
import type { Filter } from '../../actors/store/store.js';
import type { MerchantAccount, MerchantAccounts } from '../merchants/merchant-accounts.js';
import type { z } from 'zod';
import type { listOrdersQuery } from '../schemas/order-schemas.js';

type ListQuery = z.infer<typeof listOrdersQuery>;

/** What the order kind keeps in its view (actors/kinds/order-kind.ts). */
interface OrderView {
  order: Record<string, unknown> & { status: string; amountMode: string; openAmount?: Record<string, unknown> };
  hosted: { requestedFiat: unknown; amountLock: string | null; bridgeInfo: unknown; applePayChargeUsdcAmount: string | null; savedInput: unknown };
  merchantId: string;
  hasActivePayment: boolean;
  hasExpiredPayment: boolean;
  paymentSelectedRail: string | null;
}

const MIN_SEARCH = 3;

export async function listOrders(system: ActorSystem, account: MerchantAccount, query: ListQuery) {
  const filter: Filter = { 'view.merchantId': account.merchantId, 'view.environment': account.environment };
  const search = query.search?.trim();
  if (search && search.length >= MIN_SEARCH) filter['view.searchText'] = { $regex: escapeRegex(search.toLowerCase()) };
  else if (query.orderId) filter._id = { $regex: escapeRegex(query.orderId), $options: 'i' };
  if (query.displayStatus) {
    filter['view.status'] = 'CREATED';
    filter['view.hasActivePayment'] = query.displayStatus === 'ACTIVE';
    if (query.displayStatus !== 'ACTIVE') filter['view.hasExpiredPayment'] = query.displayStatus === 'EXPIRED';
  } else if (query.status) {
    filter['view.status'] = query.status;
  }
  if (query.chargebackStatus) filter['view.chargebackStatus'] = query.chargebackStatus;

  const orders = system.documents('order');
  const [docs, total] = await Promise.all([
    orders.find(filter, { sort: { 'view.createdAt': -1, _id: -1 }, skip: (query.page - 1) * query.limit, limit: query.limit, projection: { view: 1 } }),
    orders.count(filter),
  ]);
  return {
    orders: docs.map((doc) => {
      const view = doc.view as unknown as OrderView;
      return { ...view.order, hasActivePayment: view.hasActivePayment, hasExpiredPayment: view.hasExpiredPayment, paymentSelectedRail: view.paymentSelectedRail };
    }),
    total,
    page: query.page,
    limit: query.limit,
  };
}

/** HostedOrder, or null when no order in any environment has this id. */
export async function hostedOrder(system: ActorSystem, accounts: MerchantAccounts, rates: RateSource, orderId: string) {
  const doc = await system.documents('order').findOne({ _id: orderId }, { projection: { view: 1 } });
  if (!doc) return null;
  const view = doc.view as unknown as OrderView;
  const merchant = await accounts.byId(view.merchantId);
  const order: Record<string, unknown> = {
    ...view.order,
    requestedFiat: view.hosted.requestedFiat,
    bridgeInfo: view.hosted.bridgeInfo,
    applePayChargeUsdcAmount: view.hosted.applePayChargeUsdcAmount,
  };
  if (view.order.amountMode === 'OPEN' && view.order.openAmount) {
    order.amountLock = view.hosted.amountLock;
    order.openAmount = { ...view.order.openAmount, ...(await effectiveRange(rates, view)), savedInput: view.hosted.savedInput };
  }
  return { order, merchant: merchant ? checkoutMerchant(merchant) : null, currentPayment: null };
}

/**
 * The range a customer may type, in the open amount's currency: the merchant's
 * bounds, while the amount can still change and a rate exists to price it; null
 * otherwise, as document 1 says.
 */
async function effectiveRange(rates: RateSource, view: OrderView): Promise<{ effectiveMin: string | null; effectiveMax: string | null }> {
  const open = view.order.openAmount as { currency: string; minAmount: string | null; maxAmount: string | null };
  const closed = view.hosted.amountLock !== null || view.order.status === 'FULFILLED' || view.order.status === 'CANCELLED';
  if (closed || (await rates.currencyPerUsd(open.currency)) === null) return { effectiveMin: null, effectiveMax: null };
  return { effectiveMin: open.minAmount, effectiveMax: open.maxAmount };
}

function checkoutMerchant(account: MerchantAccount) {
  const { profile } = account;
  return {
    id: profile.id,
    name: profile.name,
    logoUrl: profile.logoUrl,
    environment: profile.environment,
    disableBranding: false,
    checkoutTheme: null,
    defaultPaymentCurrency: profile.merchantConfig.defaultPaymentCurrency,
    // A merchant counts as verified once it is on a plan: that is when live orders open to it.
    verified: profile.tier !== null,
  };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
