/**
 * Quotes for an order: for a rail and currency, the deposits that can take the order's
 * intent, best rate first, each priced with the fees and the order's fee payer. A live
 * order is quoted from the liquidity book (the makers' deposits as the indexer tells
 * them) and only on deposits whose payee the directory knows, since the customer must be
 * told whom to pay. A sandbox order touches no chain: it is quoted at the reference rate
 * on a stand-in recipient, so that a sandbox checkout behaves like a live one.
 */
import { keccak256, toBytes, zeroAddress } from 'viem';
import type { OrderView } from '../../actors/kinds/order-kind.js';
import type { LiquidityBook, PayeeDirectory } from '../../actors/market/index.js';
import type { RateSource } from '../../actors/rates/rate-source.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { parseUsdc, RATE_DECIMALS } from '../../machines/money.js';
import { buyerShareBps, CONVERSION_RATE_DECIMALS, currencyPerUsdRate, priceAttempt, priceIntent, type FeeSchedule, type IntentPrice, type PaymentChain, type PaymentQuote } from '../../machines/payment/index.js';
import { FIAT_RAILS, isFiatRail, RAIL_CURRENCIES, railCurrency, railPlatform, type FiatRail } from '../../machines/rails.js';
import { ApiError, fieldError } from '../envelope.js';
import { recipientRating } from './recipient-rating.js';

/** What the node prices and settles payments with. */
export interface PaymentSettings {
  /** Where live payments settle; null on a node that takes sandbox payments only. */
  chain: PaymentChain | null;
  /** The catalog chain the settlement chain pays out on: its own id, or Base for a local chain standing in for it. */
  destinationChainId: string | null;
  fees: FeeSchedule;
  windowMs: number;
  /** document 1's `attestation.serviceUrl`: where a customer's client reaches the attestation service. */
  attestationServiceUrl: string;
}

export interface QuoteDependencies {
  system: ActorSystem;
  rates: RateSource;
  liquidity: LiquidityBook | null;
  payees: PayeeDirectory | null;
  payments: PaymentSettings;
}

export interface QuoteRequest {
  rail?: string | undefined;
  currency?: string | undefined;
  paymentMethodId?: string | undefined;
  /** Quotes per rail, the best first. */
  quoteLimit: number;
  excludedPayToValues?: readonly string[] | undefined;
}

/** One deposit's offer for the order, priced. */
export interface QuoteCandidate {
  rail: FiatRail;
  paymentMethodId: string | null;
  platform: string;
  currency: string;
  quote: Omit<PaymentQuote, 'toAddress'>;
  price: IntentPrice;
  paymentAmountCents: bigint;
  payTo: string;
  recipientRating: number;
  /** The reference rate (fiat per USD, 6 decimals) the spread is measured against; null when no rate prices the currency. */
  referenceRate: bigint | null;
}

const SANDBOX_DEPOSIT = 'sandbox';
const RATE_SCALE = 10n ** BigInt(CONVERSION_RATE_DECIMALS - RATE_DECIMALS);

/** The USDC still owed, or the AMOUNT_REQUIRED refusal for an open amount nobody set. */
export function owedUsdc(view: OrderView): bigint {
  const remaining = view.order.remainingUsdcAmount;
  if (remaining === null) throw new ApiError(422, 'Set the amount of this open-amount order before paying it', 'AMOUNT_REQUIRED');
  return parseUsdc(remaining);
}

/**
 * The currency the customer is asked in when they name none: the order's own when it has
 * one (an open amount's, a pristine fiat price's), else null, and each rail then quotes in
 * its home currency (quotesQuery documents it so). The merchant's defaultPaymentCurrency is
 * not consulted: the order view does not carry it.
 */
export function orderCurrency(view: OrderView): string | null {
  if (view.order.amountMode === 'OPEN') return view.order.openAmount.currency;
  return view.hosted.requestedFiat?.currency ?? null;
}

/** The rails a customer may pick on this order: the fiat rails it enables, in the catalog's order. */
export function payableRails(view: OrderView): FiatRail[] {
  return FIAT_RAILS.filter((rail) => view.order.enabledRails.includes(rail));
}

export class Quoter {
  constructor(private readonly deps: QuoteDependencies) {}

