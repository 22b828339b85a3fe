/**
 * actors/kinds: every actor kind, one module each, binding a machine to its view, refusals and effects:
 * merchants, orders, payments, makers, makers' deposits, the relayer's transaction and wallet, sandbox
 * test clocks, payouts and their customers' sign-in codes, merchant dashboard sign-in codes and sessions, and (exported through their own folders) webhooks and deliveries, makers' sign-in and
 * referrals, wallet transfers and provider messages. The boundary test holds every defineKind( here.
 */
export { adminMerchantProfile, merchantKind, merchantProfile, shownPayoutSettings } from './merchant-kind.js';
export { orderKind, orderRefusal, orderSearchText, orderView } from './order-kind.js';
export type { OrderReply, OrderView } from './order-kind.js';
export { transactionKind, transactionKindFor, transactionView, walletFor } from './transaction-kind.js';
export type { PrepareTransactionEvent, TransactionKindOptions, TransactionView } from './transaction-kind.js';
export { walletKind } from './wallet-kind.js';
export { paymentKind, paymentRefusal, paymentStatusOf, paymentStepOf, paymentView } from './payment-kind.js';
export type { PaymentView } from './payment-kind.js';
export { MAKER_RECORD_KIND, MAKER_SEQUENCE_ID, MAKER_SEQUENCE_KIND, makerRecordKind, makerRecordKinds, makerSequenceKind } from './maker-record-kind.js';
export { DEPOSIT_KIND, depositKind, depositKindWith, depositView } from './deposit-kind.js';
export type { DepositView } from './deposit-kind.js';
export { testClockKind, testClockKindOn, testClockView } from './test-clock-kind.js';
export type { TestClockView } from './test-clock-kind.js';
export { payoutKind, payoutPhaseOf, payoutRefusal, payoutView } from './payout-kind.js';
export { CASHOUT_LOGIN_KIND, cashoutLoginKind } from './cashout-login-kind.js';
export { DASHBOARD_LOGIN_KIND, dashboardLoginKind } from './dashboard-login-kind.js';
export type { DashboardLoginReply } from './dashboard-login-kind.js';
export { DASHBOARD_SESSION_KIND, dashboardSessionKind } from './dashboard-session-kind.js';
export type { CashoutLoginReply } from './cashout-login-kind.js';
export type { PayoutKindView } from './payout-kind.js';
export { ACTION_KIND, actionKind } from './action-kind.js';
export { BRIDGE_KIND, bridgeIdOf, bridgeKind } from './bridge-kind.js';
export type { BridgeView } from './bridge-kind.js';
