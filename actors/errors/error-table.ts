/**
 * What each runtime error means outside the code that throws it, in one place (as
 * stripe-node's `generateV1Error` and `_shouldRetry`): the answer the API gives for it,
 * whether `ask()` retries the attempt, what the outbox runner does when an effect throws
 * it, and how it crosses the wire between nodes. The error middleware, `ask()`, the
 * outbox runner and the wire codec read this table instead of testing classes each.
 * The errorCodes and their statuses are in error-codes.ts.
 */
import { ERROR_CODES, statusOfCode, type ErrorCode } from './error-codes.js';
import { PlatformError } from './platform-error.js';
import {
  AskTimeoutError,
  CommandRejectedError,
  ConflictError,
  DuplicateKeyError,
  ShardNotServedError,
  ShuttingDownError,
  UnknownActorError,
  UnknownKindError,
} from '../errors.js';

/**
 * What the outbox runner does with an effect that threw the error:
 * - `retry`: the retry policy's ladder, then a dead letter;
 * - `retry-quietly`: the same, logged at debug (the node is stopping: expected);
 * - `lease-lost`: this node stops running the outbox, the shard's next holder runs it;
 * - `refused`: a tell's target refused the message for good: MESSAGE_REFUSED or a dead letter;
 * - `permanent`: no retry: EFFECT_FAILED to the owner's machine, or a dead letter.
 */
export type OutboxHandling = 'retry' | 'retry-quietly' | 'lease-lost' | 'refused' | 'permanent';

/** The fields a runtime error carries over the wire beside its name and message. */
export type WireFields = Record<string, unknown> & { message: string };