  /** Offers on one rail, the best first; an empty list when no deposit can take the order. */
  async onRail(view: OrderView, rail: string, request: QuoteRequest, preferredCurrency: string | null): Promise<QuoteCandidate[]> {
    const fiatRail = this.#rail(view, rail);
    const paymentMethodId = request.paymentMethodId ?? null;
    const platform = railPlatform(fiatRail, paymentMethodId);
    if (platform === null) throw fieldError('paymentMethodId', fiatRail === 'zelle' ? 'must be zelle-chase, zelle-bofa or zelle-citi' : `is only for the zelle rail, not ${fiatRail}`);
    const currency = request.currency ?? railCurrency(fiatRail, preferredCurrency);
    if (!RAIL_CURRENCIES[fiatRail].includes(currency)) {
      throw new ApiError(422, `${fiatRail} does not send ${currency}; it sends ${RAIL_CURRENCIES[fiatRail].join(', ')}`, 'CURRENCY_NOT_SUPPORTED');
    }
    const owed = owedUsdc(view);
    const shareBps = buyerShareBps(view.order.feePayer, view.order.buyerFeeShareBps);
    const { fees } = this.deps.payments;
    const referenceRate = await this.deps.rates.currencyPerUsd(currency);
    const excluded = new Set(request.excludedPayToValues ?? []);
    const candidate = async (quote: Omit<PaymentQuote, 'toAddress'>, payTo: string): Promise<QuoteCandidate> => ({
      rail: fiatRail,
      paymentMethodId,
      platform,
      currency,
      quote,
      ...priceAttempt(owed, fees, shareBps, quote.conversionRate),
      payTo,
      recipientRating: await recipientRating(this.deps.system, payTo),
      referenceRate,
    });

    if (view.environment === 'SANDBOX') {
      if (referenceRate === null) return [];
      const payTo = sandboxRecipient(platform);
      if (excluded.has(payTo)) return [];
      const quote = {
        processorName: platform,
        depositId: SANDBOX_DEPOSIT,
        payeeDetails: keccak256(toBytes(payTo)),
        escrowAddress: zeroAddress,
        fiatCurrencyCode: currency,
        conversionRate: referenceRate * RATE_SCALE,
        sellerAutomatedRelease: false,
      };
      return [await candidate(quote, payTo)];
    }

    const { liquidity, payees } = this.deps;
    const chain = this.deps.payments.chain;
    if (!liquidity || !payees || !chain) throw new ApiError(503, 'This node takes sandbox payments only', 'LIVE_PAYMENTS_UNAVAILABLE');
    const released = priceIntent(owed, fees, shareBps).releasedUsdc;
    const offers = await liquidity.offers({ paymentMethod: keccak256(toBytes(platform)), currency: keccak256(toBytes(currency)), usdcAmount: released });
    const candidates: QuoteCandidate[] = [];
    for (const offer of offers) {
      if (candidates.length >= request.quoteLimit) break;
      const payTo = await payees.lookup(platform, offer.payeeDetails);
      if (payTo === null || excluded.has(payTo)) continue;
      const quote = {
        processorName: platform,
        depositId: offer.depositId,
        payeeDetails: offer.payeeDetails,
        escrowAddress: chain.escrow,
        fiatCurrencyCode: currency,
        conversionRate: offer.conversionRate,
        sellerAutomatedRelease: offer.sellerAutomatedRelease,
      };
      candidates.push(await candidate(quote, payTo));
    }
    return candidates;
  }

  #rail(view: OrderView, rail: string): FiatRail {
    if (!view.order.enabledRails.includes(rail)) {
      throw new ApiError(422, `This order does not take ${rail}; it takes ${view.order.enabledRails.join(', ')}`, 'RAIL_NOT_ENABLED');
    }
    if (!isFiatRail(rail)) throw new ApiError(422, `${rail} payments are not taken on this node yet`, 'RAIL_NOT_SUPPORTED');
    return rail;
  }
}

/** A sandbox attempt's stand-in recipient: opaque, and the same for every sandbox payment on the platform. */
export function sandboxRecipient(platform: string): string {
  return `sbx_${keccak256(toBytes(`sandbox:${platform}`)).slice(2, 18)}`;
}

/**
 * How far a deposit's price sits above the reference, in basis points of it: what the
 * customer pays over the market rate. Negative when the maker prices under it.
 */
export function spreadBps(conversionRate: bigint, referenceRate: bigint): bigint {
  return ((currencyPerUsdRate(conversionRate) - referenceRate) * 10_000n) / referenceRate;
}
