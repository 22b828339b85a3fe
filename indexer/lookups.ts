/**
 * Lookups in the fact log: the facts about one subject from a sequence, and an intent or a
 * deposit as its standing facts tell it (retracted facts left out). They let an actor that
 * learns an intent hash or a deposit after its facts went by catch up, instead of waiting
 * for facts that will not come again.
 */
import { status as Status } from '@grpc/grpc-js';
import { isAddress, isHash, zeroAddress, zeroHash } from 'viem';
import {
  ChainFact,
  IntentStatus,
  type DepositCurrencyAdded,
  type DepositPaymentMethodSet,
  type DepositRateBoundsSet,
  type GetDepositRequest,
  type GetDepositResponse,
  type GetIntentRequest,
  type GetIntentResponse,
  type ListFactsRequest,
  type ListFactsResponse,
} from '../proto/gen/peer/indexer/v1/indexer.js';
import { subjectKey, type ChainSubject } from '../proto/fact-subjects.js';
import type { IndexerCollections } from './fact-store.js';
import type { ChainContracts } from './follower.js';
import { ServiceError } from './service-error.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

export async function listFacts(request: ListFactsRequest, collections: IndexerCollections, epoch: string): Promise<ListFactsResponse> {
  if (request.limit > MAX_LIMIT) throw new ServiceError(Status.INVALID_ARGUMENT, `limit is at most ${MAX_LIMIT}`);
  const key = subjectKey(subjectOf(request));
  const limit = request.limit || DEFAULT_LIMIT;
  const docs = await collections.facts.find({ subjects: key, sequence: { $gt: Number(request.afterSequence) } }, { sort: { sequence: 1 }, limit: limit + 1 });
  return {
    facts: docs.slice(0, limit).map((doc) => ({ ...ChainFact.fromJSON(doc.fact), logEpoch: epoch })),
    hasMore: docs.length > limit,
    logEpoch: epoch,
  };
}

export async function getIntent(request: GetIntentRequest, collections: IndexerCollections): Promise<GetIntentResponse> {
  if (!isHash(request.intentHash)) throw new ServiceError(Status.INVALID_ARGUMENT, `not an intent hash (0x and 64 hex digits): ${request.intentHash}`);
  const facts = await standingFacts(collections, { intentHash: request.intentHash });
  const answer: GetIntentResponse = {
    intent: undefined,
    status: IntentStatus.INTENT_STATUS_SIGNALED,
    fulfilled: undefined,
    protocolFee: '0',
    referrerFee: '0',
    asOfSequence: 0n,
  };
  for (const fact of facts) {
    answer.asOfSequence = fact.sequence;
    const event = fact.event;
    if (event?.$case === 'intentSignaled') answer.intent = event.value;
    else if (event?.$case === 'intentFulfilled') [answer.status, answer.fulfilled] = [IntentStatus.INTENT_STATUS_FULFILLED, event.value];
    else if (event?.$case === 'intentPruned') answer.status = IntentStatus.INTENT_STATUS_PRUNED;
    else if (event?.$case === 'protocolFeePaid') answer.protocolFee = event.value.amount;
    else if (event?.$case === 'referrerFeePaid') answer.referrerFee = event.value.amount;
  }
  if (!answer.intent) throw new ServiceError(Status.NOT_FOUND, `no intent ${request.intentHash} in the fact log`);
  return answer;
}

