/** What the server tells the payout checkout page beside the payout. */
export interface CashoutPageConfig {
  /** Where a development node shows the mail it caught instead of sending (a sign-in code among it); null on every other node. */
  caughtMailUrl: string | null;
}
