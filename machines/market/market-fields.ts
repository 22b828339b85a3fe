/**
 * Fields the orderbook, the leaderboard and the deposit bundle all answer, written one way:
 * a deposit's id across escrows and chains, a success rate, a block time, a signed USDC
 * figure (a realised profit is a loss when negative).
 */
import { formatUsdc } from '../money.js';

export const DAY_SECONDS = 86_400;

/** USDC has 6 decimals, fiat 2 and an intent's rate 18: a USDC amount times a rate, over this, is fiat cents. */
export const USDC_RATE_TO_CENTS = 10n ** 22n;

/** The UTC date (`YYYY-MM-DD`) of a day counted in whole days since the Unix epoch. */
export function utcDate(day: number): string {
  return new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 10);
}

/** `<chainId>_<escrow, lower case>_<depositIdOnContract>`: unique across escrows and chains. */
export function depositIdOf(chainId: number, escrow: string, depositIdOnContract: string): string {
  return `${chainId}_${escrow.toLowerCase()}_${depositIdOnContract}`;
}

/** Intents fulfilled per 10,000 signalled, rounded down; 0 before the first. */
export function successRateBps(counts: { intentsSignaled: number; intentsFulfilled: number }): number {
  return counts.intentsSignaled === 0 ? 0 : Math.floor((counts.intentsFulfilled * 10_000) / counts.intentsSignaled);
}

/** Unix seconds (a block time) as ISO 8601. */
export function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** USDC with a sign. */
export function signedUsdc(units: bigint): string {
  return units < 0n ? `-${formatUsdc(-units)}` : formatUsdc(units);
}
