/**
 * Document 3's orderbook: the query both forms take and the shapes they answer (the list
 * form's entries, the table form's rows and pagination). Token amounts are base units as
 * the chain counts them (`amount` is digits only, so are they); fiat amounts are decimal
 * strings with the currency's two decimals (docs/orderbook.md).
 */
import { z } from 'zod';
import { BASE_CHAIN_ID as BASE, chainById, findToken } from '../../machines/catalog/index.js';
import { DEFAULT_DIRECTION, SORT_FIELDS } from '../../machines/market/orderbook-query.js';
import { bps, bytes32, currencyCode, evmAddress, fiat, isoTime, queryBoolean } from '../schemas/common.js';
import { makerRecord } from '../schemas/maker-schemas.js';
import { offsetPagination } from '../schemas/offset-pagination.js';

/** Document 3's defaults: Base, and Circle's USDC on it. */
export const ORDERBOOK_DEFAULT_CHAIN_ID = Number(BASE);
export const ORDERBOOK_DEFAULT_TOKEN = findToken(chainById(BASE)!, 'USDC')!.address;
const BASE_CHAIN_ID = ORDERBOOK_DEFAULT_CHAIN_ID;
const BASE_USDC = ORDERBOOK_DEFAULT_TOKEN;

const baseUnits = z.string().regex(/^\d+$/).meta({ description: 'Token base units (USDC has 6 decimals)', example: '250000000' });
const fiatAmount = fiat.meta({ example: '252.50' });

const sellerAutomatedRelease = z
  .enum(['include', 'exclude', 'only'])
  .meta({ description: 'Rows whose seller’s automated release is available: included, left out (exclude) or the only ones (only)' });

export const orderbookQuery = z
  .strictObject({
    currency: currencyCode.meta({ description: 'Fiat code: three upper-case letters', example: 'USD' }),
    paymentPlatform: z.string().min(1).max(64).optional().meta({ description: 'Only this platform (venmo, revolut, zelle-chase, …)' }),
    sortBy: z.enum(SORT_FIELDS).default('price').meta({ description: 'Order of the rows: by price, available amount, intent limits or APR' }),
    sortDirection: z
      .enum(['asc', 'desc'])
      .optional()
      .meta({
        description: `Default: ${Object.entries(DEFAULT_DIRECTION)
          .map(([field, direction]) => `${direction} for ${field}`)
          .join(', ')}`,
      }),
    chainId: z
      .union([z.literal('null').transform(() => null), z.coerce.number().int().positive()])
      .optional()
      .meta({ description: `Destination chain id; default ${BASE_CHAIN_ID}` }),
    token: evmAddress.optional().meta({ description: `Destination token; default USDC on chain ${BASE_CHAIN_ID} (${BASE_USDC})` }),
    publicOnly: queryBoolean('true leaves out whitelist-gated (private) deposits').default(false),
    limit: z.coerce.number().int().min(1).max(500, 'must be at most 500').default(200).meta({ description: 'Rows answered, at most 500' }),
    offset: z
      .union([z.literal('null').transform(() => null), z.coerce.number().int().min(0)])
      .optional()
      .meta({ description: 'Rows skipped; default 0' }),
    amount: z
      .string()
      .regex(/^\d+$/, 'must be digits only: USDC base units')
      .max(30)
      .optional()
      .meta({ description: 'USDC base units one intent would take: rows that cannot take it are left out' }),
    showSmallOrders: queryBoolean('true includes rows whose available amount is below the dust threshold').default(false),
    hideExtremeSpread: queryBoolean('true hides rows whose spread is beyond the extreme-spread threshold either way').default(true),
    sellerAutomatedRelease: sellerAutomatedRelease.default('include'),
  })
  .meta({ id: 'OrderbookQuery' });

