/** Every fact the indexer filed about one subject (a deposit, an intent), retractions included, in log order: ListFacts read page by page. */
import { Metadata } from '@grpc/grpc-js';
import type { ChainFact, IndexerServiceClient, ListFactsRequest, ListFactsResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { withDeadline } from '../grpc-call.js';

/** The indexer's largest page. */
const FACTS_PAGE = 1000;

export async function factsAbout(client: IndexerServiceClient, subject: NonNullable<ListFactsRequest['subject']>): Promise<ChainFact[]> {
  const facts: ChainFact[] = [];
  let after = 0n;
  for (;;) {
    const page = await withDeadline<ListFactsResponse>((options, done) =>
      client.listFacts({ subject, afterSequence: after, limit: FACTS_PAGE }, new Metadata(), options, done),
    );
    facts.push(...page.facts);
    if (!page.hasMore || page.facts.length === 0) return facts;
    after = page.facts.at(-1)!.sequence;
  }
}
