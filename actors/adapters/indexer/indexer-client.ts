/**
 * A gRPC client of the indexer. Unary calls carry a deadline and are retried by
 * grpc-js itself when the indexer is unavailable (its retry policy, not ours);
 * the fact stream is resumed by its consumer from a cursor. Calls go through
 * `withDeadline` (actors/grpc-call.ts).
 */
import { credentials } from '@grpc/grpc-js';
import { IndexerServiceClient, type IndexerServiceClient as Client } from '../../../proto/gen/peer/indexer/v1/indexer.js';

const RETRY_POLICY = {
  methodConfig: [
    {
      name: [{ service: 'peer.indexer.v1.IndexerService' }],
      retryPolicy: {
        maxAttempts: 5,
        initialBackoff: '0.1s',
        maxBackoff: '2s',
        backoffMultiplier: 2,
        retryableStatusCodes: ['UNAVAILABLE'],
      },
    },
  ],
};

export function indexerClient(address: string): Client {
  return new IndexerServiceClient(address, credentials.createInsecure(), {
    'grpc.service_config': JSON.stringify(RETRY_POLICY),
    'grpc.enable_retries': 1,
    // Keeps a long-lived fact stream from being dropped silently by something in between.
    'grpc.keepalive_time_ms': 30_000,
  });
}
