/**
 * The offers a live fiat attempt can be quoted on: the book's deposits that can take the
 * intent for a platform and currency, best first, each with whom the customer pays. A
 * deposit whose payee the directory does not know is skipped, since the customer must be
 * told whom to pay, and so is one paid to a recipient the customer excluded, and one priced
 * outside the band (deposit-offers.ts, PriceBand).
 */
import { keccak256, toBytes } from 'viem';
import type { DepositOffer, PriceBand } from './deposit-offers.js';
import type { LiquidityBook } from './liquidity-book.js';
import type { PayeeDirectory } from './payee-directory.js';

export interface PayableOfferQuery {
  platform: string;
  currency: string;
  /** USDC base units the intent would lock. */
  usdcAmount: bigint;
  excludedPayTo: ReadonlySet<string>;
  /** Absent when no reference rate prices the currency: then no offer is left out for its price. */
  band?: PriceBand | undefined;
  /** At most this many, the best first. */
  limit: number;
}

export interface PayableOffer {
  offer: DepositOffer;
  payTo: string;
}

export async function payableOffers(liquidity: LiquidityBook, payees: PayeeDirectory, query: PayableOfferQuery): Promise<PayableOffer[]> {
  const { platform, currency, usdcAmount, excludedPayTo, band, limit } = query;
  const offers = await liquidity.offers({
    paymentMethod: keccak256(toBytes(platform)),
    currency: keccak256(toBytes(currency)),
    usdcAmount,
    band,
  });
  const payable: PayableOffer[] = [];
  for (const offer of offers) {
    if (payable.length >= limit) break;
    const payTo = await payees.lookup(platform, offer.payeeDetails);
    if (payTo === null || excludedPayTo.has(payTo)) continue;
    payable.push({ offer, payTo });
  }
  return payable;
}