export interface RuntimeErrorRow {
  /**
   * What the API answers: a row of ERROR_CODES with this row's `message`, `own` for the
   * error's own code, message and details (a refusal), or null for a fault (a 500).
   */
  readonly answer: ErrorCode | 'own' | null;
  readonly message?: string;
  readonly retryAfterSeconds?: number;
  /** Whether `ask()` tries again with the same message id until its deadline. */
  readonly askRetries: boolean;
  readonly outbox: OutboxHandling;
  /**
   * How the far side of the wire rethrows it: the same class rebuilt from its fields, as
   * itself or, when `unavailable` (another node serves the actor shortly), as the cause of
   * a TransportUnavailableError the ask retries. Absent: it never crosses the wire as itself.
   */
  readonly wire?: { revive(fields: WireFields): Error; unavailable?: true };
  readonly when: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const count = (value: unknown): number => (typeof value === 'number' ? value : 0);

export const RUNTIME_ERRORS = {
  CommandRejectedError: {
    answer: 'own',
    askRetries: false,
    outbox: 'refused',
    wire: { revive: (fields) => new CommandRejectedError(text(fields.code) || 'REJECTED', fields.message, fields.details ?? null) },
    when: 'an actor refused the command in its state; its code’s row gives the status',
  },
  UnknownActorError: {
    answer: 'NOT_FOUND',
    message: 'Not found',
    askRetries: false,
    outbox: 'refused',
    wire: { revive: (fields) => new UnknownActorError(text(fields.kind), text(fields.actorId)) },
    when: 'no actor has the address and the message does not create one',
  },
  AskTimeoutError: {
    answer: 'SERVICE_UNAVAILABLE',
    message: 'Service temporarily unavailable',
    retryAfterSeconds: 1,
    askRetries: false,
    outbox: 'retry',
    wire: { revive: (fields) => new AskTimeoutError(text(fields.kind), text(fields.actorId), count(fields.timeoutMs)) },
    when: 'no reply within the ask’s deadline, retries included; the command may still have been applied',
  },
  ShuttingDownError: {
    answer: 'SERVICE_UNAVAILABLE',
    message: 'Service temporarily unavailable',
    retryAfterSeconds: 1,
    askRetries: false,
    outbox: 'retry-quietly',
    wire: { revive: () => new ShuttingDownError(), unavailable: true },
    when: 'the node is draining and takes no new messages',
  },
  ShardNotServedError: {
    answer: null,
    askRetries: false,
    outbox: 'lease-lost',
    wire: { revive: (fields) => new ShardNotServedError(count(fields.shard)), unavailable: true },
    when: 'this node holds no valid lease on the actor’s shard',
  },
  TransportUnavailableError: {
    answer: null,
    askRetries: true,
    outbox: 'retry',
    when: 'no node answered one attempt of an ask; the ask tries again with the same message id',
  },
  UnknownKindError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    wire: { revive: (fields) => new UnknownKindError(text(fields.kind)) },
    when: 'no actor kind of that name is registered: a fault of the caller’s code',
  },
  ConflictError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    wire: { revive: (fields) => new ConflictError(text(fields.kind), text(fields.actorId), count(fields.attempts)) },
    when: 'a conditional write lost to another writer more times than the runtime retries',
  },
  DuplicateKeyError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    wire: { revive: (fields) => new DuplicateKeyError(text(fields.collection), text(fields.key)) },
    when: 'an insert collided on `_id` or a unique index',
  },
  StoreConnectionLostError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'the connection to the local stand-in for MongoDB broke with a call in flight: it may or may not have been applied',
  },
  StoreUnavailableError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'the local stand-in for MongoDB could not be reached: nothing was sent',
  },
  StoreTimeoutError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'the cluster’s store did not count a rate-limit point in time: the node falls back to its share of the limit (gateway/limits/)',
  },
  RemoteError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'another node failed with an error the wire has no class for; its cause is that error, by name and message',
  },
  PermanentEffectError: {
    answer: null,
    askRetries: false,
    outbox: 'permanent',
    when: 'an effect handler found that running the effect again can never succeed',
  },
  RateUnavailableError: {
    answer: 'RATE_UNAVAILABLE',
    message: 'Exchange rates are unavailable right now; retry shortly',
    askRetries: false,
    outbox: 'retry',
    when: 'no exchange rate may be used now: the provider cannot be reached and its last answer is too old',
  },
  IndexerUnavailableError: {
    answer: 'INDEXER_UNAVAILABLE',
    message: 'The chain indexer is not answering; retry shortly',
    retryAfterSeconds: 1,
    askRetries: false,
    outbox: 'retry',
    when: 'the chain indexer did not answer in time or is not serving',
  },
  ChargebackRefusedError: {
    answer: null,
    askRetries: false,
    outbox: 'permanent',
    when: 'the escrow would not record a chargeback (estimated before sending), or its transaction ended unmined; staff’s trigger answers CHARGEBACK_REFUSED, and asking again is refused again',
  },
  BridgeRefused: {
    answer: null,
    askRetries: false,
    outbox: 'permanent',
    when: 'the conversion provider refused a bridge as asked; the bridge effect turns it into a failed try (BRIDGE_ATTEMPT_FAILED), so it never reaches a caller',
  },
  ConversionRefused: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'the conversion provider refused a request as asked; the gateway answers it with the provider’s code mapped (checkout/quotes.ts)',
  },
  FundingProviderUnavailable: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'the conversion provider did not answer a payout’s funding request or activity read, or answered what does not parse; the gateway maps it to a payout code',
  },
  PayoutBridgeUnavailable: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'the conversion provider did not answer a crypto payout’s quote or status read, or answered what does not parse; the checkout answers CASHOUT_PAYOUT_QUOTE_FAILED, a bridge is asked again at its next poll',
  },
  CustomerWalletUnavailable: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'the wallet provider could not make or find a payout customer’s wallet; the payout answers PAYOUT_EMBEDDED_WALLET_FAILED',
  },
  ListingStillPending: {
    answer: null,
    askRetries: false,
    outbox: 'retry-quietly',
    when: 'a payout listing’s deposit batch is still with the chain after one run’s wait: the effect runs again and keeps waiting',
  },
  PayoutSignerNotAttached: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'the payout signer is not attached to the customer’s wallet yet; nothing was signed, and the checkout answers CASHOUT_SIGNER_NOT_ATTACHED with its state',
  },
  PayoutPolicyRefused: {
    answer: null,
    askRetries: false,
    outbox: 'permanent',
    when: 'the wallet provider refused to sign a batch or delegation outside the payout-only policy: our code asked for what it must not, and asking again is refused again',
  },
  PayoutWalletNotHeld: {
    answer: null,
    askRetries: false,
    outbox: 'permanent',
    when: 'the wallet provider holds no payout customer’s wallet at the address the signer was to be attached to',
  },
  MailUnavailable: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'the SMTP server could not be reached in time or refused a message (a payout customer’s sign-in code); nothing was sent, the caller says so',
  },
  ForbiddenDestinationError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'a webhook destination resolves to a private or reserved address; the attempt records WEBHOOK_DESTINATION_FORBIDDEN',
  },
  AttemptTimeout: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'a webhook endpoint did not answer an attempt in time; the attempt records TIMEOUT',
  },
  CursorMovedError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'another reader moved a fact stream’s cursor; the follower resumes from where it is now',
  },
  IntentReadError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'an intent could not be read or priced now; the stream reads it again from the cursor',
  },
  DepositReadError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'a deposit could not be read now; the stream reads it again from the cursor',
  },
  FolderLockedError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'another process holds the durable store’s folder; the node does not start',
  },
  ConfigError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'the environment does not make a valid configuration; the node does not start',
  },
  InvalidCidrError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'an IP allowlist entry is no address or CIDR; the gateway answers it as a validation 400 where a request brought it',
  },
  ApiError: {
    answer: null,
    askRetries: false,
    outbox: 'retry',
    when: 'an answer the gateway gives on purpose: its status, message and errorCode are its own (the middleware sends it as it is)',
  },
} as const satisfies Record<string, RuntimeErrorRow>;

