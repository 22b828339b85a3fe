/**
 * The hosted read (GET /api/v1/orders/{orderId}): the order as the customer's
 * checkout page shows it, with its merchant's public profile. The page polls it, so
 * the answer is rendered once per order version and served as bytes until something
 * it was built from changes: the order document's version, the merchant account (a
 * changed account is a new object), for an open amount whether a rate prices it
 * now (it decides effectiveMin and effectiveMax), and the current payment's document
 * (kept the same way as the order's: the order hears of a payment's steps only after
 * they are written, so a payment's own write must drop the render), and for a settled
 * payment of a bridged order its bridge's document (bridgeInfo, docs/bridges.md).
 *
 * Never older than the last write a caller can have seen answered (kept-views.ts).
 */
import { bridgeIdOf, bridgeKind } from '../../actors/kinds/bridge-kind.js';
import { orderKind } from '../../actors/kinds/order-kind.js';
import { paymentKind } from '../../actors/kinds/payment-kind.js';
import { hostedPayment } from '../checkout/customer-payments.js';
import type { BridgeView } from '../../actors/kinds/bridge-kind.js';
import type { PaymentBridge } from '../../machines/bridge/index.js';
import { chainById } from '../../machines/catalog/index.js';
import { RateUnavailableError, type RateSource } from '../../actors/adapters/rates/rate-source.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { OpenCheckoutOrder } from '../../machines/order/checkout-order.js';
import type { HostedOrderFields } from '../../machines/order/hosted-fields.js';
import { rendered, type Rendered } from '../envelope.js';
import { KeptViews } from '../kept-views.js';
import type { MerchantAccount, MerchantAccounts } from '../merchants/merchant-accounts.js';
import { hostedOrder } from './order-resources.js';

/** Renders kept at most; past it the oldest leaves (its next read renders it again). */
const CAPACITY = 10_000;

interface Kept {
  merchantId: string;
  /** The account the render shows, or null when it no longer existed. */
  merchant: MerchantAccount | null;
  /** For an open amount, the currency a rate must price for the range to show; null for a fixed amount. */
  pricedCurrency: string | null;
  priced: boolean;
  /** The current payment the render shows; null when the order has none. */
  paymentId: string | null;
  /** The bridge of the settled current payment of a bridged order, which must exist and be kept for the render to stand; null otherwise. */
  bridgeId: string | null;
  answer: Rendered;
}

export class HostedOrders {
  readonly #kept: KeptViews<Kept>;
  /** For each render that shows a payment, the payment's id to the order's: a write of the payment drops the render. */
  readonly #payments: KeptViews<string>;
  /** The same for the bridge a render shows (or waits for). */
  readonly #bridges: KeptViews<string>;

  constructor(
    private readonly system: ActorSystem,
    private readonly accounts: MerchantAccounts,
    private readonly rates: RateSource,
  ) {
    this.#kept = new KeptViews<Kept>(system, 'order', CAPACITY);
    this.#payments = new KeptViews<string>(system, 'payment', CAPACITY, (_paymentId, orderId) => this.#kept.drop(orderId));
    this.#bridges = new KeptViews<string>(system, bridgeKind.name, CAPACITY, (_bridgeId, orderId) => this.#kept.drop(orderId));
  }