const rowFields = {
  chainId: z.number().int().meta({ description: 'The chain the deposit is on' }),
  depositId: z.string().meta({ description: '<chainId>_<escrow>_<depositIdOnContract>' }),
  depositIdOnContract: z.string().meta({ description: 'The deposit’s id on its escrow contract' }),
  escrowAddress: evmAddress.meta({ description: 'The escrow contract holding the deposit' }),
  depositor: evmAddress.meta({ description: 'The maker’s address that made the deposit' }),
  token: evmAddress.meta({ description: 'The token deposited' }),
  paymentMethodHash: bytes32.meta({ description: 'keccak256 of the payment platform’s name, as the escrow names it' }),
  paymentPlatform: z.string().meta({ description: 'The payment platform the row is paid on (venmo, revolut, zelle-chase, …)' }),
  payeeDetailsHash: bytes32.meta({ description: 'keccak256 of the maker’s payee id on the platform, as the escrow holds it' }),
  currencyCode: bytes32.meta({ description: 'keccak256 of the fiat currency code, as the escrow names currencies' }),
  currency: currencyCode.meta({ description: 'The fiat currency the row is paid in' }),
  conversionRate: baseUnits.meta({ description: 'The floor, fiat per USDC with 18 decimals, as the escrow holds it' }),
  rateManagerId: z.string().nullable().meta({ description: 'The rate manager that sets the deposit’s rates; null when the maker sets them' }),
  availableTokenAmount: baseUnits.meta({ description: 'Token base units not locked by intents: what can be taken now' }),
  netTokenAmount: baseUnits.meta({ description: 'availableTokenAmount × (10000 − feeBps) / 10000: what a taker of all of it receives' }),
  intentAmountMin: baseUnits.meta({ description: 'The fewest token base units one intent may take' }),
  intentAmountMax: baseUnits.meta({ description: 'The most token base units one intent may take (the available amount when less)' }),
  minFiatSupported: fiatAmount.meta({ description: 'intentAmountMin at the row’s price, in currency' }),
  maxFiatSupported: fiatAmount.meta({ description: 'intentAmountMax at the row’s price, in currency' }),
  successRateBps: bps.meta({ description: 'Intents fulfilled per 10,000 signalled on the deposit; 0 before its first' }),
  feeBps: bps.meta({ description: 'Protocol fee deducted from the delivered token amount at fulfilment; 0 when fee enforcement is disabled' }),
  apr: z.number().nullable().meta({
    description: 'Percent per year: the spread earned on the share of the deposit taken, over its life; null without a reference rate or under a day old',
  }),
  spread: z.number().nullable().meta({ description: 'Percent above (below, negative) the reference rate; null without one' }),
  sellerAutomatedReleaseAvailable: z.boolean().meta({ description: 'Enabled, and the seller credential unexpired: release can happen now' }),
  sellerAutomatedReleaseEnabled: z.boolean().meta({ description: 'The deposit opted in and the seller credential is active, whether or not it has expired' }),
  updatedAt: isoTime.meta({ description: 'When the deposit last changed on chain' }),
};

export const orderbookEntry = z
  .object({
    ...rowFields,
    price: z.string().meta({ description: 'Fiat per USDC', example: '1.02' }),
    availableFiatAmount: fiatAmount.meta({ description: 'availableTokenAmount at the row’s price, in currency' }),
    maker: makerRecord.optional().meta({ description: 'The payee’s maker record, when its maker made one (POST /v1/makers/create or /v2/makers/create)' }),
  })
  .meta({ id: 'OrderbookEntry', description: 'A maker’s offer: one deposit on one platform in one currency' });

export const orderbookRow = z
  .object({
    ...rowFields,
    supportedMethodHashes: z.array(bytes32).meta({ description: 'Every payment platform the deposit takes, as paymentMethodHash names them' }),
    takerConversionRate: baseUnits.meta({ description: 'The rate a taker signals at, 18 decimals' }),
    isPrivate: z.boolean().meta({ description: 'The deposit is whitelist-gated: only the takers it allows may signal on it' }),
  })
  .meta({ id: 'OrderbookRow', description: 'A maker’s offer as a table row: one deposit on one platform in one currency' });

/** The query as it was read, defaults filled in. */
const formFields = {
  chainId: z.number().int().meta({ description: 'The destination chain asked' }),
  token: evmAddress.meta({ description: 'The destination token asked' }),
  currency: currencyCode.meta({ description: 'The fiat currency asked' }),
  paymentPlatform: z.string().nullable().meta({ description: 'The platform asked; null for every platform' }),
  publicOnly: z.boolean().meta({ description: 'Private deposits were left out' }),
  sortBy: z.enum(SORT_FIELDS).meta({ description: 'The order of the rows' }),
  sortDirection: z.enum(['asc', 'desc']).meta({ description: 'The direction of the order' }),
  sellerAutomatedRelease,
  generatedAt: isoTime.meta({ description: 'When the snapshot answered from was taken: at most 60 seconds ago' }),
};

export const orderbookList = z
  .object({
    ...formFields,
    internalDetailsIncluded: z.boolean().meta({ description: 'Always false: no caller gets more than the public fields' }),
    entries: z.array(orderbookEntry).meta({ description: 'The offers, in the order asked' }),
  })
  .meta({ id: 'Orderbook' });

export const orderbookTable = z
  .object({
    ...formFields,
    rows: z.array(orderbookRow).meta({ description: 'This page of offers, in the order asked' }),
    pagination: offsetPagination,
  })
  .meta({ id: 'OrderbookTable' });
