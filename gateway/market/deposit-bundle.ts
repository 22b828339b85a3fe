/**
 * Document 3's deposit bundle: one deposit as the indexer tells it now (GetDeposit and its
 * standing facts), with its intents from the intent ledger, and what is made of them
 * (deposit-bundle-figures.ts). A reading is kept for `cacheMs` per deposit, the most recently
 * read ones only; `forceRefresh` reads the indexer again. Daily snapshots are cut from the
 * kept reading at each request, against the node's clock.
 */
import type { Logger } from 'pino';
import { zeroAddress } from 'viem';
import type { DepositFacts, DepositReading, IntentLedger, IntentRecordDoc } from '../../actors/market/index.js';
import { formatRate, formatUsdc } from '../../machines/money.js';
import { ApiError } from '../envelope.js';
import {
  dailySnapshotsOf,
  fundEventsOf,
  movementsOf,
  profitSnapshotsOf,
  type DepositState,
  type Movement,
  type ProfitSnapshot,
} from '../../machines/market/deposit-bundle-figures.js';
import { depositIdOf, isoSeconds, signedUsdc, successRateBps } from '../../machines/market/market-fields.js';
import { currencyOfHash, platformOfHash } from '../../machines/market/market-names.js';

/** Document 3 calls the bundle's cache short-lived; a bundle is one deposit, so less than the orderbook's. */
export const BUNDLE_CACHE_MS = 10_000;
/** Readings kept at once: the deposits being looked at now. */
const KEPT_READINGS = 256;

export interface DepositBundleSettings {
  /** As the orderbook reports its deposits. */
  chainId: number;
  escrow: string;
  cacheMs: number;
}

export interface DepositBundleDependencies {
  deposits: Pick<DepositFacts, 'read'>;
  ledger: Pick<IntentLedger, 'ofDeposit'>;
  /** Milliseconds since the epoch, on the node's clock. */
  now(): number;
  logger: Logger;
}

export interface BundleQuery {
  escrowAddress: string;
  dailySnapshotLimit: number;
  forceRefresh: boolean;
}

/** A reading and what is made of its whole history, computed once per reading; daily snapshots depend on the clock and are cut per request. */
interface Kept {
  readAt: number;
  reading: DepositReading;
  intents: IntentRecordDoc[];
  movements: Movement[];
  profits: ProfitSnapshot[];
}

export class DepositBundles {
  readonly #kept = new Map<string, Kept>();

  constructor(
    private readonly deps: DepositBundleDependencies,
    readonly settings: DepositBundleSettings,
  ) {}

