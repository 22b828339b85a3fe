/**
 * Document 3's maker leaderboard: the queries and path it takes and the shapes it answers
 * (document 3 names them only; docs/leaderboard.md designs them). Money is USDC as decimal
 * strings (`1250.5`); a realised profit is signed, negative for a loss.
 */
import { z } from 'zod';
import { LEADERBOARD_METRICS, LEADERBOARD_WINDOWS } from '../../machines/market/leaderboard-figures.js';
import { bps, bytes32, count, currencyCode, evmAddress, fiat, isoTime, signedUsd, usdc } from '../schemas/common.js';
import { offsetPagination } from '../schemas/offset-pagination.js';

const rank = z.number().int().min(1).meta({ description: 'Descending: 1 is top; equals share a rank (1, 2, 2, 4)' });
const windowParam = z
  .enum(LEADERBOARD_WINDOWS)
  .default('lifetime')
  .meta({ description: 'lifetime, or the last 7, 30 or 90 days by the node’s clock: scopes totalAmountTaken and realizedProfitUsd only' });

export const leaderboardQuery = z
  .strictObject({
    sortBy: z
      .enum(LEADERBOARD_METRICS)
      .default('profit')
      .meta({ description: 'profit: realised profit; volume: filled volume (totalAmountTaken); liquidity: gross deposited (totalDeposited)' }),
    sortOrder: z.enum(['asc', 'desc']).default('desc').meta({ description: 'desc: the top first' }),
    window: windowParam,
    limit: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(25).meta({ description: 'Makers answered, at most 100' }),
    offset: z.coerce.number().int().min(0).default(0).meta({ description: 'Makers skipped' }),
  })
  .meta({ id: 'LeaderboardQuery' });

export const leaderboardRankQuery = z.strictObject({ window: windowParam }).meta({ id: 'LeaderboardRankQuery' });

export const makerIdPath = z.object({
  makerId: z
    .string()
    .regex(/^\d{1,20}_0x[0-9a-fA-F]{40}$/, 'must be <chainId>_<makerAddress>: a chain id, an underscore, then 0x and 40 hex digits')
    .meta({ description: '<chainId>_<makerAddress>; the address in any case', example: '8453_0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc' }),
});

export const leaderboardMaker = z
  .object({
    makerId: z
      .string()
      .meta({ description: '<chainId>_<makerAddress>, the address in lower case', example: '8453_0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc' }),
    chainId: z.number().int().meta({ description: 'The chain the maker’s deposits are on' }),
    makerAddress: evmAddress.meta({ description: 'The depositor, checksummed' }),
    realizedProfitUsd: signedUsd.meta({
      description: 'Window-scoped: Σ over fulfilments of released × (rate / reference − 1), each at the reference rate recorded when it was fulfilled',
    }),
    totalAmountTaken: usdc.meta({ description: 'Window-scoped filled volume: the USDC fulfilments released from the maker’s deposits, fees included' }),
    totalDeposited: usdc.meta({ description: 'Lifetime liquidity: what the maker’s deposits ever took in, closed ones included' }),
    availableLiquidity: usdc.meta({ description: 'What the maker’s open deposits can sell now' }),
    depositCount: count.meta({ description: 'Lifetime' }),
    activeDepositCount: count.meta({ description: 'Deposits not closed' }),
    intentsSignaled: count.meta({ description: 'Lifetime' }),
    intentsFulfilled: count.meta({ description: 'Lifetime' }),
    successRateBps: bps.meta({ description: 'Lifetime intents fulfilled per 10,000 signalled; 0 before the first' }),
    firstDepositAt: isoTime.nullable().meta({ description: 'When the maker’s first deposit was made' }),
    lastFulfilledAt: isoTime.nullable().meta({ description: 'When an intent on the maker’s deposits was last fulfilled; null before the first' }),
  })
  .meta({ id: 'LeaderboardMaker', description: 'A maker’s figures: the deposits of one address on one chain' });

const windowFields = {
  chainId: z.number().int().meta({ description: 'The chain ranked' }),
  window: z.enum(LEADERBOARD_WINDOWS).meta({ description: 'The window asked: lifetime, or the last 7, 30 or 90 days' }),
  windowStart: isoTime.nullable().meta({ description: 'The earliest fulfilment the window counts; null for lifetime' }),
  generatedAt: isoTime.meta({ description: 'The snapshot answered from, and the time windows are measured back from' }),
};

export const leaderboardPage = z
  .object({
    ...windowFields,
    sortBy: z.enum(LEADERBOARD_METRICS).meta({ description: 'The figure ranked by' }),
    sortOrder: z.enum(['asc', 'desc']).meta({ description: 'The order asked' }),
    makers: z
      .array(
        z
          .object({ rank: rank.meta({ description: 'By sortBy, descending whatever the sortOrder' }), ...leaderboardMaker.shape })
          .meta({ id: 'LeaderboardEntry', description: 'A maker and its rank' }),
      )
      .meta({ description: 'This page of makers' }),
    pagination: offsetPagination,
  })
  .meta({ id: 'Leaderboard' });

