/**
 * The reads an orderbook snapshot is made of: the book's open deposits, the sellers'
 * credentials, the maker records and the reference rate of each currency the deposits
 * price, made into rows and a snapshot by the pure rules of machines/market.
 */
import type { MakerRecord } from '../../machines/maker/index.js';
import { currencyOfHash } from '../../machines/market/market-names.js';
import { snapshotOf, type OrderbookSnapshot } from '../../machines/market/orderbook-query.js';
import { orderbookRows, type SellerCredential } from '../../machines/market/orderbook-rows.js';
import { RateUnavailableError, type RateSource } from '../adapters/rates/rate-source.js';
import type { LiquidityBook } from './liquidity-book.js';

export interface OrderbookSources {
  liquidity: Pick<LiquidityBook, 'openDeposits'>;
  rates: RateSource;
  /** The payees whose sellers keep a credential with the attestation service, by `<platform>:<payeeDetails>`. */
  sellerCredentials(): Promise<ReadonlyMap<string, SellerCredential>>;
  /** The maker records by `<processorName>:<hashedOnchainId>`. */
  makers(): Promise<ReadonlyMap<string, MakerRecord>>;
}

export interface OrderbookScope {
  /** The chain and token the book's deposits are reported under. */
  chainId: number;
  token: string;
  escrow: string;
  feeBps: number;
}

/** The orderbook as of `builtAt` (milliseconds since the epoch). */
export async function readOrderbookSnapshot(sources: OrderbookSources, scope: OrderbookScope, builtAt: number): Promise<OrderbookSnapshot> {
  const [deposits, credentials, makers] = await Promise.all([sources.liquidity.openDeposits(), sources.sellerCredentials(), sources.makers()]);
  const rows = orderbookRows(deposits, {
    ...scope,
    referenceRates: await referenceRates(
      sources.rates,
      deposits.flatMap((deposit) => deposit.methods.flatMap((method) => method.currencies.map((priced) => priced.currency))),
    ),
    credentials,
    makers,
    now: Math.floor(builtAt / 1000),
  });
  return snapshotOf(rows, {
    generatedAt: new Date(builtAt).toISOString(),
    chainId: scope.chainId,
    token: scope.token,
    depositCount: deposits.length,
  });
}

/** The reference rate of each currency the deposits price; a currency the source cannot price now has none, and its rows no spread. */
async function referenceRates(rates: RateSource, currencyHashes: string[]): Promise<Map<string, bigint>> {
  const codes = [...new Set(currencyHashes.map((hash) => currencyOfHash(hash)).filter((code): code is string => code !== null))];
  const found = new Map<string, bigint>();
  await Promise.all(
    codes.map(async (code) => {
      try {
        const rate = await rates.currencyPerUsd(code);
        if (rate !== null) found.set(code, rate);
      } catch (error) {
        if (!(error instanceof RateUnavailableError)) throw error;
      }
    }),
  );
  return found;
}
