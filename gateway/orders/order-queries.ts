/**
 * The order reads: the merchant's list and the hosted read. Both query the order
 * actors' views; neither wakes an actor.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { RateUnavailableError, type RateSource } from '../../actors/rates/rate-source.js';
import type { OrderView } from '../../actors/kinds/order-kind.js';
import type { OpenCheckoutOrder } from '../../machines/order/checkout-order.js';
import type { HostedOrderFields } from '../../machines/order/hosted-fields.js';
import type { Filter } from '../../actors/store/store.js';
import type { MerchantAccount, MerchantAccounts } from '../merchants/merchant-accounts.js';
import type { z } from 'zod';
import type { listOrdersQuery } from '../schemas/order-schemas.js';
import type { hostedOrder as hostedOrderResource } from '../schemas/order-resources.js';
import { escapeRegex, searchFilter } from './order-search.js';

type ListQuery = z.infer<typeof listOrdersQuery>;
type HostedCheckoutOrder = z.input<typeof hostedOrderResource>['order'];


const MIN_SEARCH = 3;

export async function listOrders(system: ActorSystem, account: MerchantAccount, query: ListQuery) {
  const filter: Filter = { 'view.merchantId': account.merchantId, 'view.environment': account.environment };
  const search = query.search?.trim();
  if (search && search.length >= MIN_SEARCH) Object.assign(filter, searchFilter(search));
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
  const { hosted } = view;
  const hostedFields = { requestedFiat: hosted.requestedFiat, bridgeInfo: hosted.bridgeInfo, applePayChargeUsdcAmount: hosted.applePayChargeUsdcAmount };
  const order: HostedCheckoutOrder =
    view.order.amountMode === 'OPEN'
      ? {
          ...view.order,
          ...hostedFields,
          amountLock: hosted.amountLock,
          openAmount: { ...view.order.openAmount, ...(await effectiveRange(rates, view.order, hosted)), savedInput: hosted.savedInput },
        }
      : { ...view.order, ...hostedFields };
  return { order, merchant: merchant ? checkoutMerchant(merchant) : null, currentPayment: null };
}

/**
 * The range a customer may type, in the open amount's currency: the merchant's
 * bounds, while the amount can still change and a rate exists to price it; null
 * otherwise, as document 1 says.
 */
async function effectiveRange(rates: RateSource, order: OpenCheckoutOrder, hosted: HostedOrderFields): Promise<{ effectiveMin: string | null; effectiveMax: string | null }> {
  const open = order.openAmount;
  const closed = hosted.amountLock !== null || order.status === 'FULFILLED' || order.status === 'CANCELLED';
  if (closed || !(await priced(rates, open.currency))) return { effectiveMin: null, effectiveMax: null };
  return { effectiveMin: open.minAmount, effectiveMax: open.maxAmount };
}

/** Whether a rate prices `currency` now; a rate source that is down prices nothing, and the page still loads. */
async function priced(rates: RateSource, currency: string): Promise<boolean> {
  try {
    return (await rates.currencyPerUsd(currency)) !== null;
  } catch (error) {
    if (error instanceof RateUnavailableError) return false;
    throw error;
  }
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