  /** The 200 answer for the order, or null when no order in any environment has this id. */
  async answer(orderId: string): Promise<Rendered | null> {
    const kept = await this.#kept.current(orderId);
    if (kept) {
      const merchant = await this.accounts.byId(kept.merchantId);
      const priced = kept.pricedCurrency === null || (await this.#priced(kept.pricedCurrency));
      const paymentCurrent = kept.paymentId === null || (await this.#payments.current(kept.paymentId)) !== undefined;
      const bridgeCurrent = kept.bridgeId === null || (await this.#bridges.current(kept.bridgeId)) !== undefined;
      if (merchant === kept.merchant && priced === kept.priced && paymentCurrent && bridgeCurrent) return kept.answer;
    }
    return this.#render(orderId);
  }

  async #render(orderId: string): Promise<Rendered | null> {
    const read = this.#kept.reading();
    const doc = await this.system.views(orderKind).findOne({ _id: orderId }, { projection: { view: 1, version: 1 } });
    if (!doc) return null;
    const { view } = doc;
    const merchant = await this.accounts.byId(view.merchantId);
    const { hosted } = view;
    // Only an order delivered off Base is bridged: the others' renders read no bridge. Read before the payment: a
    // bridge exists only once its payment settled, so the render never shows a bridge without it.
    const bridged = chainById(view.order.destinationChainId)?.delivery === 'BRIDGE';
    const bridgeRead = this.#bridges.reading();
    const bridgeDoc =
      bridged && view.currentPaymentId
        ? await this.system.views(bridgeKind).findOne({ _id: bridgeIdOf(view.currentPaymentId) }, { projection: { view: 1, version: 1 } })
        : null;
    const bridgeInfo = bridgeDoc ? orderBridgeInfo(bridgeDoc.view) : null;
    const hostedFields = { requestedFiat: hosted.requestedFiat, bridgeInfo, applePayChargeUsdcAmount: hosted.applePayChargeUsdcAmount };
    let pricedCurrency: string | null = null;
    let priced = true;
    let order;
    if (view.order.amountMode === 'OPEN') {
      pricedCurrency = view.order.openAmount.currency;
      priced = await this.#priced(pricedCurrency);
      order = {
        ...view.order,
        ...hostedFields,
        amountLock: hosted.amountLock,
        openAmount: { ...view.order.openAmount, ...effectiveRange(view.order, hosted, priced), savedInput: hosted.savedInput },
      };
    } else {
      order = { ...view.order, ...hostedFields };
    }
    const paymentRead = this.#payments.reading();
    const paymentDoc = view.currentPaymentId
      ? await this.system.views(paymentKind).findOne({ _id: view.currentPaymentId }, { projection: { view: 1, version: 1 } })
      : null;
    const currentPayment = paymentDoc ? hostedPayment(paymentDoc.view) : null;
    const answer = rendered(200, 'Order', hostedOrder, { order, merchant: merchant ? checkoutMerchant(merchant) : null, currentPayment });
    // A payment written while it was read may be older than its document: then the render is answered, not kept.
    const paymentKept = paymentDoc === null || this.#payments.keep(paymentDoc._id, paymentDoc.version, orderId, paymentRead);
    // A settled payment of a bridged order whose bridge is not made yet: answered, not kept, so the next read finds the bridge.
    const awaitsBridge = bridged && bridgeDoc === null && currentPayment?.status === 'SETTLED';
    const bridgeKept = bridgeDoc === null ? !awaitsBridge : this.#bridges.keep(bridgeDoc._id, bridgeDoc.version, orderId, bridgeRead);
    if (paymentKept && bridgeKept)
      this.#kept.keep(
        orderId,
        doc.version,
        { merchantId: view.merchantId, merchant, pricedCurrency, priced, paymentId: paymentDoc?._id ?? null, bridgeId: bridgeDoc?._id ?? null, answer },
        read,
      );
    return answer;
  }

  /** Whether a rate prices `currency` now; a rate source that is down prices nothing, and the page still loads. */
  async #priced(currency: string): Promise<boolean> {
    try {
      return (await this.rates.currencyPerUsd(currency)) !== null;
    } catch (error) {
      if (error instanceof RateUnavailableError) return false;
      throw error;
    }
  }
}

/**
 * The range a customer may type, in the open amount's currency: the merchant's
 * bounds, while the amount can still change and a rate exists to price it; null
 * otherwise, as document 1 says.
 */
function effectiveRange(order: OpenCheckoutOrder, hosted: HostedOrderFields, priced: boolean): { effectiveMin: string | null; effectiveMax: string | null } {
  const closed = hosted.amountLock !== null || order.status === 'FULFILLED' || order.status === 'CANCELLED';
  if (closed || !priced) return { effectiveMin: null, effectiveMax: null };
  return { effectiveMin: order.openAmount.minAmount, effectiveMax: order.openAmount.maxAmount };
}

/** The bridge as the hosted read shows it: its PaymentBridge, without the kind's list fields. */
function orderBridgeInfo(view: BridgeView): PaymentBridge {
  const { merchantId: _merchantId, environment: _environment, ...bridge } = view;
  return bridge;
}

function checkoutMerchant(account: MerchantAccount) {
  const { profile } = account;
  return {
    id: profile.id,
    name: profile.name,
    logoUrl: profile.logoUrl,
    environment: profile.environment,
    disableBranding: account.branding.disableBranding,
    checkoutTheme: account.branding.checkoutTheme,
    defaultPaymentCurrency: profile.merchantConfig.defaultPaymentCurrency,
    // A merchant counts as verified once it is on a plan: that is when live orders open to it.
    verified: profile.tier !== null,
  };
}
