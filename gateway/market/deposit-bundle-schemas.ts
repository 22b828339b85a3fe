/**
 * Document 3's deposit bundle: the path and query it takes and the shape it answers (document 3
 * names it only; docs/deposit-bundle.md designs it). Money is USDC as decimal strings; rates of
 * the escrow are 18-decimal digits as it holds them; a realised profit is signed.
 */
import { z } from 'zod';
import { ACTIVITY_TYPES, FUND_EVENT_TYPES } from '../../machines/market/deposit-bundle-figures.js';
import { bytes32, count, currencyCode, evmAddress, isoTime, queryBoolean, signedUsd, txHash, usdc } from '../schemas/common.js';

const profitUsd = signedUsd.meta({ example: '1.086956' });
const rate18 = z.string().regex(/^\d+$/).meta({ description: 'Fiat per USDC, 18 decimals, as the escrow holds it', example: '925000000000000000' });

export const depositBundlePath = z.object({
  depositId: z
    .string()
    .regex(/^\d{1,78}$/, 'must be a deposit id: a whole number, 0 or more')
    .meta({ description: 'The deposit’s id in the escrow (depositIdOnContract)', example: '1' }),
});

const FORCE_REFRESH = 'true reads the deposit from the indexer again instead of the reading kept for up to 10 seconds';

export const depositBundleQuery = z
  .strictObject({
    escrowAddress: evmAddress.meta({ description: 'The escrow the deposit is in: this node’s (another escrow’s deposit is not found)' }),
    dailySnapshotLimit: z.coerce
      .number()
      .int()
      .min(1)
      .max(366, 'must be at most 366')
      .default(30)
      .meta({ description: 'How many days of daily snapshots, up to today; default 30' }),
    // The description again on the defaulted parameter, so the OpenAPI parameter carries it as well as its schema.
    forceRefresh: queryBoolean(FORCE_REFRESH).default(false).meta({ description: FORCE_REFRESH }),
  })
  .meta({ id: 'DepositBundleQuery' });

const intentsSignaled = count.meta({ description: 'Intents ever signalled on the deposit' });
const intentsFulfilled = count.meta({ description: 'Intents ever fulfilled from the deposit' });
const paymentMethodHash = bytes32.meta({ description: 'keccak256 of the payment platform’s name, as the escrow names it' });
const paymentPlatform = z.string().nullable().meta({ description: 'The platform; null for a hash no platform this service verifies hashes to' });
const currencyHash = bytes32.meta({ description: 'keccak256 of the currency code, as the escrow names currencies' });
const currency = currencyCode.nullable().meta({ description: 'The currency; null for a hash no currency this service knows hashes to' });
const intentHash = bytes32.meta({ description: 'The intent’s hash on the escrow' });
const transactionHash = txHash.meta({ description: 'The transaction that made the movement' });
const blockNumber = count.meta({ description: 'The block of that transaction' });

const state = {
  availableTokenAmount: usdc,
  lockedTokenAmount: usdc,
  totalDeposited: usdc,
  totalAmountTaken: usdc,
  intentsSignaled,
  intentsFulfilled,
};

