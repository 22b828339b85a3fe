/**
 * Quotes for an order: for a rail and currency, the deposits that can take the order's
 * intent, best rate first, each priced with the fees and the order's fee payer. A live
 * order is quoted from the liquidity book (the makers' deposits as the indexer tells
 * them) and only on deposits whose payee the directory knows, since the customer must be
 * told whom to pay, and whose floor is within `extremeSpreadBps` of the reference rate
 * (the orderbook's extreme-spread rule), since a floor far off is a maker's mistake: set
 * in the wrong unit, it is the cheapest deposit by far. Without a reference rate no
 * deposit is left out for its price, as the orderbook hides none. A sandbox order touches
 * no chain: it is quoted at the reference rate on a stand-in recipient, so that a sandbox
 * checkout behaves like a live one.
 *
 * A crypto rail is quoted by the conversion provider instead: the request it opens for
 * the USDC owed (the platform's fee an app fee of the delivery) gives the deposit address
 * the customer pays and what they send. A sandbox crypto quote converts one to one at no
 * provider fee, to a stand-in address.
 */
import { ConversionRefused, type ConversionProvider } from '../../actors/payments/index.js';
import type { OrderView } from '../../actors/kinds/order-kind.js';
import type { ErrorCode } from '../../actors/errors/error-codes.js';
import { payableOffers, priceBand, recipientRating, type LiquidityBook, type PayeeDirectory } from '../../actors/market/index.js';
import type { RateSource } from '../../actors/adapters/rates/rate-source.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { NEW_RECIPIENT_RATING } from '../../machines/market/index.js';
import { parseUsdc } from '../../machines/money.js';
import {
  buyerShareBps,
  cryptoCandidate,
  DEFAULT_TOKEN,
  paymentAmountText,
  priceAttempt,
  priceIntent,
  sandboxConversion,
  sandboxFiatQuote,
  type FeeSchedule,
  type PaymentChain,
  type PaymentHex as Hex,
  type PaymentQuote,
  type QuoteCandidate,
  type QuotedConversion,
} from '../../machines/payment/index.js';
import {
  ALL_RAILS,
  CRYPTO_WINDOW_MS,
  cryptoRailChainId,
  isCryptoRail,
  isFiatRail,
  RAIL_CURRENCIES,
  railCurrency,
  railPlatform,
  type CryptoRail,
} from '../../machines/rails.js';
import { liveRecipient } from './live-recipient.js';
import { ApiError, fieldError } from '../envelope.js';

// Named here by the checkout routes, which quote and show the spread.
export { spreadBps, type QuoteCandidate } from '../../machines/payment/index.js';

/** What live crypto attempts are quoted and converted with. */
export interface CryptoSettings {
  provider: ConversionProvider;
  /** The chain and token deliveries are made on and in: the settlement chain's USDC. */
  settlementChainId: number;
  usdc: Hex;
  /** Where the provider pays the platform's fee; null when none is taken. */
  feeRecipient: Hex | null;
}

/** What the node prices and settles payments with. */
export interface PaymentSettings {
  /** Where live payments settle; null on a node that takes sandbox payments only. */
  chain: PaymentChain | null;
  /** The catalog chain the settlement chain pays out on: its own id, or Base for a local chain standing in for it. */
  destinationChainId: string | null;
  fees: FeeSchedule;
  /** A deposit whose floor is further than this from the reference rate, either way, is not quoted (ORDERBOOK_EXTREME_SPREAD_BPS). */
  extremeSpreadBps: bigint;
  windowMs: number;
  /** document 1's `attestation.serviceUrl`: where a customer's client reaches the attestation service. */
  attestationServiceUrl: string;
  /** What live crypto attempts are quoted and converted with; null when this node takes none. */
  crypto: CryptoSettings | null;
  /** Who the chain pays the platform's fee to on a fiat rail (the intents' referrer); null when none is taken. Unset, none is. */
  referrer?: Hex | null;
  /**
   * The platform's bridge wallet on Base: where a live payment of an order delivered on another
   * chain is released, for its bridge to send on (docs/bridges.md); null or unset where this node
   * bridges no live payment, and the create refuses such orders.
   */
  bridgeWallet?: Hex | null;
  /**
   * Why a live payment on a rail cannot be completed now (a side it leans on does not answer,
   * or the node's data belongs to another chain); null when it can. Unset, it always can.
   */
  unavailable?: (rail: 'fiat' | 'crypto') => string | null;
}

export interface QuoteDependencies {
  system: ActorSystem;
  rates: RateSource;
  liquidity: LiquidityBook | null;
  payees: PayeeDirectory | null;
  payments: PaymentSettings;
  now(): string;
}

