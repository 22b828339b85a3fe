/**
 * What a fact is about, as subscribers and lookups name it: an address (a USDC transfer's
 * sender and receiver), a deposit, an intent. The indexer files every fact under these
 * keys; the chain-facts reader sends a fact to the actors subscribed to them. Part of the
 * indexer's contract, so it lives beside the .proto both sides import (ARCHITECTURE: the
 * indexer and the actors may import proto/, not each other).
 */
import type { ChainFact } from './gen/peer/indexer/v1/indexer.js';

export type ChainSubject = { address: string } | { depositId: string } | { intentHash: string };

/** One string per subject, as facts are filed: addresses and hashes in lower case. */
export function subjectKey(subject: ChainSubject): string {
  if ('address' in subject) return `address:${subject.address.toLowerCase()}`;
  if ('depositId' in subject) return `deposit:${subject.depositId}`;
  return `intent:${subject.intentHash.toLowerCase()}`;
}

/** Everything a fact is about, as subscribers name it. */
export function subjectsOf(fact: ChainFact): ChainSubject[] {
  const event = fact.event;
  if (!event) return [];
  switch (event.$case) {
    case 'usdcTransfer':
      return [{ address: event.value.from }, { address: event.value.to }];
    case 'depositReceived':
    case 'depositFundsAdded':
    case 'depositWithdrawn':
    case 'depositClosed':
    case 'dustCollected':
    case 'depositPaymentMethodSet':
    case 'depositCurrencyAdded':
    case 'depositCurrencyRemoved':
    case 'depositMinConversionRateUpdated':
    case 'depositRateManagerSet':
    case 'depositRateBoundsSet':
    case 'depositIntentAmountRangeUpdated':
    case 'depositPrivacyUpdated':
    case 'depositDisputeProtectionUpdated':
    case 'depositSellerAutomatedReleaseUpdated':
      return [{ depositId: event.value.depositId }];
    case 'fundsLocked':
    case 'fundsUnlocked':
    case 'fundsUnlockedAndTransferred':
    case 'intentSignaled':
    case 'chargebackCompensated':
      return [{ depositId: event.value.depositId }, { intentHash: event.value.intentHash }];
    case 'intentFulfilled':
    case 'intentPruned':
    case 'protocolFeePaid':
    case 'referrerFeePaid':
      return [{ intentHash: event.value.intentHash }];
  }
}
