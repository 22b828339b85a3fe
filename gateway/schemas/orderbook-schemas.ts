/**
 * Document 3's orderbook: the query both forms take and the shapes they answer (the list
 * form's entries, the table form's rows and pagination). Token amounts are base units as
 * the chain counts them (`amount` is digits only, so are they); fiat amounts are decimal
 * strings with the currency's two decimals (docs/orderbook.md).
 */
import { z } from 'zod';
import { BASE_CHAIN_ID as BASE, chainById, findToken } from '../../machines/catalog/index.js';
import { DEFAULT_DIRECTION, SORT_FIELDS } from '../market/orderbook-query.js';
import { bps, bytes32, currencyCode, evmAddress, fiat, isoTime, queryBoolean } from './common.js';
import { makerRecord } from './maker-schemas.js';

/** Document 3's defaults: Base, and Circle's USDC on it. */
export const ORDERBOOK_DEFAULT_CHAIN_ID = Number(BASE);
export const ORDERBOOK_DEFAULT_TOKEN = findToken(chainById(BASE)!, 'USDC')!.address;
const BASE_CHAIN_ID = ORDERBOOK_DEFAULT_CHAIN_ID;
const BASE_USDC = ORDERBOOK_DEFAULT_TOKEN;

const baseUnits = z.string().regex(/^\d+$/).meta({ description: 'Token base units (USDC has 6 decimals)', example: '250000000' });
const fiatAmount = fiat.meta({ example: '252.50' });

export const orderbookQuery = z
  .strictObject({
    currency: currencyCode.meta({ description: 'Fiat code: three upper-case letters', example: 'USD' }),
    paymentPlatform: z.string().min(1).max(64).optional().meta({ description: 'Only this platform (venmo, revolut, zelle-chase, …)' }),
    sortBy: z.enum(SORT_FIELDS).default('price'),
    sortDirection: z.enum(['asc', 'desc']).optional().meta({ description: `Default: ${Object.entries(DEFAULT_DIRECTION).map(([field, direction]) => `${direction} for ${field}`).join(', ')}` }),
    chainId: z
      .union([z.literal('null').transform(() => null), z.coerce.number().int().positive()])
      .optional()
      .meta({ description: `Destination chain id; default ${BASE_CHAIN_ID}` }),
    token: evmAddress.optional().meta({ description: `Destination token; default USDC on chain ${BASE_CHAIN_ID} (${BASE_USDC})` }),
    publicOnly: queryBoolean('true leaves out whitelist-gated (private) deposits').default(false),
    limit: z.coerce.number().int().min(1).max(500, 'must be at most 500').default(200),
    offset: z
      .union([z.literal('null').transform(() => null), z.coerce.number().int().min(0)])
      .optional()
      .meta({ description: 'Rows skipped; default 0' }),
    amount: z.string().regex(/^\d+$/, 'must be digits only: USDC base units').max(30).optional().meta({ description: 'USDC base units one intent would take: rows that cannot take it are left out' }),
    showSmallOrders: queryBoolean('true includes rows whose available amount is below the dust threshold').default(false),
    hideExtremeSpread: queryBoolean('true hides rows whose spread is beyond the extreme-spread threshold either way').default(true),
    sellerAutomatedRelease: z.enum(['include', 'exclude', 'only']).default('include'),
  })
  .meta({ id: 'OrderbookQuery' });

const rowFields = {
  chainId: z.number().int(),
  depositId: z.string().meta({ description: '<chainId>_<escrow>_<depositIdOnContract>' }),
  depositIdOnContract: z.string(),
  escrowAddress: evmAddress,
  depositor: evmAddress,
  token: evmAddress,
  paymentMethodHash: bytes32,
  paymentPlatform: z.string(),
  payeeDetailsHash: bytes32,
  currencyCode: bytes32,
  currency: currencyCode,
  conversionRate: baseUnits.meta({ description: 'The floor, fiat per USDC with 18 decimals, as the escrow holds it' }),
  rateManagerId: z.string().nullable(),
  availableTokenAmount: baseUnits,
  netTokenAmount: baseUnits.meta({ description: 'availableTokenAmount × (10000 − feeBps) / 10000: what a taker of all of it receives' }),
  intentAmountMin: baseUnits,
  intentAmountMax: baseUnits,
  minFiatSupported: fiatAmount,
  maxFiatSupported: fiatAmount,
  successRateBps: bps.meta({ description: 'Intents fulfilled per 10,000 signalled on the deposit; 0 before its first' }),
  feeBps: bps.meta({ description: 'Protocol fee deducted from the delivered token amount at fulfilment; 0 when fee enforcement is disabled' }),
  apr: z.number().nullable().meta({ description: 'Percent per year: the spread earned on the share of the deposit taken, over its life; null without a reference rate or under a day old' }),
  spread: z.number().nullable().meta({ description: 'Percent above (below, negative) the reference rate; null without one' }),
  sellerAutomatedReleaseAvailable: z.boolean().meta({ description: 'Enabled, and the seller credential unexpired: release can happen now' }),
  sellerAutomatedReleaseEnabled: z.boolean().meta({ description: 'The deposit opted in and the seller credential is active, whether or not it has expired' }),
  updatedAt: isoTime,
};

export const orderbookEntry = z
  .object({
    ...rowFields,
    price: z.string().meta({ description: 'Fiat per USDC', example: '1.02' }),
    availableFiatAmount: fiatAmount,
    maker: makerRecord.optional().meta({ description: 'The payee’s maker record, when its maker made one (POST /v1/makers/create or /v2/makers/create)' }),
  })
  .meta({ id: 'OrderbookEntry' });

export const orderbookRow = z
  .object({
    ...rowFields,
    supportedMethodHashes: z.array(bytes32),
    takerConversionRate: baseUnits.meta({ description: 'The rate a taker signals at, 18 decimals' }),
    isPrivate: z.boolean(),
  })
  .meta({ id: 'OrderbookRow' });

const formFields = {
  chainId: z.number().int(),
  token: evmAddress,
  currency: currencyCode,
  paymentPlatform: z.string().nullable(),
  publicOnly: z.boolean(),
  sortBy: z.enum(SORT_FIELDS),
  sortDirection: z.enum(['asc', 'desc']),
  sellerAutomatedRelease: z.enum(['include', 'exclude', 'only']),
  generatedAt: isoTime.meta({ description: 'When the snapshot answered from was taken: at most 60 seconds ago' }),
};

export const orderbookList = z
  .object({ ...formFields, internalDetailsIncluded: z.boolean(), entries: z.array(orderbookEntry) })
  .meta({ id: 'Orderbook' });

export const orderbookTable = z
  .object({
    ...formFields,
    rows: z.array(orderbookRow),
    pagination: z.object({ limit: z.number().int(), offset: z.number().int(), total: z.number().int(), hasMore: z.boolean() }),
  })
  .meta({ id: 'OrderbookTable' });