export interface QuoteRequest {
  rail?: string | undefined;
  currency?: string | undefined;
  paymentMethodId?: string | undefined;
  /** Quotes per rail, the best first. */
  quoteLimit: number;
  excludedPayToValues?: readonly string[] | undefined;
}

/** The probes behind `unavailable` ask every few seconds: a retry sooner would meet the same answer. */
const UNAVAILABLE_RETRY_SECONDS = 5;
/** The provider's refusals that are ours to name: a token it does not take, a chain it does not convert from. */
const PROVIDER_REFUSALS: Readonly<Record<string, ErrorCode>> = { UNSUPPORTED_TOKEN: 'CURRENCY_NOT_SUPPORTED', UNSUPPORTED_CHAIN: 'RAIL_NOT_SUPPORTED' };

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

/** The rails a customer may pick on this order: the rails it enables, fiat first, in the catalog's order. */
export function payableRails(view: OrderView): string[] {
  return ALL_RAILS.filter((rail) => view.order.enabledRails.includes(rail));
}

/** What the customer sends on a quote, as the payment it would start shows it. */
export function displayAmount(candidate: QuoteCandidate): string {
  return paymentAmountText(candidate.paymentAmountCents, candidate.conversion);
}

export class Quoter {
  constructor(private readonly deps: QuoteDependencies) {}

  /** Offers on one rail, the best first; an empty list when no deposit can take the order. */
  async onRail(view: OrderView, rail: string, request: QuoteRequest, preferredCurrency: string | null): Promise<QuoteCandidate[]> {
    this.#enabled(view, rail);
    if (isCryptoRail(rail)) return this.#onCryptoRail(view, rail, request);
    if (!isFiatRail(rail)) throw new ApiError(422, `${rail} is not a rail this node knows`, 'RAIL_NOT_SUPPORTED');
    const fiatRail = rail;
    const paymentMethodId = request.paymentMethodId ?? null;
    const platform = railPlatform(fiatRail, paymentMethodId);
    if (platform === null)
      throw fieldError(
        'paymentMethodId',
        fiatRail === 'zelle' ? 'must be zelle-chase, zelle-bofa or zelle-citi' : `is only for the zelle rail, not ${fiatRail}`,
      );
    const currency = request.currency ?? railCurrency(fiatRail, preferredCurrency);
    if (!RAIL_CURRENCIES[fiatRail].includes(currency)) {
      throw new ApiError(422, `${fiatRail} does not send ${currency}; it sends ${RAIL_CURRENCIES[fiatRail].join(', ')}`, 'CURRENCY_NOT_SUPPORTED');
    }
    const owed = owedUsdc(view);
    const shareBps = buyerShareBps(view.order.feePayer, view.order.buyerFeeShareBps);
    const { fees } = this.deps.payments;
    const referenceRate = await this.deps.rates.currencyPerUsd(currency);
    const excluded = new Set(request.excludedPayToValues ?? []);
    const quotedAt = this.deps.now();
    const candidate = async (quote: Omit<PaymentQuote, 'toAddress'>, payTo: string): Promise<QuoteCandidate> => ({
      rail: fiatRail,
      paymentMethodId,
      platform,
      currency,
      quote,
      ...priceAttempt(owed, fees, shareBps, quote.conversionRate),
      fees,
      conversion: null,
      feeRecipient: null,
      windowMs: this.deps.payments.windowMs,
      quotedAt,
      payTo,
      recipientRating: await recipientRating(this.deps.system, payTo),
      referenceRate,
    });

    if (view.environment === 'SANDBOX') {
      if (referenceRate === null) return [];
      const { quote, payTo } = sandboxFiatQuote(platform, currency, referenceRate);
      if (excluded.has(payTo)) return [];
      return [await candidate(quote, payTo)];
    }

    const { liquidity, payees } = this.deps;
    const chain = this.deps.payments.chain;
    this.#refuseWhileUnavailable('fiat');
    if (!liquidity || !payees || !chain) throw new ApiError(503, 'This node takes sandbox payments only', 'LIVE_PAYMENTS_UNAVAILABLE');
    const released = priceIntent(owed, fees, shareBps).releasedUsdc;
    const band = priceBand(referenceRate, this.deps.payments.extremeSpreadBps);
    const offers = await payableOffers(liquidity, payees, {
      platform,
      currency,
      usdcAmount: released,
      excludedPayTo: excluded,
      band,
      limit: request.quoteLimit,
    });
    const candidates: QuoteCandidate[] = [];
    for (const { offer, payTo } of offers) {
      const quote = {
        processorName: platform,
        depositId: offer.depositId,
        payeeDetails: offer.payeeDetails,
        escrowAddress: chain.escrow,
        fiatCurrencyCode: currency,
        conversionRate: offer.conversionRate,
        sellerAutomatedRelease: offer.sellerAutomatedRelease,
        disputeProtection: offer.disputeProtection,
      };
      candidates.push(await candidate(quote, payTo));
    }
    return candidates;
  }

