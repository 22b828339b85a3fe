/**
 * machines/payout: document 2's payout, merchant's side: the machine, its view, the funding
 * arithmetic and tally, the payout rails, a merchant's payout settings and the funding catalog;
 * customer's side: the crypto destinations a customer can be paid to and their addresses, and
 * the payout-only policy the customer's wallet signs under.
 */
export { bridgeView, settleTxOf } from './bridge-view.js';
export type { PayoutBridgeView } from './bridge-view.js';
export { addressRefusal, destinationAddress } from './destination-address.js';
export type { AddressRefusalReason, DestinationAddress, PayoutOwnAddresses } from './destination-address.js';
export {
  DESTINATION_NETWORKS,
  PAY_CRYPTO_TOKEN_SYMBOLS,
  destinationNetwork,
  destinationToken,
  destinationTokens,
  isBaseUsdc,
} from './destination-catalog.js';
export type { DestinationKind, DestinationNetwork, DestinationToken, PayCryptoTokenSymbol } from './destination-catalog.js';
export {
  BASE_CHAIN_ID as PAYOUT_CHAIN_ID,
  BASE_USDC_ADDRESS,
  BITCOIN_CHAIN_ID,
  BTC_TOKEN_ADDRESS,
  FUNDING_CHAIN_IDS,
  FUNDING_CHAINS,
  NATIVE_TOKEN_ADDRESS,
  fundingChain,
  fundingToken,
} from './funding-catalog.js';
export type { FundingChain, FundingToken } from './funding-catalog.js';
export { countedTransferIds, fundingTally, mergeTransfers, movedDeadline, newFundingIssues, tallyOf } from './funding-state.js';
export type { FundingTally } from './funding-state.js';
export { depositSize, feeOf, fundingBuffer, grossDeposit, payoutQuoteAmounts } from './payout-amounts.js';
export type { PayoutQuoteAmounts } from './payout-amounts.js';
export { payoutMachine } from './payout-machine.js';
export type { PayoutEmitted } from './payout-machine.js';
export { PAYOUT_CRYPTO_RAILS, PAYOUT_FIAT_RAILS, PAYOUT_RAILS, RETIRED_CRYPTO_RAIL, isPayoutCryptoRail, isPayoutRail, normaliseRails } from './payout-rails.js';
export {
  fiatConnectionOf,
  handleRuleOf,
  methodReady,
  methodView,
  payeeIdOn,
  PAYOUT_CURRENCIES,
  RAIL_CURRENCIES,
  RAIL_PLATFORMS,
} from './payout-methods.js';
export type { CryptoDestination, FiatConnection, PayoutCurrency, PayoutMethod } from './payout-methods.js';
export { CASHOUT_ACTIONS, cashoutActions } from './cashout-actions.js';
export type { CashoutAction } from './cashout-actions.js';
export {
  buyerRange,
  fiatCents,
  LISTING_MAX_USDC,
  LISTING_MIN_USDC,
  MAX_BUYER_USDC,
  unpaidUsdc,
  WALLET_CHECK_GRACE_MS,
  WALLET_CHECK_MS,
  walletSpent,
} from './listing-state.js';
export type { ListingFact } from './listing-state.js';
export type { PayoutCryptoRail, PayoutFiatRail, PayoutRail } from './payout-rails.js';
export {
  DEFAULT_PAYOUT_STEP_USDC,
  DEFAULT_SERVICE_FEE_BPS,
  MAX_MERCHANT_FEE_BPS,
  MAX_PAYOUT_USDC,
  defaultPayoutSettings,
  fundingTokenKey,
} from './payout-settings.js';
export type { PayoutSettings } from './payout-settings.js';
export { batchRefusal, delegationRefusal, PAYOUT_SIGNER_TRANSFER_CAP, policyRefusal } from './payout-signer-policy.js';
export type { CallRefusal, CallRefusalCode, PayoutSignerTargets, PolicyRefusal, SigningRefusal } from './payout-signer-policy.js';
export type {
  FundingIssue,
  ListPayoutParams,
  PayoutBridge,
  PayoutBridgeQuote,
  PayoutBridgeStatus,
  PayoutExit,
  ObservedTransfer,
  PayoutContext,
  PayoutEvent,
  PayoutFunding,
  PayoutFundingStatus,
  PayoutInput,
  PayoutPhase,
  PayoutStatus,
  PayoutTerms,
  PayoutTimelineEntry,
  ReportedTransfer,
} from './payout-types.js';
export { fundingStatusOf, toPayoutView } from './payout-view.js';
export type { PayoutView } from './payout-view.js';
