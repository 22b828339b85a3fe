/**
 * A deposit as the indexer tells it now, for a reader that wants it whole at once (the deposit
 * bundle): GetDeposit's folded answer and every standing fact about it (ListFacts, page by
 * page). Nothing is kept here; the caller decides how long an answer is good for.
 */
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import type { ChainFact, GetDepositResponse, IndexerServiceClient } from '../../proto/gen/peer/indexer/v1/indexer.js';
import type { DepositFact } from '../../machines/market/market-records.js';
import { factsAbout } from '../chain/subject-facts.js';
import { withDeadline } from '../grpc-call.js';
import { standingFacts } from './intent-records.js';

export type { DepositFact, DepositFactEvent } from '../../machines/market/market-records.js';

export interface DepositReading {
  deposit: GetDepositResponse;
  /** Every standing fact that moved the deposit's USDC, in log order. */
  facts: DepositFact[];
}

/** The fact as a DepositFact, or null for a fact that moves none of the deposit's USDC (a payment method set, a rate changed). */
export function depositFactOf(fact: ChainFact): DepositFact | null {
  const { transactionHash, blockNumber, blockTimestamp, event } = fact;
  switch (event?.$case) {
    case 'depositReceived':
    case 'depositFundsAdded':
    case 'depositWithdrawn':
    case 'fundsLocked':
    case 'fundsUnlocked':
    case 'fundsUnlockedAndTransferred':
      return { transactionHash, blockNumber, blockTimestamp, event };
    case 'depositClosed':
      return { transactionHash, blockNumber, blockTimestamp, event: { $case: 'depositClosed' } };
    default:
      return null;
  }
}

export class DepositFacts {
  constructor(
    private readonly client: IndexerServiceClient,
    /** The escrow the indexer reads: its deposits are the only ones it answers for. */
    readonly escrow: string,
  ) {}

  /** GetDeposit's folded answer for the deposit, within the call deadline; a deposit the indexer does not know throws NOT_FOUND. */
  deposit(depositId: string): Promise<GetDepositResponse> {
    return withDeadline<GetDepositResponse>((options, done) => this.client.getDeposit({ escrow: this.escrow, depositId }, new Metadata(), options, done));
  }

  /** The deposit and its standing facts; null when the indexer knows no such deposit. Other failures throw. */
  async read(depositId: string): Promise<DepositReading | null> {
    let deposit: GetDepositResponse;
    try {
      deposit = await this.deposit(depositId);
    } catch (error) {
      if ((error as ServiceError).code === GrpcStatus.NOT_FOUND) return null;
      throw error;
    }
    const facts = standingFacts(await factsAbout(this.client, { $case: 'depositId', value: depositId }));
    return { deposit, facts: facts.flatMap((fact) => depositFactOf(fact) ?? []) };
  }
}
