/**
 * The arithmetic of a quote, apart from what it reads: a sandbox attempt's stand-in
 * recipient and its quote at the reference rate, a crypto attempt's quote from the
 * conversion it was given, and how far a deposit's price sits above the reference.
 */
import { keccak256, toBytes, zeroAddress } from 'viem';
import { RATE_DECIMALS, USDC_DECIMALS } from '../money.js';
import { CRYPTO_WINDOW_MS } from '../rails.js';
import type { CryptoConversion, Hex, PaymentQuote } from './payment-types.js';
import { CONVERSION_RATE_DECIMALS, currencyPerUsdRate, type FeeSchedule, type IntentPrice } from './pricing.js';

/** One deposit's offer for the order (or, on a crypto rail, the provider's), priced. */
export interface QuoteCandidate {
  rail: string;
  paymentMethodId: string | null;
  platform: string;
  currency: string;
  quote: Omit<PaymentQuote, 'toAddress'>;
  price: IntentPrice;
  /** The fees the price was computed with: the node's on fiat rails, the platform's alone on crypto rails. */
  fees: FeeSchedule;
  /** Fiat rails: what the customer sends, in cents of `currency`. */
  paymentAmountCents: bigint;
  /** Crypto rails: the provider's request and what the customer sends in the token; null on fiat rails. */
  conversion: QuotedConversion | null;
  /** Crypto rails: whom the provider pays the platform's fee. */
  feeRecipient: Hex | null;
  /** How long the customer has to pay. */
  windowMs: number;
  /** When the quote was made: a crypto request expires a window after it. */
  quotedAt: string;
  payTo: string;
  recipientRating: number;
  /** The reference rate (fiat per USD, 6 decimals) the spread is measured against; null when no rate prices the currency. */
  referenceRate: bigint | null;
}

/** A crypto attempt's conversion as quoted, before the order's recipient and the fee's are added. */
export type QuotedConversion = Omit<CryptoConversion, 'recipient' | 'feeRecipient'>;

/** What a crypto attempt is paid in when the customer names no token; the only one a sandbox attempt takes, since nothing moves. */
export const DEFAULT_TOKEN = 'USDC';
const SANDBOX_DEPOSIT = 'sandbox';
const STABLECOINS = new Set(['USDC', 'USDT', 'PYUSD', 'USDH']);
const RATE_SCALE = 10n ** BigInt(CONVERSION_RATE_DECIMALS - RATE_DECIMALS);

/** A sandbox attempt's stand-in recipient: opaque, and the same for every sandbox payment on the platform. */
export function sandboxRecipient(platform: string): string {
  return `sbx_${keccak256(toBytes(`sandbox:${platform}`)).slice(2, 18)}`;
}

/** A sandbox fiat attempt's quote: the reference rate, on the platform's stand-in recipient. */
export function sandboxFiatQuote(platform: string, currency: string, referenceRate: bigint): { quote: Omit<PaymentQuote, 'toAddress'>; payTo: string } {
  const payTo = sandboxRecipient(platform);
  const quote = {
    processorName: platform,
    depositId: SANDBOX_DEPOSIT,
    payeeDetails: keccak256(toBytes(payTo)),
    escrowAddress: zeroAddress,
    fiatCurrencyCode: currency,
    conversionRate: referenceRate * RATE_SCALE,
    sellerAutomatedRelease: false,
  };
  return { quote, payTo };
}

/** A sandbox crypto attempt converts one to one at no provider fee, to the rail's stand-in address. */
export function sandboxConversion(rail: string, originChainId: number, token: string, releasedUsdc: bigint): QuotedConversion {
  return {
    requestId: 'sandbox',
    depositAddress: sandboxRecipient(rail),
    originChainId,
    originToken: token,
    originTokenAddress: zeroAddress,
    originDecimals: USDC_DECIMALS,
    originAmount: releasedUsdc,
  };
}

export interface CryptoQuote {
  rail: string;
  conversion: QuotedConversion;
  price: IntentPrice;
  fees: FeeSchedule;
  /** Null on a sandbox attempt, which pays no fee out. */
  feeRecipient: Hex | null;
  sandbox: boolean;
  quotedAt: string;
  recipientRating: number;
}

/** A crypto attempt's quote: the customer pays the conversion's deposit address what it asks, within the crypto window. */
export function cryptoCandidate({ rail, conversion, price, fees, feeRecipient, sandbox, quotedAt, recipientRating }: CryptoQuote): QuoteCandidate {
  const payTo = conversion.depositAddress;
  // The token paid per USDC delivered, 18 decimals, as a deposit's rate is written.
  const conversionRate = (conversion.originAmount * 10n ** BigInt(CONVERSION_RATE_DECIMALS + USDC_DECIMALS - conversion.originDecimals)) / price.releasedUsdc;
  return {
    rail,
    paymentMethodId: null,
    platform: rail,
    currency: conversion.originToken,
    quote: {
      processorName: rail,
      depositId: conversion.requestId,
      payeeDetails: keccak256(toBytes(payTo)),
      escrowAddress: sandbox ? zeroAddress : (conversion.depositAddress as Hex),
      fiatCurrencyCode: conversion.originToken,
      conversionRate,
      sellerAutomatedRelease: false,
    },
    price,
    fees,
    paymentAmountCents: 0n,
    conversion,
    feeRecipient: sandbox ? null : feeRecipient,
    windowMs: CRYPTO_WINDOW_MS,
    quotedAt,
    payTo,
    recipientRating,
    // A stablecoin is priced against one US dollar.
    referenceRate: STABLECOINS.has(conversion.originToken) ? 10n ** BigInt(RATE_DECIMALS) : null,
  };
}

/**
 * How far a deposit's price sits above the reference, in basis points of it: what the
 * customer pays over the market rate. Negative when the maker prices under it.
 */
export function spreadBps(conversionRate: bigint, referenceRate: bigint): bigint {
  return ((currencyPerUsdRate(conversionRate) - referenceRate) * 10_000n) / referenceRate;
}
