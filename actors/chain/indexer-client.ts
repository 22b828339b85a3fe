/**
 * A gRPC client of the indexer. Unary calls carry a deadline and are retried by
 * grpc-js itself when the indexer is unavailable (its retry policy, not ours);
 * the fact stream is resumed by its consumer from a cursor.
 */
import { credentials, type CallOptions, type ServiceError } from '@grpc/grpc-js';
import { IndexerServiceClient, type IndexerServiceClient as Client } from '../../proto/gen/peer/indexer/v1/indexer.js';

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

export const DEFAULT_DEADLINE_MS = 5_000;

export function indexerClient(address: string): Client {
  return new IndexerServiceClient(address, credentials.createInsecure(), {
    'grpc.service_config': JSON.stringify(RETRY_POLICY),
    'grpc.enable_retries': 1,
    // Keeps a long-lived fact stream from being dropped silently by something in between.
    'grpc.keepalive_time_ms': 30_000,
  });
}

/** A unary call as a promise, with a deadline: `withDeadline((options, done) => client.getStatus({}, new Metadata(), options, done))`. */
export function withDeadline<Res>(
  invoke: (options: Partial<CallOptions>, done: (error: ServiceError | null, response: Res) => void) => unknown,
  deadlineMs = DEFAULT_DEADLINE_MS,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    invoke({ deadline: Date.now() + deadlineMs }, (error, response) => (error ? reject(error) : resolve(response)));
  });
}
