/**
 * The protocol's events by their exact signatures, and their decoding into the
 * fact bodies of proto/peer/indexer/v1/indexer.proto. Decoding goes by signature,
 * not by our local contracts' artifacts, so the same code reads Base.
 */
import { decodeEventLog, getAddress, parseAbi, type Log } from 'viem';
import type { ChainFact } from '../proto/gen/peer/indexer/v1/indexer.js';

export const escrowEvents = parseAbi([
  'event DepositReceived(uint256 indexed depositId, address indexed depositor, address indexed token, uint256 amount, (uint256,uint256) intentAmountRange, address delegate, address intentGuardian)',
  'event DepositFundsAdded(uint256 indexed depositId, address indexed depositor, uint256 amount)',
  'event DepositWithdrawn(uint256 indexed depositId, address indexed depositor, uint256 amount)',
  'event DepositClosed(uint256 depositId, address depositor)',
  'event DustCollected(uint256 indexed depositId, uint256 amount, address indexed recipient)',
  'event FundsLocked(uint256 indexed depositId, bytes32 indexed intentHash, uint256 amount, uint256 expiryTime)',
  'event FundsUnlocked(uint256 indexed depositId, bytes32 indexed intentHash, uint256 amount)',
  'event FundsUnlockedAndTransferred(uint256 indexed depositId, bytes32 indexed intentHash, uint256 unlockedAmount, uint256 transferredAmount, address to)',
  'event DepositPaymentMethodSet(uint256 indexed depositId, bytes32 indexed paymentMethod, bytes32 payeeDetails)',
  'event DepositCurrencyAdded(uint256 indexed depositId, bytes32 indexed paymentMethod, bytes32 indexed currency, uint256 minConversionRate)',
  'event DepositCurrencyRemoved(uint256 indexed depositId, bytes32 indexed paymentMethod, bytes32 indexed currency)',
  'event DepositMinConversionRateUpdated(uint256 indexed depositId, bytes32 indexed paymentMethod, bytes32 indexed currency, uint256 newMinConversionRate)',
  'event DepositRateManagerSet(uint256 indexed depositId, address indexed rateManager)',
  'event DepositRateBoundsSet(uint256 indexed depositId, bytes32 indexed paymentMethod, bytes32 indexed currency, (uint256,uint256) bounds)',
  'event DepositIntentAmountRangeUpdated(uint256 indexed depositId, (uint256,uint256) intentAmountRange)',
  'event DepositPrivacyUpdated(uint256 indexed depositId, bool isPrivate)',
  'event DepositDisputeProtectionUpdated(uint256 indexed depositId, bool enabled)',
  'event DepositSellerAutomatedReleaseUpdated(uint256 indexed depositId, bool enabled)',
  'event ChargebackCompensated(bytes32 indexed intentHash, bytes32 indexed disputeKey, uint256 indexed depositId, string disputeId, address maker, uint256 claimedAmount, uint256 compensatedAmount, address recipient)',
]);

export const orchestratorEvents = parseAbi([
  'event IntentSignaled(bytes32 indexed intentHash, address indexed escrow, uint256 indexed depositId, bytes32 paymentMethod, address owner, address to, uint256 amount, bytes32 fiatCurrency, uint256 conversionRate, uint256 timestamp)',
  'event IntentFulfilled(bytes32 indexed intentHash, address indexed fundsTransferredTo, uint256 amount, bool isManualRelease)',
  'event IntentPruned(bytes32 indexed intentHash)',
  'event ProtocolFeePaid(bytes32 indexed intentHash, address indexed recipient, uint256 amount)',
  'event ReferrerFeePaid(bytes32 indexed intentHash, address indexed referrer, uint256 amount)',
]);

export const transferEvent = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

export type FactEvent = NonNullable<ChainFact['event']>;

const protocolEvents = [...escrowEvents, ...orchestratorEvents] as const;