  #enabled(view: OrderView, rail: string): void {
    if (!view.order.enabledRails.includes(rail)) {
      throw new ApiError(422, `This order does not take ${rail}; it takes ${view.order.enabledRails.join(', ')}`, 'RAIL_NOT_ENABLED');
    }
  }

  /** The provider's quote for the USDC owed, paid in `request.currency` (a token symbol; USDC when absent). */
  async #onCryptoRail(view: OrderView, rail: CryptoRail, request: QuoteRequest): Promise<QuoteCandidate[]> {
    const owed = owedUsdc(view);
    const shareBps = buyerShareBps(view.order.feePayer, view.order.buyerFeeShareBps);
    const crypto = this.deps.payments.crypto;
    const sandbox = view.environment === 'SANDBOX';
    if (!sandbox && !crypto) throw new ApiError(422, `This node has no conversion provider: ${rail} payments are not taken here`, 'RAIL_NOT_SUPPORTED');
    if (!sandbox) this.#refuseWhileUnavailable('crypto');
    const originChainId = cryptoRailChainId(rail);
    const token = request.currency ?? DEFAULT_TOKEN;
    // A live quote is the provider's to refuse: a chain or a token it does not convert (#providerCall names the code).
    if (sandbox && token !== DEFAULT_TOKEN)
      throw new ApiError(422, `${rail} is paid in ${DEFAULT_TOKEN} in the sandbox, not ${token}`, 'CURRENCY_NOT_SUPPORTED');
    // The platform's fee is an app fee of the delivery; no protocol fee, since no intent is involved.
    const fees: FeeSchedule = { protocolFeeBps: 0, platformFeeBps: sandbox || crypto!.feeRecipient ? this.deps.payments.fees.platformFeeBps : 0 };
    const price = priceIntent(owed, fees, shareBps);
    const quotedAt = this.deps.now();
    const expiresAt = new Date(Date.parse(quotedAt) + CRYPTO_WINDOW_MS).toISOString();
    let conversion: QuotedConversion;
    if (sandbox) {
      conversion = sandboxConversion(rail, originChainId, token, price.releasedUsdc);
    } else {
      const quoted = await this.#providerCall(() =>
        crypto!.provider.quote({
          originChainId,
          originToken: token,
          destinationChainId: crypto!.settlementChainId,
          destinationToken: crypto!.usdc,
          recipient: liveRecipient(view.order.destinationChainId, view.order.destinationAddress, this.deps.payments.bridgeWallet ?? null),
          amount: price.releasedUsdc,
          appFees: crypto!.feeRecipient && fees.platformFeeBps > 0 ? [{ recipient: crypto!.feeRecipient, feeBps: fees.platformFeeBps }] : [],
          expiresAt,
        }),
      );
      conversion = {
        requestId: quoted.requestId,
        depositAddress: quoted.depositAddress,
        originChainId,
        originToken: quoted.originToken,
        originTokenAddress: quoted.originTokenAddress,
        originDecimals: quoted.originDecimals,
        originAmount: quoted.originAmount,
      };
    }
    const feeRecipient = crypto?.feeRecipient ?? null;
    // Every request has a deposit address of its own, which nobody has paid yet: nothing to count.
    const rating = NEW_RECIPIENT_RATING;
    return [cryptoCandidate({ rail, conversion, price, fees, feeRecipient, sandbox, quotedAt, recipientRating: rating })];
  }

  /**
   * A customer must not wait on a side that cannot answer: the attempt is refused before it
   * exists. The reason (addresses, chain ids) is the operator's, in the node's log and health
   * check, not the customer's.
   */
  #refuseWhileUnavailable(rail: 'fiat' | 'crypto'): void {
    if (this.deps.payments.unavailable?.(rail)) {
      throw new ApiError(503, 'Payments are unavailable right now; try again shortly', 'LIVE_PAYMENTS_UNAVAILABLE', null, UNAVAILABLE_RETRY_SECONDS);
    }
  }

  /** The provider's refusals are the customer's to change (422); its outage is the node's (503). */
  async #providerCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ConversionRefused) {
        const code = PROVIDER_REFUSALS[error.code] ?? 'CONVERSION_REFUSED';
        throw new ApiError(422, `The conversion provider refused the payment: ${error.message}`, code, null, undefined, { cause: error });
      }
      throw new ApiError(503, 'The conversion provider did not answer; try again shortly', 'CONVERSION_PROVIDER_UNAVAILABLE', null, undefined, {
        cause: error,
      });
    }
  }
}
