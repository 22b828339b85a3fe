/** A unary gRPC call as a promise with a deadline, for every client the node holds (indexer, attestation service). */
import type { CallOptions, ServiceError } from '@grpc/grpc-js';

export const DEFAULT_DEADLINE_MS = 5_000;

/** `withDeadline((options, done) => client.getStatus({}, new Metadata(), options, done))`. */
export function withDeadline<Res>(
  invoke: (options: Partial<CallOptions>, done: (error: ServiceError | null, response: Res) => void) => unknown,
  deadlineMs = DEFAULT_DEADLINE_MS,
): Promise<Res> {
  return new Promise((resolve, reject) => {
    invoke({ deadline: Date.now() + deadlineMs }, (error, response) => (error ? reject(error) : resolve(response)));
  });
}
