/**
 * Document 3's deposit bundle: the path and query it takes and the shape it answers (document 3
 * names it only; docs/deposit-bundle.md designs it). Money is USDC as decimal strings; rates of
 * the escrow are 18-decimal digits as it holds them; a realised profit is signed.
 */
import { z } from 'zod';
import { ACTIVITY_TYPES, FUND_EVENT_TYPES } from '../market/deposit-bundle-figures.js';
import { bytes32, count, currencyCode, evmAddress, isoTime, queryBoolean, signedUsd, txHash, usdc } from './common.js';

const profitUsd = signedUsd.meta({ example: '1.086956' });
const rate18 = z.string().regex(/^\d+$/).meta({ description: 'Fiat per USDC, 18 decimals, as the escrow holds it', example: '925000000000000000' });

export const depositBundlePath = z.object({
  depositId: z.string().regex(/^\d{1,78}$/, 'must be a deposit id: a whole number, 0 or more').meta({ description: 'The deposit’s id in the escrow (depositIdOnContract)', example: '1' }),
});

const FORCE_REFRESH = 'true reads the deposit from the indexer again instead of the reading kept for up to 10 seconds';

export const depositBundleQuery = z
  .strictObject({
    escrowAddress: evmAddress.meta({ description: 'The escrow the deposit is in: this node’s (another escrow’s deposit is not found)' }),
    dailySnapshotLimit: z.coerce.number().int().min(1).max(366, 'must be at most 366').default(30).meta({ description: 'How many days of daily snapshots, up to today; default 30' }),
    // The description again on the defaulted parameter, so the OpenAPI parameter carries it as well as its schema.
    forceRefresh: queryBoolean(FORCE_REFRESH).default(false).meta({ description: FORCE_REFRESH }),
  })
  .meta({ id: 'DepositBundleQuery' });

const state = {
  availableTokenAmount: usdc,
  lockedTokenAmount: usdc,
  totalDeposited: usdc,
  totalAmountTaken: usdc,
  intentsSignaled: count,
  intentsFulfilled: count,
};

export const depositBundle = z
  .object({
    chainId: z.number().int(),
    escrowAddress: evmAddress,
    depositId: z.string().meta({ description: '<chainId>_<escrow>_<depositIdOnContract>, as the orderbook names it' }),
    depositIdOnContract: z.string(),
    generatedAt: isoTime.meta({ description: 'When the deposit was read from the indexer' }),
    deposit: z.object({
      depositor: evmAddress,
      token: evmAddress,
      availableTokenAmount: usdc,
      lockedTokenAmount: usdc,
      totalDeposited: usdc.meta({ description: 'Ever put in: the first amount and every top-up' }),
      totalAmountTaken: usdc.meta({ description: 'Ever released by fulfilments, fees included' }),
      intentAmountMin: usdc,
      intentAmountMax: usdc,
      closed: z.boolean(),
      isPrivate: z.boolean(),
      sellerAutomatedRelease: z.boolean(),
      disputeProtectionEnabled: z.boolean(),
      rateManagerId: z.string().nullable(),
      paymentMethods: z.array(
        z.object({
          paymentMethodHash: bytes32,
          paymentPlatform: z.string().nullable(),
          payeeDetailsHash: bytes32,
          currencies: z.array(z.object({ currencyCode: bytes32, currency: currencyCode.nullable(), conversionRate: rate18 })),
        }),
      ),
      intentsSignaled: count,
      intentsFulfilled: count,
      successRateBps: z.number().int().min(0).max(10_000),
      createdAt: isoTime,
      updatedAt: isoTime,
    }),
    intents: z
      .array(
        z.object({
          intentHash: bytes32,
          status: z.enum(['SIGNALED', 'FULFILLED', 'PRUNED']),
          amount: usdc.meta({ description: 'What the intent locked' }),
          conversionRate: rate18.meta({ description: 'What the taker agreed to pay, fiat per USDC, 18 decimals' }),
          paymentMethodHash: bytes32,
          paymentPlatform: z.string().nullable(),
          currencyCode: bytes32,
          currency: currencyCode.nullable(),
          signaledAt: isoTime,
          fulfilledAt: isoTime.nullable(),
          amountTaken: usdc.meta({ description: 'What left the deposit at fulfilment: netToTaker plus both fees; 0 until then' }),
          netToTaker: usdc,
          protocolFee: usdc,
          referrerFee: usdc,
          referenceRate: z.string().nullable().meta({ description: 'Fiat per USD (6 decimals) recorded with the fulfilment; null before it, or for a currency without one' }),
          realizedProfitUsd: profitUsd.nullable().meta({ description: 'amountTaken × (rate / reference − 1), rounded toward negative infinity; null without a reference' }),
        }),
      )
      .meta({ description: 'The latest signalled first' }),
    fundEvents: z
      .array(z.object({ type: z.enum(FUND_EVENT_TYPES), amount: usdc, transactionHash: txHash, blockNumber: count, timestamp: isoTime }))
      .meta({ description: 'The deposit’s on-chain fund events, in chain order' }),
    profitSnapshots: z
      .array(
        z.object({
          intentHash: bytes32,
          fulfilledAt: isoTime,
          amountTaken: usdc,
          realizedProfitUsd: profitUsd,
          cumulativeAmountTaken: usdc,
          cumulativeRealizedProfitUsd: profitUsd,
        }),
      )
      .meta({ description: 'After each fulfilment, oldest first' }),
    fundActivity: z
      .array(
        z.object({
          type: z.enum(ACTIVITY_TYPES),
          amount: usdc,
          intentHash: bytes32.nullable(),
          transactionHash: txHash,
          blockNumber: count,
          timestamp: isoTime,
          after: z.object(state).meta({ description: 'The deposit after the movement' }),
        }),
      )
      .meta({ description: 'Every movement of the deposit’s USDC in chain order: fund events, and intents locking, giving back (UNLOCKED) or taking (TAKEN) it' }),
    dailySnapshots: z
      .array(z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), ...state, realizedProfitUsd: profitUsd.meta({ description: 'Lifetime, at the end of the day' }) }))
      .meta({ description: 'The deposit at the end of each of the last dailySnapshotLimit UTC days up to today (the node’s clock), oldest first, none before its creation' }),
  })
  .meta({ id: 'DepositBundle' });
