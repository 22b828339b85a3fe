/**
 * Document 3's maker leaderboard: the queries and path it takes and the shapes it answers
 * (document 3 names them only; docs/leaderboard.md designs them). Money is USDC as decimal
 * strings (`1250.5`); a realised profit is signed, negative for a loss.
 */
import { z } from 'zod';
import { LEADERBOARD_METRICS, LEADERBOARD_WINDOWS } from '../market/leaderboard-figures.js';
import { bps, bytes32, count, currencyCode, evmAddress, fiat, isoTime, signedUsd, usdc } from './common.js';

const rank = z.number().int().min(1).meta({ description: 'Descending: 1 is top; equals share a rank (1, 2, 2, 4)' });
const windowParam = z.enum(LEADERBOARD_WINDOWS).default('lifetime').meta({ description: 'lifetime, or the last 7, 30 or 90 days by the node’s clock: scopes totalAmountTaken and realizedProfitUsd only' });

export const leaderboardQuery = z
  .strictObject({
    sortBy: z.enum(LEADERBOARD_METRICS).default('profit').meta({ description: 'profit: realised profit; volume: filled volume (totalAmountTaken); liquidity: gross deposited (totalDeposited)' }),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
    window: windowParam,
    limit: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(25),
    offset: z.coerce.number().int().min(0).default(0),
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
    makerId: z.string().meta({ description: '<chainId>_<makerAddress>, the address in lower case', example: '8453_0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc' }),
    chainId: z.number().int(),
    makerAddress: evmAddress.meta({ description: 'The depositor, checksummed' }),
    realizedProfitUsd: signedUsd.meta({ description: 'Window-scoped: Σ over fulfilments of released × (rate / reference − 1), each at the reference rate recorded when it was fulfilled' }),
    totalAmountTaken: usdc.meta({ description: 'Window-scoped filled volume: the USDC fulfilments released from the maker’s deposits, fees included' }),
    totalDeposited: usdc.meta({ description: 'Lifetime liquidity: what the maker’s deposits ever took in, closed ones included' }),
    availableLiquidity: usdc.meta({ description: 'What the maker’s open deposits can sell now' }),
    depositCount: count.meta({ description: 'Lifetime' }),
    activeDepositCount: count.meta({ description: 'Deposits not closed' }),
    intentsSignaled: count.meta({ description: 'Lifetime' }),
    intentsFulfilled: count.meta({ description: 'Lifetime' }),
    successRateBps: bps.meta({ description: 'Lifetime intents fulfilled per 10,000 signalled; 0 before the first' }),
    firstDepositAt: isoTime.nullable(),
    lastFulfilledAt: isoTime.nullable(),
  })
  .meta({ id: 'LeaderboardMaker' });

const windowFields = {
  chainId: z.number().int(),
  window: z.enum(LEADERBOARD_WINDOWS),
  windowStart: isoTime.nullable().meta({ description: 'The earliest fulfilment the window counts; null for lifetime' }),
  generatedAt: isoTime.meta({ description: 'The snapshot answered from, and the time windows are measured back from' }),
};

export const leaderboardPage = z
  .object({
    ...windowFields,
    sortBy: z.enum(LEADERBOARD_METRICS),
    sortOrder: z.enum(['asc', 'desc']),
    makers: z.array(z.object({ rank: rank.meta({ description: 'By sortBy, descending whatever the sortOrder' }), ...leaderboardMaker.shape }).meta({ id: 'LeaderboardEntry' })),
    pagination: z.object({ limit: z.number().int(), offset: z.number().int(), total: count, hasMore: z.boolean() }),
  })
  .meta({ id: 'Leaderboard' });

export const leaderboardSummary = z
  .object({
    chainId: z.number().int(),
    generatedAt: isoTime,
    totalMakers: count,
    makersWithIntents: count.meta({ description: 'Makers with at least one intent signalled: those averageSuccessRateBps averages' }),
    totalRealizedProfitUsd: signedUsd,
    totalAmountTaken: usdc.meta({ description: 'Lifetime filled volume' }),
    totalDeposited: usdc.meta({ description: 'Lifetime gross deposited' }),
    totalDeposits: count,
    activeDeposits: count,
    totalIntentsSignaled: count,
    totalIntentsFulfilled: count,
    averageSuccessRateBps: bps.meta({ description: 'The mean of the success rates of the makers with an intent, rounded down' }),
  })
  .meta({ id: 'LeaderboardSummary' });

const ranks = z.object({ profit: rank, volume: rank, liquidity: rank }).meta({ id: 'LeaderboardRanks' });

export const leaderboardRank = z
  .object({
    makerId: z.string(),
    ...windowFields,
    totalMakers: count,
    ranks,
    maker: leaderboardMaker,
  })
  .meta({ id: 'LeaderboardRank' });

const tally = {
  intentsSignaled: count,
  intentsFulfilled: count,
  intentsPruned: count.meta({ description: 'Cancelled by their taker or pruned after expiry' }),
  totalAmountTaken: usdc,
  realizedProfitUsd: signedUsd,
};

export const leaderboardMakerDetail = z
  .object({
    makerId: z.string(),
    chainId: z.number().int(),
    generatedAt: isoTime,
    maker: leaderboardMaker.meta({ description: 'Lifetime figures' }),
    ranks,
    platforms: z.array(z.object({ paymentMethodHash: bytes32, paymentPlatform: z.string().nullable().meta({ description: 'null for a method no platform this service verifies hashes to' }), ...tally })).meta({ description: 'The most volume first' }),
    currencies: z.array(
      z.object({
        currencyCode: bytes32,
        currency: currencyCode.nullable(),
        ...tally,
        fiatAmount: fiat.meta({ description: 'What takers paid for totalAmountTaken at their intents’ rates, rounded down to the cent' }),
      }),
    ),
    profitSnapshots: z
      .array(
        z.object({
          date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).meta({ description: 'A UTC day' }),
          fulfilments: count,
          totalAmountTaken: usdc,
          realizedProfitUsd: signedUsd,
          cumulativeRealizedProfitUsd: signedUsd.meta({ description: 'Lifetime realised profit at the end of the day' }),
        }),
      )
      .meta({ description: 'The last 30 UTC days by the node’s clock, oldest first, every day shown' }),
    deposits: z.array(
      z.object({
        depositId: z.string().meta({ description: '<chainId>_<escrow>_<depositIdOnContract>, as the orderbook names it' }),
        depositIdOnContract: z.string(),
        escrowAddress: evmAddress,
        totalDeposited: usdc,
        totalAmountTaken: usdc,
        availableLiquidity: usdc,
        closed: z.boolean(),
        intentsSignaled: count,
        intentsFulfilled: count,
        successRateBps: bps,
        createdAt: isoTime,
      }),
    ),
  })
  .meta({ id: 'LeaderboardMakerDetail' });