/** A protocol log's fact body, or null for a log of another event (the owner's settings, which no fact needs). */
export function decodeProtocolLog(log: Pick<Log, 'data' | 'topics'>): FactEvent | null {
  let decoded;
  try {
    decoded = decodeEventLog({ abi: protocolEvents, data: log.data, topics: log.topics as [] });
  } catch {
    return null;
  }
  switch (decoded.eventName) {
    case 'DepositReceived':
      return {
        $case: 'depositReceived',
        value: {
          depositId: decoded.args.depositId.toString(),
          depositor: getAddress(decoded.args.depositor),
          token: getAddress(decoded.args.token),
          amount: decoded.args.amount.toString(),
          intentAmountMin: decoded.args.intentAmountRange[0].toString(),
          intentAmountMax: decoded.args.intentAmountRange[1].toString(),
          delegate: getAddress(decoded.args.delegate),
          intentGuardian: getAddress(decoded.args.intentGuardian),
        },
      };
    case 'DepositFundsAdded':
      return {
        $case: 'depositFundsAdded',
        value: { depositId: decoded.args.depositId.toString(), depositor: getAddress(decoded.args.depositor), amount: decoded.args.amount.toString() },
      };
    case 'DepositWithdrawn':
      return {
        $case: 'depositWithdrawn',
        value: { depositId: decoded.args.depositId.toString(), depositor: getAddress(decoded.args.depositor), amount: decoded.args.amount.toString() },
      };
    case 'DepositClosed':
      return { $case: 'depositClosed', value: { depositId: decoded.args.depositId.toString(), depositor: getAddress(decoded.args.depositor) } };
    case 'DustCollected':
      return {
        $case: 'dustCollected',
        value: { depositId: decoded.args.depositId.toString(), amount: decoded.args.amount.toString(), recipient: getAddress(decoded.args.recipient) },
      };
    case 'FundsLocked':
      return {
        $case: 'fundsLocked',
        value: {
          depositId: decoded.args.depositId.toString(),
          intentHash: decoded.args.intentHash,
          amount: decoded.args.amount.toString(),
          expiryTime: decoded.args.expiryTime,
        },
      };
    case 'FundsUnlocked':
      return {
        $case: 'fundsUnlocked',
        value: { depositId: decoded.args.depositId.toString(), intentHash: decoded.args.intentHash, amount: decoded.args.amount.toString() },
      };
    case 'FundsUnlockedAndTransferred':
      return {
        $case: 'fundsUnlockedAndTransferred',
        value: {
          depositId: decoded.args.depositId.toString(),
          intentHash: decoded.args.intentHash,
          unlockedAmount: decoded.args.unlockedAmount.toString(),
          transferredAmount: decoded.args.transferredAmount.toString(),
          to: getAddress(decoded.args.to),
        },
      };
    case 'IntentSignaled':
      return {
        $case: 'intentSignaled',
        value: {
          intentHash: decoded.args.intentHash,
          escrow: getAddress(decoded.args.escrow),
          depositId: decoded.args.depositId.toString(),
          paymentMethod: decoded.args.paymentMethod,
          owner: getAddress(decoded.args.owner),
          to: getAddress(decoded.args.to),
          amount: decoded.args.amount.toString(),
          fiatCurrency: decoded.args.fiatCurrency,
          conversionRate: decoded.args.conversionRate.toString(),
          timestamp: decoded.args.timestamp,
        },
      };
    case 'IntentFulfilled':
      return {
        $case: 'intentFulfilled',
        value: {
          intentHash: decoded.args.intentHash,
          fundsTransferredTo: getAddress(decoded.args.fundsTransferredTo),
          amount: decoded.args.amount.toString(),
          isManualRelease: decoded.args.isManualRelease,
        },
      };
    case 'IntentPruned':
      return { $case: 'intentPruned', value: { intentHash: decoded.args.intentHash } };
    case 'DepositPaymentMethodSet': {
      const { depositId, paymentMethod, payeeDetails } = decoded.args;
      return { $case: 'depositPaymentMethodSet', value: { depositId: depositId.toString(), paymentMethod, payeeDetails } };
    }
    case 'DepositCurrencyAdded': {
      const { depositId, paymentMethod, currency, minConversionRate } = decoded.args;
      return {
        $case: 'depositCurrencyAdded',
        value: { depositId: depositId.toString(), paymentMethod, currency, minConversionRate: minConversionRate.toString() },
      };
    }
    case 'DepositCurrencyRemoved': {
      const { depositId, paymentMethod, currency } = decoded.args;
      return { $case: 'depositCurrencyRemoved', value: { depositId: depositId.toString(), paymentMethod, currency } };
    }
    case 'DepositMinConversionRateUpdated': {
      const { depositId, paymentMethod, currency, newMinConversionRate } = decoded.args;
      return {
        $case: 'depositMinConversionRateUpdated',
        value: { depositId: depositId.toString(), paymentMethod, currency, minConversionRate: newMinConversionRate.toString() },
      };
    }
    case 'DepositRateManagerSet':
      return { $case: 'depositRateManagerSet', value: { depositId: decoded.args.depositId.toString(), rateManager: getAddress(decoded.args.rateManager) } };
    case 'DepositRateBoundsSet': {
      const { depositId, paymentMethod, currency, bounds } = decoded.args;
      return {
        $case: 'depositRateBoundsSet',
        value: { depositId: depositId.toString(), paymentMethod, currency, min: bounds[0].toString(), max: bounds[1].toString() },
      };
    }
    case 'DepositIntentAmountRangeUpdated': {
      const { depositId, intentAmountRange } = decoded.args;
      return {
        $case: 'depositIntentAmountRangeUpdated',
        value: { depositId: depositId.toString(), intentAmountMin: intentAmountRange[0].toString(), intentAmountMax: intentAmountRange[1].toString() },
      };
    }
    case 'DepositPrivacyUpdated':
      return { $case: 'depositPrivacyUpdated', value: { depositId: decoded.args.depositId.toString(), isPrivate: decoded.args.isPrivate } };
    case 'DepositDisputeProtectionUpdated':
      return { $case: 'depositDisputeProtectionUpdated', value: { depositId: decoded.args.depositId.toString(), enabled: decoded.args.enabled } };
    case 'DepositSellerAutomatedReleaseUpdated':
      return { $case: 'depositSellerAutomatedReleaseUpdated', value: { depositId: decoded.args.depositId.toString(), enabled: decoded.args.enabled } };
    case 'ChargebackCompensated': {
      const { intentHash, disputeId, depositId, maker, claimedAmount, compensatedAmount, recipient } = decoded.args;
      return {
        $case: 'chargebackCompensated',
        value: {
          intentHash,
          disputeId,
          depositId: depositId.toString(),
          maker: getAddress(maker),
          claimedAmount: claimedAmount.toString(),
          compensatedAmount: compensatedAmount.toString(),
          recipient: getAddress(recipient),
        },
      };
    }
    case 'ProtocolFeePaid':
      return {
        $case: 'protocolFeePaid',
        value: { intentHash: decoded.args.intentHash, recipient: getAddress(decoded.args.recipient), amount: decoded.args.amount.toString() },
      };
    case 'ReferrerFeePaid':
      return {
        $case: 'referrerFeePaid',
        value: { intentHash: decoded.args.intentHash, referrer: getAddress(decoded.args.referrer), amount: decoded.args.amount.toString() },
      };
  }
}

/** A USDC Transfer log's fact body, or null when the log is not a Transfer. */
export function decodeTransferLog(log: Pick<Log, 'data' | 'topics'>): Extract<FactEvent, { $case: 'usdcTransfer' }> | null {
  try {
    const { args } = decodeEventLog({ abi: transferEvent, data: log.data, topics: log.topics as [] });
    return { $case: 'usdcTransfer', value: { from: getAddress(args.from), to: getAddress(args.to), value: args.value.toString() } };
  } catch {
    return null;
  }
}
