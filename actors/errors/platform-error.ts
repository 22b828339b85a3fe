/**
 * The one base of every error the platform throws on purpose (stripe-node's
 * `StripeError`, Temporal's `ApplicationFailure`): a stable `code` a program branches
 * on, and the `cause` it wraps, passed as `ErrorOptions` (nats.js) so that wrapping
 * never loses the original. error-table.ts says what each one answers and whether it
 * is retried.
 */
export abstract class PlatformError extends Error {
  /** What went wrong, for a program to branch on: a row of the error table, or the error's own stable name in UPPER_SNAKE. */
  abstract readonly code: string;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}
