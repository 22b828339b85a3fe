/**
 * The deposit bundle's figures (document 3), from the deposit's standing facts and the intent
 * ledger's records, in bigint: every movement of the deposit's USDC replayed with the escrow's
 * own arithmetic (the one the indexer's GetDeposit folds), its on-chain fund events, the profit
 * after each fulfilment, and its state at the end of each recent day (docs/deposit-bundle.md).
 */
import type { DepositFact, IntentRecordDoc } from './market-records.js';
import { fillOf } from './leaderboard-figures.js';
import { DAY_SECONDS, utcDate } from './market-fields.js';

export const FUND_EVENT_TYPES = ['DEPOSIT_RECEIVED', 'FUNDS_ADDED', 'WITHDRAWN', 'CLOSED'] as const;
export type FundEventType = (typeof FUND_EVENT_TYPES)[number];
/** The fund events, and what intents do to the deposit: lock part of it, give it back, or take it. */
export const ACTIVITY_TYPES = [...FUND_EVENT_TYPES, 'LOCKED', 'UNLOCKED', 'TAKEN'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export interface DepositState {
  available: bigint;
  locked: bigint;
  totalDeposited: bigint;
  totalTaken: bigint;
  intentsSignaled: number;
  intentsFulfilled: number;
}

export interface Movement {
  type: ActivityType;
  /** USDC moved: put in, withdrawn, locked, given back, or (TAKEN) released to the taker's side; 0 for CLOSED. */
  amount: bigint;
  /** The intent behind a LOCKED, UNLOCKED or TAKEN; null for a fund event. */
  intentHash: string | null;
  transactionHash: string;
  blockNumber: bigint;
  /** Block time, Unix seconds. */
  at: number;
  /** The deposit after it. */
  after: DepositState;
}

const EMPTY: DepositState = { available: 0n, locked: 0n, totalDeposited: 0n, totalTaken: 0n, intentsSignaled: 0, intentsFulfilled: 0 };

/** Every movement of the deposit's USDC, in log order, each with the state it left (Escrow.sol's arithmetic, as the indexer replays it). */
export function movementsOf(facts: readonly DepositFact[]): Movement[] {
  const movements: Movement[] = [];
  let state = EMPTY;
  for (const fact of facts) {
    const event = fact.event;
    let type: ActivityType;
    let amount: bigint;
    let intentHash: string | null = null;
    switch (event?.$case) {
      case 'depositReceived':
        [type, amount] = ['DEPOSIT_RECEIVED', BigInt(event.value.amount)];
        state = { ...EMPTY, available: amount, totalDeposited: amount };
        break;
      case 'depositFundsAdded':
        [type, amount] = ['FUNDS_ADDED', BigInt(event.value.amount)];
        state = { ...state, available: state.available + amount, totalDeposited: state.totalDeposited + amount };
        break;
      case 'depositWithdrawn':
        [type, amount] = ['WITHDRAWN', BigInt(event.value.amount)];
        state = { ...state, available: state.available - amount };
        break;
      case 'depositClosed':
        [type, amount] = ['CLOSED', 0n];
        break;
      case 'fundsLocked':
        [type, amount, intentHash] = ['LOCKED', BigInt(event.value.amount), event.value.intentHash];
        state = { ...state, available: state.available - amount, locked: state.locked + amount, intentsSignaled: state.intentsSignaled + 1 };
        break;
      case 'fundsUnlocked':
        [type, amount, intentHash] = ['UNLOCKED', BigInt(event.value.amount), event.value.intentHash];
        state = { ...state, available: state.available + amount, locked: state.locked - amount };
        break;
      case 'fundsUnlockedAndTransferred': {
        const unlocked = BigInt(event.value.unlockedAmount);
        [type, amount, intentHash] = ['TAKEN', BigInt(event.value.transferredAmount), event.value.intentHash];
        // A partial release gives the rest of the lock back to the deposit.
        state = {
          ...state,
          available: state.available + unlocked - amount,
          locked: state.locked - unlocked,
          totalTaken: state.totalTaken + amount,
          intentsFulfilled: state.intentsFulfilled + 1,
        };
        break;
      }
      default:
        continue;
    }
    movements.push({
      type,
      amount,
      intentHash: intentHash?.toLowerCase() ?? null,
      transactionHash: fact.transactionHash,
      blockNumber: fact.blockNumber,
      at: Number(fact.blockTimestamp),
      after: state,
    });
  }
  return movements;
}

/** The fund events alone: what the maker put in, took out, and the close. */
export function fundEventsOf(movements: readonly Movement[]): (Movement & { type: FundEventType })[] {
  return movements.filter((movement): movement is Movement & { type: FundEventType } => (FUND_EVENT_TYPES as readonly string[]).includes(movement.type));
}

export interface ProfitSnapshot {
  intentHash: string;
  fulfilledAt: number;
  amountTaken: bigint;
  /** Of this fulfilment; 0 without a reference rate. */
  realizedProfitUsd: bigint;
  cumulativeAmountTaken: bigint;
  cumulativeRealizedProfitUsd: bigint;
}

/** After each fulfilment on the deposit, oldest first: what it and all before it made. */
export function profitSnapshotsOf(records: readonly IntentRecordDoc[]): ProfitSnapshot[] {
  const fills = records.flatMap((record) => {
    const fill = fillOf(record);
    return fill ? [{ intentHash: record._id, ...fill }] : [];
  });
  fills.sort((a, b) => a.fulfilledAt - b.fulfilledAt || (a.intentHash < b.intentHash ? -1 : 1));
  let amount = 0n;
  let profit = 0n;
  return fills.map((fill) => ({
    intentHash: fill.intentHash,
    fulfilledAt: fill.fulfilledAt,
    amountTaken: fill.released,
    realizedProfitUsd: fill.profit,
    cumulativeAmountTaken: (amount += fill.released),
    cumulativeRealizedProfitUsd: (profit += fill.profit),
  }));
}

export interface DailySnapshot {
  /** YYYY-MM-DD, a UTC day. */
  date: string;
  /** The deposit at the end of the day. */
  state: DepositState;
  /** Lifetime realised profit at the end of the day. */
  realizedProfitUsd: bigint;
}

/**
 * The deposit at the end of each of the last `limit` UTC days up to the one `now` (Unix
 * seconds) falls in, oldest first, none before the day it was created.
 */
export function dailySnapshotsOf(
  movements: readonly Movement[],
  profits: readonly ProfitSnapshot[],
  createdAt: number,
  now: number,
  limit: number,
): DailySnapshot[] {
  const today = Math.floor(now / DAY_SECONDS);
  const first = Math.max(Math.floor(createdAt / DAY_SECONDS), today - limit + 1);
  const snapshots: DailySnapshot[] = [];
  let moved = 0;
  let fulfilled = 0;
  let state = EMPTY;
  let profit = 0n;
  for (let day = first; day <= today; day++) {
    const end = (day + 1) * DAY_SECONDS;
    // Movements are in log order, which is block order: their times do not go back.
    for (; moved < movements.length && movements[moved]!.at < end; moved++) state = movements[moved]!.after;
    for (; fulfilled < profits.length && profits[fulfilled]!.fulfilledAt < end; fulfilled++) profit = profits[fulfilled]!.cumulativeRealizedProfitUsd;
    snapshots.push({ date: utcDate(day), state, realizedProfitUsd: profit });
  }
  return snapshots;
}