export type RuntimeErrorRowName = keyof typeof RUNTIME_ERRORS;

/** The row of a platform error, by its class name; null for anything else (a fault). */
export function runtimeRowOf(error: unknown): RuntimeErrorRow | null {
  if (!(error instanceof PlatformError) || !Object.hasOwn(RUNTIME_ERRORS, error.name)) return null;
  return RUNTIME_ERRORS[error.name as RuntimeErrorRowName];
}

/** The envelope the API answers a runtime error with. */
export interface ErrorAnswer {
  status: number;
  message: string;
  errorCode: string;
  responseObject: unknown;
  retryAfterSeconds?: number;
}

/** What the API answers for `error`, or null when it is no runtime error with an answer (then it is a fault, a 500). */
export function answerOf(error: unknown): ErrorAnswer | null {
  const row = runtimeRowOf(error);
  if (!row?.answer) return null;
  if (row.answer === 'own') {
    const refusal = error as CommandRejectedError;
    return { status: statusOfCode(refusal.code), message: refusal.message, errorCode: refusal.code, responseObject: refusal.details ?? null };
  }
  const answer: ErrorAnswer = { status: ERROR_CODES[row.answer].status ?? 500, message: row.message ?? '', errorCode: row.answer, responseObject: null };
  if (row.retryAfterSeconds !== undefined) answer.retryAfterSeconds = row.retryAfterSeconds;
  return answer;
}

/** Whether `ask()` tries again, with the same message id, after an attempt failed with `error`. */
export function askRetries(error: unknown): boolean {
  return runtimeRowOf(error)?.askRetries ?? false;
}

/** What the outbox runner does with an effect that threw `error`; anything outside the table is retried. */
export function outboxHandling(error: unknown): OutboxHandling {
  return runtimeRowOf(error)?.outbox ?? 'retry';
}