export const depositBundle = z
  .object({
    chainId: z.number().int().meta({ description: 'The chain the deposit is on' }),
    escrowAddress: evmAddress.meta({ description: 'The escrow contract holding the deposit' }),
    depositId: z.string().meta({ description: '<chainId>_<escrow>_<depositIdOnContract>, as the orderbook names it' }),
    depositIdOnContract: z.string().meta({ description: 'The deposit’s id on its escrow contract' }),
    generatedAt: isoTime.meta({ description: 'When the deposit was read from the indexer' }),
    deposit: z
      .object({
        depositor: evmAddress.meta({ description: 'The maker’s address that made the deposit' }),
        token: evmAddress.meta({ description: 'The token deposited' }),
        availableTokenAmount: usdc,
        lockedTokenAmount: usdc,
        totalDeposited: usdc.meta({ description: 'Ever put in: the first amount and every top-up' }),
        totalAmountTaken: usdc.meta({ description: 'Ever released by fulfilments, fees included' }),
        intentAmountMin: usdc,
        intentAmountMax: usdc,
        closed: z.boolean().meta({ description: 'The maker withdrew the deposit and closed it' }),
        isPrivate: z.boolean().meta({ description: 'Whitelist-gated: only the takers it allows may signal on it' }),
        sellerAutomatedRelease: z.boolean().meta({ description: 'The deposit opted in to the seller’s automated release' }),
        disputeProtectionEnabled: z.boolean().meta({ description: 'The deposit takes part in dispute protection' }),
        rateManagerId: z.string().nullable().meta({ description: 'The rate manager that sets the deposit’s rates; null when the maker sets them' }),
        paymentMethods: z
          .array(
            z.object({
              paymentMethodHash,
              paymentPlatform,
              payeeDetailsHash: bytes32.meta({ description: 'keccak256 of the maker’s payee id on the platform' }),
              currencies: z
                .array(z.object({ currencyCode: currencyHash, currency, conversionRate: rate18 }))
                .meta({ description: 'The currencies the platform is paid in, each at its floor rate' }),
            }),
          )
          .meta({ description: 'The payment platforms the deposit takes' }),
        intentsSignaled,
        intentsFulfilled,
        successRateBps: z.number().int().min(0).max(10_000).meta({ description: 'Intents fulfilled per 10,000 signalled; 0 before the first' }),
        createdAt: isoTime.meta({ description: 'When the deposit was made' }),
        updatedAt: isoTime.meta({ description: 'When the deposit last changed on chain' }),
      })
      .meta({ description: 'The deposit as the escrow holds it now' }),
    intents: z
      .array(
        z.object({
          intentHash,
          status: z
            .enum(['SIGNALED', 'FULFILLED', 'PRUNED'])
            .meta({ description: 'SIGNALED (open), FULFILLED, or PRUNED (cancelled by its taker or after expiry)' }),
          amount: usdc.meta({ description: 'What the intent locked' }),
          conversionRate: rate18.meta({ description: 'What the taker agreed to pay, fiat per USDC, 18 decimals' }),
          paymentMethodHash,
          paymentPlatform,
          currencyCode: currencyHash,
          currency,
          signaledAt: isoTime.meta({ description: 'When the intent was signalled' }),
          fulfilledAt: isoTime.nullable().meta({ description: 'When the intent was fulfilled; null until then' }),
          amountTaken: usdc.meta({ description: 'What left the deposit at fulfilment: netToTaker plus both fees; 0 until then' }),
          netToTaker: usdc,
          protocolFee: usdc,
          referrerFee: usdc,
          referenceRate: z
            .string()
            .nullable()
            .meta({ description: 'Fiat per USD (6 decimals) recorded with the fulfilment; null before it, or for a currency without one' }),
          realizedProfitUsd: profitUsd
            .nullable()
            .meta({ description: 'amountTaken × (rate / reference − 1), rounded toward negative infinity; null without a reference' }),
        }),
      )
      .meta({ description: 'The latest signalled first' }),
    fundEvents: z
      .array(
        z.object({
          type: z.enum(FUND_EVENT_TYPES).meta({ description: 'What happened to the deposit’s funds' }),
          amount: usdc,
          transactionHash,
          blockNumber,
          timestamp: isoTime,
        }),
      )
      .meta({ description: 'The deposit’s on-chain fund events, in chain order' }),
    profitSnapshots: z
      .array(
        z.object({
          intentHash: intentHash.meta({ description: 'The intent fulfilled' }),
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
          type: z.enum(ACTIVITY_TYPES).meta({ description: 'A fund event, or an intent locking (LOCKED), giving back (UNLOCKED) or taking (TAKEN) USDC' }),
          amount: usdc,
          intentHash: bytes32.nullable().meta({ description: 'The intent that moved the USDC; null for a fund event' }),
          transactionHash,
          blockNumber,
          timestamp: isoTime,
          after: z.object(state).meta({ description: 'The deposit after the movement' }),
        }),
      )
      .meta({
        description: 'Every movement of the deposit’s USDC in chain order: fund events, and intents locking, giving back (UNLOCKED) or taking (TAKEN) it',
      }),
    dailySnapshots: z
      .array(
        z.object({
          date: z
            .string()
            .regex(/^\d{4}-\d{2}-\d{2}$/)
            .meta({ description: 'A UTC day' }),
          ...state,
          realizedProfitUsd: profitUsd.meta({ description: 'Lifetime, at the end of the day' }),
        }),
      )
      .meta({
        description:
          'The deposit at the end of each of the last dailySnapshotLimit UTC days up to today (the node’s clock), oldest first, none before its creation',
      }),
  })
  .meta({ id: 'DepositBundle' });