export async function getDeposit(request: GetDepositRequest, collections: IndexerCollections, contracts: ChainContracts): Promise<GetDepositResponse> {
  if (!isAddress(request.escrow, { strict: false })) throw new ServiceError(Status.INVALID_ARGUMENT, `not an address: ${request.escrow}`);
  const depositId = depositIdOf(request.depositId);
  if (request.escrow.toLowerCase() !== contracts.escrow.toLowerCase()) {
    throw new ServiceError(Status.NOT_FOUND, `this indexer reads the escrow ${contracts.escrow}, not ${request.escrow}`);
  }
  const facts = await standingFacts(collections, { depositId });
  let available = 0n;
  let locked = 0n;
  const methods = new Map<string, DepositPaymentMethodSet>();
  const currencies = new Map<string, DepositCurrencyAdded>();
  const bounds = new Map<string, DepositRateBoundsSet>();
  const answer: GetDepositResponse = {
    deposit: undefined,
    closed: false,
    available: '0',
    locked: '0',
    intentAmountMin: '0',
    intentAmountMax: '0',
    paymentMethods: [],
    currencies: [],
    rateManager: zeroAddress,
    isPrivate: false,
    disputeProtectionEnabled: false,
    sellerAutomatedRelease: false,
    asOfSequence: 0n,
    rateBounds: [],
    intentsSignaled: 0,
    intentsFulfilled: 0,
    totalDeposited: '0',
    totalTaken: '0',
    createdAt: 0n,
    updatedAt: 0n,
  };
  let deposited = 0n;
  let taken = 0n;
  // The escrow's own arithmetic (Escrow.sol), replayed.
  for (const fact of facts) {
    answer.asOfSequence = fact.sequence;
    answer.updatedAt = fact.blockTimestamp;
    const event = fact.event;
    switch (event?.$case) {
      case 'depositReceived':
        answer.deposit = event.value;
        answer.createdAt = fact.blockTimestamp;
        available = BigInt(event.value.amount);
        deposited = available;
        [answer.intentAmountMin, answer.intentAmountMax] = [event.value.intentAmountMin, event.value.intentAmountMax];
        break;
      case 'depositFundsAdded':
        available += BigInt(event.value.amount);
        deposited += BigInt(event.value.amount);
        break;
      case 'depositWithdrawn':
        available -= BigInt(event.value.amount);
        break;
      case 'depositClosed':
        answer.closed = true;
        break;
      case 'dustCollected':
        available -= BigInt(event.value.amount);
        break;
      case 'fundsLocked':
        available -= BigInt(event.value.amount);
        locked += BigInt(event.value.amount);
        answer.intentsSignaled += 1;
        break;
      case 'fundsUnlocked':
        locked -= BigInt(event.value.amount);
        available += BigInt(event.value.amount);
        break;
      case 'fundsUnlockedAndTransferred':
        locked -= BigInt(event.value.unlockedAmount);
        available += BigInt(event.value.unlockedAmount) - BigInt(event.value.transferredAmount);
        taken += BigInt(event.value.transferredAmount);
        answer.intentsFulfilled += 1;
        break;
      case 'depositPaymentMethodSet':
        if (event.value.payeeDetails === zeroHash) methods.delete(event.value.paymentMethod);
        else methods.set(event.value.paymentMethod, event.value);
        break;
      case 'depositCurrencyAdded':
        currencies.set(`${event.value.paymentMethod}:${event.value.currency}`, event.value);
        break;
      case 'depositMinConversionRateUpdated':
        currencies.set(`${event.value.paymentMethod}:${event.value.currency}`, { ...event.value });
        break;
      case 'depositCurrencyRemoved':
        currencies.delete(`${event.value.paymentMethod}:${event.value.currency}`);
        break;
      case 'depositRateBoundsSet':
        bounds.set(`${event.value.paymentMethod}:${event.value.currency}`, event.value);
        break;
      case 'depositRateManagerSet':
        answer.rateManager = event.value.rateManager;
        break;
      case 'depositIntentAmountRangeUpdated':
        [answer.intentAmountMin, answer.intentAmountMax] = [event.value.intentAmountMin, event.value.intentAmountMax];
        break;
      case 'depositPrivacyUpdated':
        answer.isPrivate = event.value.isPrivate;
        break;
      case 'depositDisputeProtectionUpdated':
        answer.disputeProtectionEnabled = event.value.enabled;
        break;
      case 'depositSellerAutomatedReleaseUpdated':
        answer.sellerAutomatedRelease = event.value.enabled;
        break;
      default:
        break;
    }
  }
  if (!answer.deposit) throw new ServiceError(Status.NOT_FOUND, `no deposit ${depositId} of ${contracts.escrow} in the fact log`);
  return {
    ...answer,
    available: available.toString(),
    locked: locked.toString(),
    totalDeposited: deposited.toString(),
    totalTaken: taken.toString(),
    paymentMethods: [...methods.values()],
    currencies: [...currencies.values()],
    rateBounds: [...bounds.values()],
  };
}

function subjectOf(request: ListFactsRequest): ChainSubject {
  const subject = request.subject;
  switch (subject?.$case) {
    case 'depositId':
      return { depositId: depositIdOf(subject.value) };
    case 'intentHash':
      if (!isHash(subject.value)) throw new ServiceError(Status.INVALID_ARGUMENT, `not an intent hash (0x and 64 hex digits): ${subject.value}`);
      return { intentHash: subject.value };
    case 'address':
      if (!isAddress(subject.value, { strict: false })) throw new ServiceError(Status.INVALID_ARGUMENT, `not an address: ${subject.value}`);
      return { address: subject.value };
    default:
      throw new ServiceError(Status.INVALID_ARGUMENT, 'name a subject: deposit_id, intent_hash or address');
  }
}

/** A deposit id as facts carry it (a decimal uint256 without leading zeros), or INVALID_ARGUMENT. */
function depositIdOf(value: string): string {
  if (!/^[0-9]{1,78}$/.test(value)) throw new ServiceError(Status.INVALID_ARGUMENT, `not a deposit id (a decimal integer): ${value}`);
  return BigInt(value).toString();
}

/** The facts about `subject` that stand (neither retracted nor retractions), in log order. */
async function standingFacts(collections: IndexerCollections, subject: ChainSubject): Promise<ChainFact[]> {
  const docs = await collections.facts.find({ subjects: subjectKey(subject), retracted: false, isRetraction: false }, { sort: { sequence: 1 } });
  return docs.map((doc) => ChainFact.fromJSON(doc.fact));
}
