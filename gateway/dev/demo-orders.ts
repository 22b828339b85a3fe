/**
 * Development only: demo orders for the demo merchant `npm start` opens on a new data
 * folder (deploy/demo-merchant.ts), so the landing page's "Try a checkout" button opens a
 * real checkout without an API key in the browser. The order is made exactly as
 * POST /api/v1/orders makes it for that merchant's live key.
 */
import { merchantKind } from '../../actors/kinds/merchant-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { CheckoutOrder } from '../../machines/order/checkout-order.js';
import { ApiError } from '../envelope.js';
import type { MerchantAccounts } from '../merchants/merchant-accounts.js';
import { createOrder, type CreateOrderDependencies } from '../orders/create-order.js';

/** How the node names the merchant it opens, and how this finds it again after a restart. */
export const DEMO_MERCHANT_NAME = 'Demo merchant';

/** What a demo order costs: a fiat price, so every rail the seeded makers serve is offered. */
const DEMO_PRICE = { requestedFiatAmount: '25.00', requestedFiatCurrency: 'USD' } as const;

export const DEMO_MERCHANT_NOT_FOUND = {
  code: 'DEMO_MERCHANT_NOT_FOUND',
  when: 'the node holds no demo merchant: it is opened on the first start over a new embedded data folder',
} as const;

export interface DemoOrder {
  order: CheckoutOrder;
  orderToken: string;
  /** The order's checkout link on this node: `/?order=<id>&token=<orderToken>`. */
  checkoutPath: string;
}

export class DemoOrders {
  constructor(private readonly deps: CreateOrderDependencies & { system: ActorSystem; accounts: MerchantAccounts }) {}

  async create(): Promise<DemoOrder> {
    // The first live one, should someone have opened another merchant under the same name.
    const found = await this.deps.system
      .views(merchantKind)
      .findOne({ 'view.profile.name': DEMO_MERCHANT_NAME, 'view.environment': 'LIVE' }, { sort: { 'view.profile.createdAt': 1 }, projection: { _id: 1 } });
    const account = found ? await this.deps.accounts.byId(found._id) : null;
    if (!account) throw new ApiError(404, 'No demo merchant on this node', DEMO_MERCHANT_NOT_FOUND.code);
    const result = await createOrder(this.deps, account, { ...DEMO_PRICE });
    // Without an idempotency key every create makes a new order, with its token.
    if (!result.created) throw new Error('a demo order without an idempotency key was answered as a replay');
    const query = new URLSearchParams({ order: result.order.id, token: result.orderToken });
    return { order: result.order, orderToken: result.orderToken, checkoutPath: `/?${query.toString()}` };
  }
}