export const leaderboardSummary = z
  .object({
    chainId: z.number().int().meta({ description: 'The chain summed' }),
    generatedAt: isoTime.meta({ description: 'The snapshot answered from' }),
    totalMakers: count.meta({ description: 'Makers with at least one deposit' }),
    makersWithIntents: count.meta({ description: 'Makers with at least one intent signalled: those averageSuccessRateBps averages' }),
    totalRealizedProfitUsd: signedUsd.meta({ description: 'Every maker’s lifetime realised profit' }),
    totalAmountTaken: usdc.meta({ description: 'Lifetime filled volume' }),
    totalDeposited: usdc.meta({ description: 'Lifetime gross deposited' }),
    totalDeposits: count.meta({ description: 'Deposits ever made' }),
    activeDeposits: count.meta({ description: 'Deposits not closed' }),
    totalIntentsSignaled: count.meta({ description: 'Intents ever signalled' }),
    totalIntentsFulfilled: count.meta({ description: 'Intents ever fulfilled' }),
    averageSuccessRateBps: bps.meta({ description: 'The mean of the success rates of the makers with an intent, rounded down' }),
  })
  .meta({ id: 'LeaderboardSummary' });

const ranks = z.object({ profit: rank, volume: rank, liquidity: rank }).meta({ id: 'LeaderboardRanks', description: 'The maker’s rank by each figure' });

export const leaderboardRank = z
  .object({
    makerId: z.string().meta({ description: '<chainId>_<makerAddress>, the address in lower case' }),
    ...windowFields,
    totalMakers: count.meta({ description: 'Makers ranked' }),
    ranks,
    maker: leaderboardMaker,
  })
  .meta({ id: 'LeaderboardRank' });

const intentsSignaled = count.meta({ description: 'Intents signalled' });
const intentsFulfilled = count.meta({ description: 'Intents fulfilled' });

const tally = {
  intentsSignaled,
  intentsFulfilled,
  intentsPruned: count.meta({ description: 'Cancelled by their taker or pruned after expiry' }),
  totalAmountTaken: usdc,
  realizedProfitUsd: signedUsd,
};

export const leaderboardMakerDetail = z
  .object({
    makerId: z.string().meta({ description: '<chainId>_<makerAddress>, the address in lower case' }),
    chainId: z.number().int().meta({ description: 'The chain the maker’s deposits are on' }),
    generatedAt: isoTime.meta({ description: 'The snapshot answered from' }),
    maker: leaderboardMaker.meta({ description: 'Lifetime figures' }),
    ranks,
    platforms: z
      .array(
        z.object({
          paymentMethodHash: bytes32.meta({ description: 'keccak256 of the platform’s name, as the escrow names it' }),
          paymentPlatform: z.string().nullable().meta({ description: 'null for a method no platform this service verifies hashes to' }),
          ...tally,
        }),
      )
      .meta({ description: 'The most volume first' }),
    currencies: z
      .array(
        z.object({
          currencyCode: bytes32.meta({ description: 'keccak256 of the currency code, as the escrow names currencies' }),
          currency: currencyCode.nullable().meta({ description: 'The currency; null for a hash no currency this service knows hashes to' }),
          ...tally,
          fiatAmount: fiat.meta({ description: 'What takers paid for totalAmountTaken at their intents’ rates, rounded down to the cent' }),
        }),
      )
      .meta({ description: 'The maker’s figures per fiat currency' }),
    profitSnapshots: z
      .array(
        z.object({
          date: z
            .string()
            .regex(/^\d{4}-\d{2}-\d{2}$/)
            .meta({ description: 'A UTC day' }),
          fulfilments: count.meta({ description: 'Intents fulfilled that day' }),
          totalAmountTaken: usdc,
          realizedProfitUsd: signedUsd,
          cumulativeRealizedProfitUsd: signedUsd.meta({ description: 'Lifetime realised profit at the end of the day' }),
        }),
      )
      .meta({ description: 'The last 30 UTC days by the node’s clock, oldest first, every day shown' }),
    deposits: z
      .array(
        z.object({
          depositId: z.string().meta({ description: '<chainId>_<escrow>_<depositIdOnContract>, as the orderbook names it' }),
          depositIdOnContract: z.string().meta({ description: 'The deposit’s id on its escrow contract' }),
          escrowAddress: evmAddress.meta({ description: 'The escrow contract holding the deposit' }),
          totalDeposited: usdc,
          totalAmountTaken: usdc,
          availableLiquidity: usdc,
          closed: z.boolean().meta({ description: 'The maker withdrew the deposit and closed it' }),
          intentsSignaled,
          intentsFulfilled,
          successRateBps: bps.meta({ description: 'Intents fulfilled per 10,000 signalled; 0 before the first' }),
          createdAt: isoTime.meta({ description: 'When the deposit was made' }),
        }),
      )
      .meta({ description: 'The maker’s deposits' }),
  })
  .meta({ id: 'LeaderboardMakerDetail' });
