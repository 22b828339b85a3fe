/**
 * The market's records as the actor layer keeps them (actors/market): an intent with what
 * its maker earned on it, a deposit as the indexer folds it, and a fact that moved a
 * deposit's USDC. Plain data, so the market's figures are pure functions of them.
 */
export type IntentStatusName = 'SIGNALED' | 'FULFILLED' | 'PRUNED';

/**
 * One intent in the store. Amounts are USDC base units and rates decimal strings (a document
 * store holds no bigint); hashes and addresses are lower-case hex; times are Unix seconds
 * of blocks, except `updatedAt` (the node's clock, milliseconds).
 */
export type IntentRecordDoc = {
  /** The intent hash. */
  _id: string;
  depositId: string;
  /** The deposit's depositor: the maker whose figures the intent counts in. */
  maker: string;
  /** keccak256 of the platform id and of the ISO currency code, as the intent carries them. */
  paymentMethod: string;
  fiatCurrency: string;
  /** USDC the intent locked. */
  amount: string;
  /** Fiat per USDC the taker agreed to pay, 18 decimals. */
  conversionRate: string;
  status: IntentStatusName;
  /** The block time the intent was signalled at (its own `timestamp`). */
  signaledAt: number;
  /** The block time of its standing IntentFulfilled; null until fulfilled. */
  fulfilledAt: number | null;
  /** What left the deposit at fulfilment: the taker's share and both fees. "0" until fulfilled. */
  released: string;
  /** Of `released`, what the taker received, and the fees paid out of it. */
  netToTaker: string;
  protocolFee: string;
  referrerFee: string;
  /** The IntentFulfilled fact the fulfilment figures belong to; null until fulfilled. */
  fulfilmentFactId: string | null;
  /**
   * Fiat per USD of the intent's currency, 6 decimals, as the node's rate source gave it when
   * this fulfilment was first recorded; null before fulfilment and for a currency the source
   * does not price.
   */
  referenceRate: string | null;
  /** realizedProfitUsd at that reference, signed USDC base units; null where there is no reference. */
  realizedProfitUsd: string | null;
  /** The fact log's sequence this document reflects at least (as the liquidity book's documents). */
  asOfSequence: number;
  updatedAt: number;
};

/**
 * One deposit in the store. Amounts (token base units) and rates (fiat per USDC, 1e18) are
 * decimal strings, since a document store holds no bigint; hashes are lower-case hex.
 */
export type LiquidityDepositDoc = {
  _id: string;
  depositor: string;
  token: string;
  available: string;
  locked: string;
  intentMin: string;
  intentMax: string;
  closed: boolean;
  isPrivate: boolean;
  sellerAutomatedRelease: boolean;
  disputeProtection: boolean;
  methods: { paymentMethod: string; payeeDetails: string; currencies: { currency: string; minConversionRate: string }[] }[];
  /** Lower-case; null when no rate manager is set. */
  rateManager: string | null;
  intentsSignaled: number;
  intentsFulfilled: number;
  /** Token base units ever put in, and ever released to takers. */
  totalDeposited: string;
  totalTaken: string;
  /** Block times (Unix seconds) of the deposit's creation and of its last standing fact. */
  createdAt: number;
  chainUpdatedAt: number;
  /** `<paymentMethod>:<currency>` for each pair the deposit prices: what the store's index narrows a quote by. */
  offers: string[];
  /**
   * The fact log's sequence this document reflects at least. Later than the answer's own
   * `as_of_sequence` when the fact that prompted the read was a retraction: a retraction
   * takes facts away, so the answer's sequence can go down while the log moves on.
   */
  asOfSequence: number;
  updatedAt: number;
};

/** What a fact did to a deposit's USDC, with the amounts as the escrow logged them (decimal strings). */
export type DepositFactEvent =
  | { $case: 'depositReceived' | 'depositFundsAdded' | 'depositWithdrawn'; value: { amount: string } }
  | { $case: 'depositClosed' }
  | { $case: 'fundsLocked' | 'fundsUnlocked'; value: { amount: string; intentHash: string } }
  | { $case: 'fundsUnlockedAndTransferred'; value: { unlockedAmount: string; transferredAmount: string; intentHash: string } };

/**
 * A standing fact that moved a deposit's USDC, as readers past this adapter take it: plain
 * fields, so they need not know the indexer's generated types.
 */
export interface DepositFact {
  transactionHash: string;
  blockNumber: bigint;
  /** Unix seconds. */
  blockTimestamp: bigint;
  event: DepositFactEvent;
}
