/** A refusal the indexer's gRPC service answers with its own status code and message. */
import type { status as Status } from '@grpc/grpc-js';

export class ServiceError extends Error {
  constructor(
    readonly code: Status,
    message: string,
  ) {
    super(message);
  }
}