  async bundle(depositIdOnContract: string, query: BundleQuery) {
    if (query.escrowAddress.toLowerCase() !== this.settings.escrow.toLowerCase()) {
      throw new ApiError(404, `This node reads the escrow ${this.settings.escrow}, not ${query.escrowAddress}`, 'DEPOSIT_NOT_FOUND');
    }
    const id = BigInt(depositIdOnContract).toString();
    const kept = await this.#reading(id, query.forceRefresh);
    const { deposit } = kept.reading;
    const received = deposit.deposit!;
    const { movements, profits } = kept;
    const createdAt = Number(deposit.createdAt);
    return {
      chainId: this.settings.chainId,
      escrowAddress: this.settings.escrow,
      depositId: depositIdOf(this.settings.chainId, this.settings.escrow, id),
      depositIdOnContract: id,
      generatedAt: new Date(kept.readAt).toISOString(),
      deposit: {
        depositor: received.depositor,
        token: received.token,
        availableTokenAmount: formatUsdc(BigInt(deposit.available)),
        lockedTokenAmount: formatUsdc(BigInt(deposit.locked)),
        totalDeposited: formatUsdc(BigInt(deposit.totalDeposited)),
        totalAmountTaken: formatUsdc(BigInt(deposit.totalTaken)),
        intentAmountMin: formatUsdc(BigInt(deposit.intentAmountMin)),
        intentAmountMax: formatUsdc(BigInt(deposit.intentAmountMax)),
        closed: deposit.closed,
        isPrivate: deposit.isPrivate,
        sellerAutomatedRelease: deposit.sellerAutomatedRelease,
        disputeProtectionEnabled: deposit.disputeProtectionEnabled,
        rateManagerId: deposit.rateManager.toLowerCase() === zeroAddress ? null : deposit.rateManager.toLowerCase(),
        paymentMethods: deposit.paymentMethods.map((method) => ({
          paymentMethodHash: method.paymentMethod.toLowerCase(),
          paymentPlatform: platformOfHash(method.paymentMethod),
          payeeDetailsHash: method.payeeDetails.toLowerCase(),
          currencies: deposit.currencies
            .filter((priced) => priced.paymentMethod.toLowerCase() === method.paymentMethod.toLowerCase())
            .map((priced) => ({
              currencyCode: priced.currency.toLowerCase(),
              currency: currencyOfHash(priced.currency),
              conversionRate: priced.minConversionRate,
            })),
        })),
        intentsSignaled: deposit.intentsSignaled,
        intentsFulfilled: deposit.intentsFulfilled,
        successRateBps: successRateBps(deposit),
        createdAt: isoSeconds(createdAt),
        updatedAt: isoSeconds(Number(deposit.updatedAt)),
      },
      intents: kept.intents.map((record) => ({
        intentHash: record._id,
        status: record.status,
        amount: formatUsdc(BigInt(record.amount)),
        conversionRate: record.conversionRate,
        paymentMethodHash: record.paymentMethod,
        paymentPlatform: platformOfHash(record.paymentMethod),
        currencyCode: record.fiatCurrency,
        currency: currencyOfHash(record.fiatCurrency),
        signaledAt: isoSeconds(record.signaledAt),
        fulfilledAt: record.fulfilledAt === null ? null : isoSeconds(record.fulfilledAt),
        amountTaken: formatUsdc(BigInt(record.released)),
        netToTaker: formatUsdc(BigInt(record.netToTaker)),
        protocolFee: formatUsdc(BigInt(record.protocolFee)),
        referrerFee: formatUsdc(BigInt(record.referrerFee)),
        referenceRate: record.referenceRate === null ? null : formatRate(BigInt(record.referenceRate)),
        realizedProfitUsd: record.realizedProfitUsd === null ? null : signedUsdc(BigInt(record.realizedProfitUsd)),
      })),
      fundEvents: fundEventsOf(movements).map(({ type, amount, transactionHash, blockNumber, at }) => ({
        type,
        amount: formatUsdc(amount),
        transactionHash,
        blockNumber: Number(blockNumber),
        timestamp: isoSeconds(at),
      })),
      profitSnapshots: profits.map((snapshot) => ({
        intentHash: snapshot.intentHash,
        fulfilledAt: isoSeconds(snapshot.fulfilledAt),
        amountTaken: formatUsdc(snapshot.amountTaken),
        realizedProfitUsd: signedUsdc(snapshot.realizedProfitUsd),
        cumulativeAmountTaken: formatUsdc(snapshot.cumulativeAmountTaken),
        cumulativeRealizedProfitUsd: signedUsdc(snapshot.cumulativeRealizedProfitUsd),
      })),
      fundActivity: movements.map((movement) => activityText(movement)),
      dailySnapshots: dailySnapshotsOf(movements, profits, createdAt, Math.floor(this.deps.now() / 1000), query.dailySnapshotLimit).map((day) => ({
        date: day.date,
        ...stateText(day.state),
        realizedProfitUsd: signedUsdc(day.realizedProfitUsd),
      })),
    };
  }

  async #reading(depositId: string, forceRefresh: boolean): Promise<Kept> {
    const kept = this.#kept.get(depositId);
    const now = this.deps.now();
    if (kept && !forceRefresh && now - kept.readAt < this.settings.cacheMs) return kept;
    let reading: DepositReading | null;
    let intents: IntentRecordDoc[];
    try {
      [reading, intents] = await Promise.all([this.deps.deposits.read(depositId), this.deps.ledger.ofDeposit(depositId)]);
    } catch (error) {
      this.deps.logger.warn({ err: error, depositId }, 'a deposit bundle could not be read');
      throw new ApiError(503, 'The deposit cannot be read right now; retry shortly', 'DEPOSIT_BUNDLE_UNAVAILABLE', null, undefined, { cause: error });
    }
    if (!reading) {
      this.#kept.delete(depositId);
      throw new ApiError(404, `No deposit ${depositId} in the escrow ${this.settings.escrow}`, 'DEPOSIT_NOT_FOUND');
    }
    const fresh: Kept = { readAt: now, reading, intents, movements: movementsOf(reading.facts), profits: profitSnapshotsOf(intents) };
    // Kept in the order read: the oldest reading leaves first.
    this.#kept.delete(depositId);
    this.#kept.set(depositId, fresh);
    if (this.#kept.size > KEPT_READINGS) this.#kept.delete(this.#kept.keys().next().value!);
    return fresh;
  }
}

/** The bundle on a node that reads no chain: there are no deposits. */
export function noDepositBundles(): ApiError {
  return new ApiError(503, 'This node reads no chain, so it has no deposits', 'DEPOSIT_BUNDLE_UNAVAILABLE');
}

function stateText(state: DepositState) {
  return {
    availableTokenAmount: formatUsdc(state.available),
    lockedTokenAmount: formatUsdc(state.locked),
    totalDeposited: formatUsdc(state.totalDeposited),
    totalAmountTaken: formatUsdc(state.totalTaken),
    intentsSignaled: state.intentsSignaled,
    intentsFulfilled: state.intentsFulfilled,
  };
}

function activityText(movement: Movement) {
  return {
    type: movement.type,
    amount: formatUsdc(movement.amount),
    intentHash: movement.intentHash,
    transactionHash: movement.transactionHash,
    blockNumber: Number(movement.blockNumber),
    timestamp: isoSeconds(movement.at),
    after: stateText(movement.after),
  };
}
