/**
 * Every errorCode: each one the API answers today, each refusal code of an actor kind,
 * and each code documents 1 to 3 name for the areas still to come. One row per code:
 * its HTTP status, what it adds to the envelope's `responseObject`, and when it is
 * answered. The gateway's error middleware, the OpenAPI document and the kinds' refusals
 * read their statuses here (error-table.ts adds the runtime's errors), and
 * test/actors/errors/error-table.test.ts holds it to the documents and the served API.
 */

export interface ErrorCodeRow {
  /** The HTTP status; null for a code no request is answered with: the `error.code` of a failed or blocked action. */
  readonly status: number | null;
  /**
   * Statuses some operation answers this code with besides `status`. Kept only where an
   * answer already differs, because no answer the API gives may change; a new use takes `status`.
   */
  readonly alsoStatus?: readonly number[];
  /** What `responseObject` carries instead of null, as the documents and operations define it. */
  readonly fields?: readonly string[];
  /** When it is answered: the default text of the OpenAPI lists, which an operation may make more specific. */
  readonly when: string;
  /** Named by a document for an area not built yet (payouts, cashout, remediation actions): the next issues use it as it stands. */
  readonly planned?: true;
}

export const ERROR_CODES = {
  // Answers of the API today, and the refusals of actor kinds.
  ACTOR_NOT_FOUND: { status: 404, when: 'no actor of the kind has that id' },
  ALREADY_EXISTS: { status: 409, when: 'a create reached an actor that exists already (a concurrent create won it)' },
  AMOUNT_CONFLICT: {
    status: 409,
    fields: ['amountVersion'],
    when: 'amountVersion was sent and the amount has changed since; responseObject.amountVersion is the current one',
  },
  AMOUNT_LOCKED: {
    status: 409,
    fields: ['amountLock'],
    when: 'a payment is in progress, may settle or settled, or the order is no longer open; responseObject.amountLock says why',
  },
  AMOUNT_NOT_ALLOWED: { status: 409, when: 'the order has a fixed amount' },
  AMOUNT_OUT_OF_RANGE: {
    status: 422,
    fields: ['minAmount', 'maxAmount'],
    when: 'outside the open amount’s bounds (responseObject has minAmount and maxAmount), or over the node’s order limit at today’s rate (responseObject null)',
  },
  AMOUNT_REQUIRED: { status: 422, when: 'an open-amount order whose amount nobody set yet' },
  CALLDATA_REVERTS: {
    status: 400,
    when: 'the batch would revert on chain (the simulation’s reason is in the message): a balance or allowance too small, a range the escrow refuses',
  },
  CHAIN_NOT_SUPPORTED: { status: 404, when: 'the service indexes another chain' },
  CHARGEBACKS_UNAVAILABLE: { status: 503, when: 'this node has no chain and relayer to record chargebacks with' },
  CHARGEBACK_REFUSED: {
    status: 422,
    when: 'the escrow would not record the chargeback (the intent did not settle there, its deposit had no dispute protection, it was compensated already, or the maker has no stake); the message says which',
  },
  CONSUMER_NOT_RUNNING: { status: 409, when: 'no consumer of that name runs on this node' },
  CONVERSION_PROVIDER_UNAVAILABLE: { status: 503, when: 'a crypto rail: the conversion provider did not answer' },
  CONVERSION_REFUSED: {
    status: 422,
    when: 'a crypto rail: the conversion provider refused the request (an amount out of its range, a destination it does not deliver to)',
  },
  CRYPTO_PAYMENT: { status: 409, when: 'a crypto attempt: it settles when its transfer arrives, with no proof' },
  CURRENCY_NOT_SUPPORTED: { status: 422, alsoStatus: [400], when: 'no exchange rate prices the currency now, or the rail does not send it' },
  DEAD_LETTER_NOT_FOUND: { status: 404, when: 'no dead letter has that id' },
  DEAD_LETTER_NOT_OPEN: { status: 409, when: 'the letter was already retried or discarded' },
  DEAD_LETTER_NOT_RETRYABLE: { status: 409, when: 'no retrier for its source on this node, or work that cannot run again' },
  DEAD_LETTER_RETRY_FAILED: { status: 422, when: 'the work failed again; the letter stays open' },
  DELIVERY_IN_PROGRESS: { status: 409, when: 'an attempt of the delivery is under way' },
  DEMO_MERCHANT_NOT_FOUND: { status: 404, when: 'this node has no demo merchant' },
  LOCAL_WALLET_UNAVAILABLE: { status: 404, when: 'the node runs no local conversion provider, so it has no local test wallet' },
  LOCAL_WALLET_REFUSED: { status: 422, fields: ['providerCode'], when: 'the local provider would not send it; providerCode says why' },
  DEPOSIT_BUNDLE_UNAVAILABLE: { status: 503, when: 'The node reads no chain, or the indexer cannot be asked now' },
  DEPOSIT_NOT_FOUND: { status: 404, when: 'The escrow has no such deposit, or escrowAddress is not the escrow this node reads' },
  DESTINATION_REQUIRED: { status: 400, when: 'no destinationAddress and no wallet of the destination chain’s kind on the merchant profile' },
  DISPUTE_ATTESTATION_INVALID: {
    status: 422,
    when: 'the dispute attestation is not signed by an attestation service signer this node trusts, is for another chain or verifier, or does not match the dispute it states',
  },
  DISPUTE_NOT_OPEN: { status: 409, when: 'the dispute is PAID or ESCALATED: it takes no payment' },
  DISPUTE_TRANSFER_NOT_FOUND: {
    status: 422,
    when: 'the transaction is not mined on the node’s chain, or does not transfer at least amountUsdc of USDC to the dispute’s sellerAddress',
  },
  DISPUTE_TRANSFER_USED: { status: 409, when: 'the transaction already paid another dispute' },
  DISPUTES_UNAVAILABLE: { status: 503, when: 'the node reads no chain, or trusts no attestation service signer' },
  DUPLICATE: { status: 409, when: 'a create would duplicate another actor on a unique view field' },
  DYNAMIC_ORDERS_DISABLED: { status: 400, when: 'dynamicOrdersEnabled is true but the merchant configuration disables dynamic orders' },
  EMBEDDED_WALLET_NOT_FOUND: { status: 404, when: 'the wallet provider holds no embedded wallet for the signed-in address' },
  EVENT_FAILED: { status: 422, when: 'the machine could not read the event’s fields (a missing or mistyped field); nothing was written' },
  EVENT_NOT_ACCEPTED: { status: 409, when: 'the actor does not take this event in its current state' },
  EVENT_NOT_FOUND: {
    status: 404,
    when: 'Last-Event-ID names no event of this account of the last 30 days: list GET /api/v1/events to catch up, then stream without it',
  },
  EVENT_REFUSED: {
    status: 409,
    when: 'the actor refused it: its state does not take it, or its kind’s rules refuse it (the message gives the actor’s own code)',
  },
  HEADERS_TOO_LARGE: { status: 431, when: 'headers over 16 KB; the connection closes' },
  IDEMPOTENCY_KEY_MISMATCH: { status: 422, when: 'the idempotencyKey was used for a different request' },
  INDEXER_UNAVAILABLE: { status: 503, when: 'the chain indexer is not answering; retry after Retry-After' },
  INTERNAL_ERROR: { status: 500, when: 'a fault of ours; the answer shows no detail, the log has it under the request id' },
  INVALID_AMOUNT: { status: 400, when: 'a settlement of no positive USDC amount' },
  INVALID_CALLDATA: { status: 400, when: 'a call does not decode as its slot’s function, deposits nothing, or names a deposit other than 0' },
  INVALID_CHARGEBACK: { status: 400, when: 'a chargeback told to an order names no payment or dispute, or no positive USDC amount' },
  IP_NOT_ALLOWED: { status: 403, when: 'the client address is outside the key’s apiKeyIpAllowlist' },
  KIND_NOT_FOUND: { status: 404, when: 'this node runs no actor kind of that name' },
  LEADERBOARD_UNAVAILABLE: { status: 503, when: 'The node reads no chain, or the makers’ deposits and intents cannot be read now' },
  LIVE_ACTOR_PROTECTED: { status: 403, when: 'the node runs in production and the actor is not a sandbox one' },
  LIVE_PAYMENT: { status: 403, when: 'only a sandbox attempt can be simulated' },
  LIVE_PAYMENTS_UNAVAILABLE: {
    status: 503,
    when: 'a live order on a node that takes sandbox payments only (no chain, gating key or attestation service), or while the chain, its indexer or (on a fiat rail) the attestation service does not answer, or the node’s data was written against another chain: retry after Retry-After',
  },
  MACHINE_NOT_FOUND: { status: 404, when: 'no machine has that name' },
  MAIL_INBOX_UNAVAILABLE: { status: 404, when: 'the node sends its mail through SMTP_URL, so it catches none to show' },
  MAKER_EXISTS: {
    status: 409,
    when: 'the payee has a record on this processor with another telegramUsername, isBusiness or metadata; read it with GET /v1/makers/{processorName}/{payeeDetails}',
  },
  MAKER_NOT_FOUND: { status: 404, when: 'no maker of that id' },
  MALFORMED_REQUEST: { status: 400, when: 'HTTP itself could not read the request; the connection closes' },
  MESSAGE_ID_REUSED: { status: 409, when: 'the message id was accepted before with another body; nothing was stored' },
  METHOD_NOT_ALLOWED: { status: 405, when: 'the path exists but not with this method; the `Allow` header lists its methods' },
  NOT_FOUND: { status: 404, when: 'no resource has that id, or it belongs to another merchant or environment' },
  NOT_IMPLEMENTED: { status: 501, when: 'a method outside GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' },
  NO_LIQUIDITY: { status: 422, when: 'no maker can take the payment on this rail and currency now; nothing was reserved' },
  OPEN_AMOUNT_DISABLED: { status: 400, when: 'openAmount on an order whose dynamic orders are disabled' },
  OPEN_AMOUNT_INVALID: {
    status: 400,
    when: 'openAmount breaks its rules (currency, bounds, presets), has no rate, or exceeds the order limit at today’s rate',
  },
  ORDERBOOK_UNAVAILABLE: { status: 503, when: 'The node reads no chain, or its deposits cannot be read now and its last snapshot is over 60 seconds old' },
  ORDER_NOT_PAYABLE: { status: 409, when: 'the order is FULFILLED or CANCELLED: nothing is owed or taken' },
  ORDER_NOT_REFUNDABLE: {
    status: 409,
    fields: ['status'],
    when: 'the order is not FULFILLED: only a fulfilled order is refunded; responseObject.status is its status',
  },
  ORDER_STATUS_NOT_ELIGIBLE: { status: 409, when: 'the order is fulfilled or cancelled and can no longer be cancelled' },
  PAYLOAD_TOO_LARGE: { status: 413, when: 'the body is over the limit' },
  PAYMENT_IN_PROGRESS: { status: 409, fields: ['paymentId'], when: 'another attempt is open and not named as replaced; responseObject.paymentId names it' },
  PAYMENT_NOT_AWAITING_PROOF: { status: 409, when: 'the intent is not signalled yet, or a proof is being checked' },
  PAYMENT_NOT_CANCELLABLE: {
    status: 409,
    when: 'the attempt to replace has a proof being verified or fulfilled, or its transfer is with the conversion provider',
  },
  PAYMENT_NOT_DISPUTABLE: { status: 409, when: 'the payment is not SETTLED: only a settled payment can be disputed' },
  PAYMENT_NOT_OPEN: { status: 409, when: 'the attempt ended (SETTLED, CANCELLED, EXPIRED or FAILED)' },
  PROVIDER_NOT_FOUND: { status: 404, when: 'no platform has that name (the manifest lists every one)' },
  RAIL_NOT_ENABLED: { status: 422, when: 'the order does not take this rail' },
  RAIL_NOT_SUPPORTED: { status: 422, when: 'the rail is not one the account enables, or it enables none' },
  RATE_UNAVAILABLE: { status: 503, when: 'the exchange rate is stale and the rate source cannot be reached; retry shortly' },
  REFERRAL_ALREADY_REDEEMED: { status: 409, when: 'the wallet has redeemed a code already' },
  REFERRAL_CODE_NOT_FOUND: { status: 404, when: 'no wallet holds the code' },
  REFERRAL_CODE_TAKEN: { status: 409, when: 'another wallet holds the code, in any letter case' },
  REFERRAL_OWN_CODE: { status: 400, when: 'the code is the wallet’s own' },
  REFUND_EXCEEDS_REFUNDABLE: {
    status: 422,
    fields: ['refundableAmountUsdc'],
    when: 'the refund is more than what settled against the order less what its other refunds hold; responseObject.refundableAmountUsdc is what may still be refunded',
  },
  REFUND_NOT_FOUND: { status: 404, when: 'a refund’s payout reported to an order that holds no refund of it' },
  REJECTED: { status: 422, when: 'a refusal that arrived over the wire without its code (a node of an older version)' },
  REQUEST_ID_CONFLICT: { status: 409, when: 'the requestId was used before with other calls, or by another wallet' },
  REQUEST_NOT_FOUND: { status: 404, when: 'no request of the signed-in wallet has this requestId' },
  REQUEST_TIMEOUT: { status: 408, when: 'the request took too long to arrive; the connection closes' },
  RESIZE_NOT_SUPPORTED: {
    status: 409,
    fields: ['reason', 'settledUsdcAmount'],
    when: 'the order cannot be resized: an open amount, FULFILLED or CANCELLED, an attempt that may still settle, below what settled, or the amount it has (responseObject.reason)',
  },
  SANDBOX_ONLY: { status: 403, when: 'a live key' },
  SANDBOX_PAYMENT: { status: 409, when: 'a sandbox attempt: simulate it instead' },
  SERVICE_UNAVAILABLE: { status: 503, when: 'the node could not reach the actor in time, or is shutting down; retry after Retry-After' },
  SETTLEMENT_ALREADY_APPLIED: { status: 409, when: 'the payment has settled against the order already' },
  SIGNATURE_INVALID: { status: 401, when: 'no v1 signature matches a configured secret, or the id or timestamp is malformed' },
  SIGNATURE_MISSING: { status: 401, when: 'the message id, timestamp or signature header is missing' },
  SIWE_CHAIN_UNSUPPORTED: { status: 401, when: 'the Chain ID is not one of the challenge’s chainIds' },
  SIWE_DOMAIN_MISMATCH: { status: 401, when: 'the domain, scheme or URI is not this site’s (the challenge’s domain and uri)' },
  SIWE_MESSAGE_EXPIRED: { status: 401, when: 'the message’s Expiration Time has passed' },
  SIWE_MESSAGE_INVALID: {
    status: 400,
    when: 'the message is not exactly an EIP-4361 message (a field missing or malformed, text besides the fields, an address not EIP-55 checksummed)',
  },
  SIWE_MESSAGE_NOT_YET_VALID: { status: 401, when: 'its Issued At or Not Before is more than 5 minutes ahead of the service’s clock' },
  SIWE_NONCE_EXPIRED: { status: 401, when: 'the nonce’s expiresAt has passed: ask for a new one' },
  SIWE_NONCE_UNKNOWN: { status: 401, when: 'the nonce was not issued by POST /v2/auth/nonce' },
  SIWE_NONCE_USED: { status: 401, when: 'the nonce has signed in already: ask for a new one' },
  SUBMISSION_FAILED: { status: 502, when: 'the batch could not be mined: it reverted on chain, or lost its reserved id to other deposits too many times' },
  TEMPLATE_NOT_FOUND: { status: 404, when: 'the platform has no action of that type' },
  TEMPORARILY_UNAVAILABLE: {
    status: 503,
    when: 'the node cannot do this now (no chain, relayer or wallet provider, or not done yet); retry after Retry-After',
  },
  TEST_CLOCK_ADVANCE_TOO_FAR: { status: 400, when: 'frozenTime is more than two years after the clock’s frozenTime' },
  TEST_CLOCK_ADVANCING: { status: 409, when: 'an advance of this clock is still under way' },
  TEST_CLOCK_NOT_FOUND: { status: 404, when: 'no test clock of the key’s account has that id, or it was deleted' },
  TEST_CLOCK_SANDBOX_ONLY: { status: 403, when: 'testClockId with a live key' },
  TEST_CLOCK_TIME_NOT_LATER: { status: 400, when: 'frozenTime is not later than the clock’s frozenTime' },
  TIER_REQUIRED: { status: 403, when: 'a live merchant without a plan' },
  TIMESTAMP_OUT_OF_TOLERANCE: { status: 401, when: 'the timestamp is more than 5 minutes from the node’s clock, before or after' },
  TOKEN_EXPIRED: { status: 401, when: 'the token’s expiresAt has passed: sign in again' },
  TOKEN_INVALID: { status: 401, when: 'not a token this service issued, or its session signed out: sign in again' },
  TOKEN_MISSING: { status: 401, when: 'no `Authorization: Bearer` header: sign in (POST /v2/auth/verify)' },
  TOKEN_NOT_SUPPORTED: { status: 404, when: 'the token is not usdc' },
  TRANSACTION_FINAL: { status: 409, when: 'the transaction has ended and can no longer be cancelled' },
  TRANSACTION_HISTORY_UNAVAILABLE: { status: 503, when: 'this node reads no chain' },
  TRANSFER_CONFLICT: { status: 409, when: 'another report of this wallet transfer differs from the stored one; the first stands' },
  TURN_NOT_FOUND: { status: 404, when: 'no turn wrote that version, or it is past the retention' },
  UNKNOWN_EVENT_TYPE: { status: 400, when: 'the actor’s machine takes no event of that type from the admin API (the message lists the ones it takes)' },
  UNSAFE_CALLDATA: {
    status: 400,
    when: 'a call decodes but is not allowed: another function, another spender or token, or an approval below the deposit’s amount',
  },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, when: 'the body is not application/json, or its Content-Encoding or charset is unknown' },
  WEBHOOK_DISABLED: { status: 409, when: 'the webhook is disabled; enable it first' },
  WEBHOOK_LIMIT_REACHED: { status: 409, when: 'the account has 16 webhooks already' },
  WEBHOOK_NOT_CONFIGURED: { status: 503, when: 'WALLET_PROVIDER_WEBHOOK_SECRET is not set on this node' },

  // Document 1, remediation actions (gateway/actions). Their errors carry the code in responseObject.code too.
  ACTION_DENIED: { status: 403, when: 'the action is not allowed on the merchant’s plan' },
  ACTION_IN_PROGRESS: { status: 409, fields: ['actionId'], when: 'a live action of the same kind exists' },
  FEATURE_DISABLED: {
    status: 503,
    when: 'actions (for extend, extensions) are switched off; polls and replays of an existing key keep working',
  },
  PAYMENT_NOT_ELIGIBLE: { status: 422, fields: ['reason'], when: 'the payment is not eligible for the action; reason says why' },
  ROLE_NOT_ALLOWED: { status: 403, when: 'a dashboard session whose member’s role may not do this (an API key is never refused it)' },
  SANDBOX_NOT_SUPPORTED: { status: 403, when: 'a sandbox key' },
  SUPPORT_UNAVAILABLE: { status: 502, when: 'the support side did not answer in time; retry with the same idempotencyKey' },

  // Document 1: the error.code of a FAILED or BLOCKED action; no request is answered with them.
  ACTION_CANCELED: { status: null, when: 'cancelled by Peer-side staff; the action is BLOCKED' },
  ACTION_EXPIRED: { status: null, when: 'the action was not picked up in time; it is FAILED' },
  APPROVAL_EXPIRED: { status: null, when: 'not approved within 15 minutes; the action is BLOCKED' },
  APPROVAL_REJECTED: { status: null, when: 'the approval was rejected; the action is BLOCKED' },
  DISPATCH_FAILED: { status: null, when: 'recreate: the reopened attempt could not be started on-chain; a new request retries' },
  FIVE_DAY_LIFETIME_EXCEEDED: { status: null, when: 'extend: the attempt reached its 5-day lifetime' },
  FULFILL_FAILED: { status: null, when: 'fulfill: the settlement transaction failed on-chain; a new request retries' },
  FULFILL_TIMEOUT: { status: null, when: 'fulfill: the transaction was still pending at the deadline; check the payment first' },
  INSUFFICIENT_EXTENSION_TOKEN_BALANCE: { status: null, when: 'extend: extensions are unavailable for now; retry later' },
  INTENT_ALREADY_EXPIRED: { status: null, when: 'extend: the attempt was no longer open when the extension ran' },
  INTENT_EXTENSION_TRANSACTION_REVERTED: { status: null, when: 'extend: the extension transaction reverted; a new request retries' },
  INTENT_NOT_LIVE: { status: null, when: 'recreate: the reopened attempt was not live when checked' },
  MERCHANT_SIGNING_UNAVAILABLE: { status: null, when: 'recreate: the merchant signs its own orders and its signing is not ready', planned: true },
  MERCHANT_WALLET_NOT_DELEGATED: { status: null, when: 'recreate: the merchant signs its own orders and its wallet is not delegated', planned: true },
  NEEDS_MANUAL_REVIEW: { status: null, when: 'the action needs a manual review' },
  REMEDIATION_FAILED: { status: null, when: 'any other failure of an action' },
  UNSUPPORTED_INTENT_GUARDIAN: { status: null, when: 'extend: the attempt cannot be extended' },

  // Document 2, payouts, merchant side.
  INVALID_IDEMPOTENCY_KEY: { status: 400, when: 'the Idempotency-Key header is missing or malformed' },
  PAYOUT_TOKEN_UNSUPPORTED: { status: 400, when: 'the payout is not USDC on Base' },
  PAYOUT_NOT_STEP_MULTIPLE: { status: 400, when: 'below one payout step or not a whole multiple of it' },
  PAYOUT_ABOVE_MAX: { status: 400, when: 'above the payout maximum' },
  PAYOUT_FUNDING_TOKEN_UNSUPPORTED: {
    status: 400,
    when: 'the funding token is unsupported, switched off, or not among the merchant’s allowed tokens',
  },
  PAYOUT_SANDBOX_UNSUPPORTED: { status: 403, when: 'a sandbox merchant' },
  PAYOUTS_DISABLED: { status: 403, when: 'no payout methods are turned on' },
  PAYOUT_MERCHANT_WALLET_MISSING: { status: 403, when: 'a merchant fee is charged but no merchant wallet exists' },
  PAYOUT_NOT_FOUND: { status: 404, when: 'no payout with this id for the merchant' },
  MERCHANT_CONFIG_MISSING: { status: 409, when: 'the account setup is unfinished' },
  IDEMPOTENCY_KEY_CONFLICT: { status: 409, when: 'the key was used with a different body' },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: { status: 409, when: 'a request with this key is still running' },
  PAYOUT_NOT_CANCELLABLE: { status: 409, fields: ['status', 'fundingStatus'], when: 'status or fundingStatus is not AWAITING_FUNDING' },
  PAYOUT_FUNDING_DETECTED: { status: 409, when: 'the conversion provider has a record for the deposit address; the payout cannot be cancelled' },
  PAYOUT_REQUESTED_RAILS_UNAVAILABLE: { status: 422, when: 'none of the requested rails remains effective' },
  PAYOUT_NO_RAILS_AVAILABLE: { status: 422, when: 'every payout method the merchant turned on is switched off, crypto included' },
  PAYOUT_ROUTE_UNQUOTABLE: { status: 422, when: 'the funding route cannot be priced' },
  PAYOUT_FUNDING_AMOUNT_TOO_LOW: { status: 422, when: 'the provider refused the route as too small' },
  PAYOUT_EMBEDDED_WALLET_FAILED: { status: 502, when: 'the customer’s wallet could not be prepared; retry with the same key' },
  PAYOUT_BRIDGE_QUOTE_FAILED: { status: 502, when: 'any other conversion quote failure; retry with the same key, or use another funding token' },
  PAYOUT_BRIDGE_STATUS_FAILED: { status: 502, when: 'the funding could not be checked before cancelling; retry the cancel' },
  // The merchant dashboard's sessions, team and audit log (document 1 leaves how a session is obtained open: docs/dashboard-auth.md).
  API_KEY_NOT_ALLOWED: { status: 403, when: 'the operation needs a dashboard session; an API key (X-API-Key) is refused, whatever its value' },
  CSRF_TOKEN_INVALID: { status: 403, when: 'x-csrf-token is not the session’s CSRF token; nothing was changed' },
  CSRF_TOKEN_MISSING: { status: 403, when: 'a call that changes something with a session cookie carries no x-csrf-token header; nothing was changed' },
  LAST_OWNER: { status: 409, when: 'the team’s last Owner can be neither removed nor given another role' },
  MEMBER_EXISTS: { status: 409, when: 'that address is already a member of the team' },
  MEMBER_NOT_FOUND: { status: 404, when: 'no member of the team has that userId' },
  MERCHANT_REQUIRED: {
    status: 409,
    fields: ['merchants'],
    when: 'the address is on the team of several businesses: sign in again with one of responseObject.merchants’ merchantId (the code is used)',
  },
  SESSION_EXPIRED: { status: 401, when: 'the dashboard session was idle 30 minutes, or is 12 hours old: sign in again' },
  SESSION_INVALID: { status: 401, when: 'the session cookie names no open session (unknown, signed out, revoked, or its member removed): sign in again' },
  SESSION_REQUIRED: { status: 401, when: 'no dashboard session cookie: sign in' },
  SIGN_IN_CODE_INVALID: {
    status: 401,
    fields: ['reason'],
    when: 'the code did not sign in; reason is WRONG_CODE, CODE_EXPIRED, NO_CODE, CODE_USED or TOO_MANY_TRIES (an address of no team answers NO_CODE)',
  },
  SIGN_IN_CODES_RATIONED: {
    status: 429,
    fields: ['retryAfterSeconds'],
    when: 'five codes were sent to the address in the last 15 minutes (a kind’s refusal; the answer is a plain 429 with x-retry-after)',
  },
  TEAM_ON_LIVE_ACCOUNT: { status: 409, when: 'the team is kept on the live account; a team command reached the sandbox twin' },
  PASSKEY_EXISTS: { status: 409, when: 'that passkey is registered already' },
  PASSKEY_NOT_FOUND: { status: 404, when: 'the signed-in member has no passkey with that id' },
  PASSKEY_REGISTRATION_INVALID: {
    status: 422,
    fields: ['reason'],
    when: 'the passkey was not registered; reason is CHALLENGE_INVALID (not issued to this member, or used), CHALLENGE_EXPIRED or VERIFICATION_FAILED',
  },
  PASSKEY_SIGN_IN_INVALID: {
    status: 401,
    fields: ['reason'],
    when: 'the passkey did not sign in; reason is CHALLENGE_INVALID (not issued, or used), CHALLENGE_EXPIRED, UNKNOWN_CREDENTIAL, SIGNATURE_INVALID or COUNTER_REGRESSED',
  },

  // Operators' payout admin (not in document 2, which says only that operators can remove a network from an open payout).
  PAYOUT_RAIL_NOT_OFFERED: { status: 422, when: 'the payout does not offer that rail' },
  PAYOUT_RAILS_FINAL: { status: 409, when: 'the payout has ended or is being paid out: its rails no longer change' },

  // Document 2, the customer's cashout checkout; `planned` marks those not reachable yet. Its 409s carry { status, actions }, but CASHOUT_WALLET_SHORT.
  CASHOUT_CODES_RATIONED: {
    status: 429,
    fields: ['retryAfterSeconds'],
    when: 'five sign-in codes were sent for the payout in the last 15 minutes (a kind’s refusal; the answer is a plain 429 with x-retry-after)',
  },
  CASHOUT_CODE_INVALID: {
    status: 422,
    fields: ['reason'],
    when: 'the sign-in code did not sign in; reason is WRONG_CODE, CODE_EXPIRED, NO_CODE, CODE_USED or TOO_MANY_TRIES',
  },
  CASHOUT_CODE_NOT_SENT: { status: 503, when: 'the sign-in code could not be handed to the mail server; nothing changed but the code drawn' },
  CASHOUT_SEND_FAILED: {
    status: 502,
    when: 'a payout’s send to the customer’s address did not go through (reverted or dropped); shown in the checkout state’s listingError, never an answer',
  },
  CASHOUT_SEND_UNAVAILABLE: {
    status: 503,
    when: 'the node sends no payouts (no chain, relayer or payout signer); shown in the checkout state’s listingError, never an answer',
  },
  CASHOUT_PAYOUT_REFUNDED: {
    status: 502,
    when: 'the provider refunded a crypto payout to the customer’s wallet (the payout is READY again); shown in the checkout state’s listingError, never an answer',
  },
  CASHOUT_SIGNER_UNAVAILABLE: { status: 503, when: 'the wallet provider did not attach the payout signer now; try again' },
  CASHOUT_LINK_EXPIRED: { status: 401, fields: ['status'], when: 'an action on a final payout; GETs remain readable' },
  CASHOUT_LOGIN_INVALID: { status: 401, when: 'the login token could not be verified' },
  CASHOUT_LOGIN_REQUIRED: { status: 401, when: 'a missing or empty Bearer token' },
  CASHOUT_TOKEN_INVALID: { status: 401, when: 'a missing or wrong link token, or an unknown payout id' },
  CASHOUT_PLAYER_MISMATCH: { status: 403, when: 'the signed-in account does not match the payout' },
  CASHOUT_NOT_FOUND: { status: 404, when: 'no payout after the link’s authentication', planned: true },
  CASHOUT_ATTEMPT_NOT_LISTED: { status: 409, fields: ['status', 'actions'], when: 'no active escrow listing to withdraw' },
  CASHOUT_BUYER_PAYMENT_ACTIVE: { status: 409, fields: ['status', 'actions'], when: 'a method change cannot withdraw while a buyer pays' },
  CASHOUT_CONFIRM_CONFLICT: {
    status: 409,
    fields: ['status', 'actions'],
    when: 'a concurrent change prevented the confirmation or send-to-address',
  },
  CASHOUT_METHOD_LOCKED: {
    status: 409,
    fields: ['status', 'actions'],
    when: 'saving or changing the method is not offered, or the payout changed first',
  },
  CASHOUT_NOT_READY: { status: 409, fields: ['status', 'actions'], when: 'the confirmation has no eligible method, state or unpaid amount' },
  CASHOUT_PAYOUT_BRIDGING: { status: 409, fields: ['status', 'actions'], when: 'customer actions are blocked by a QUOTED or BRIDGING bridge' },
  CASHOUT_PAYOUT_QUOTE_NOT_ALLOWED: {
    status: 409,
    fields: ['status', 'actions'],
    when: 'the preview has no eligible action, or its amount is zero',
  },
  CASHOUT_RELIST_NOT_ALLOWED: { status: 409, fields: ['status', 'actions'], when: 'a relist is not offered now' },
  CASHOUT_REMAINDER_CHANGED: {
    status: 409,
    fields: ['status', 'actions'],
    when: 'the listed remainder changed before send-to-address could start',
  },
  CASHOUT_SEND_IN_PROGRESS: { status: 409, fields: ['status', 'actions'], when: 'a listing, relist, withdraw or USDC transfer is in progress' },
  CASHOUT_SEND_NOT_ALLOWED: { status: 409, fields: ['status', 'actions'], when: 'sending is not possible in the payout’s state' },
  CASHOUT_SIGNER_NOT_ATTACHED: { status: 409, fields: ['status', 'actions'], when: 'the payout signer is not attached' },
  CASHOUT_SKIP_NOT_ALLOWED: { status: 409, fields: ['status', 'actions'], when: 'SKIP_CONNECT is not offered' },
  CASHOUT_WALLET_SHORT: {
    status: 409,
    fields: ['walletShortfall'],
    when: 'the wallet no longer holds enough USDC; responseObject is the checkout state',
  },
  CASHOUT_ADDRESS_NOT_ALLOWED: {
    status: 422,
    fields: ['reason'],
    when: 'the crypto address is refused; reason is INVALID, ZERO, OWN_WALLET, ESCROW or TOKEN',
  },
  CASHOUT_AMOUNT_OUTSIDE_RAIL_LIMITS: { status: 422, when: 'the unpaid amount cannot be listed on this method' },
  CASHOUT_CREDENTIAL_INACTIVE: { status: 422, when: 'the confirmation needs an active connection and connecting was not skipped' },
  CASHOUT_PAYEE_HANDLE_INVALID: { status: 422, when: 'the account does not fit the platform’s rules, or was refused' },
  CASHOUT_PAYEE_NOT_FOUND: { status: 422, when: 'no such account', planned: true },
  CASHOUT_PAYEE_NOT_REGISTERED: { status: 422, when: 'the PayPal account is not set up' },
  CASHOUT_PAYOUT_AMOUNT_TOO_LOW: { status: 422, when: 'the provider’s minimum refused it, or the output is zero' },
  CASHOUT_PAYOUT_DESTINATION_UNSUPPORTED: { status: 422, when: 'the token is not supported on the selected network' },
  CASHOUT_PAYOUT_NETWORK_UNAVAILABLE: { status: 422, when: 'the rail is absent from the payout’s current rails' },
  CASHOUT_PAYOUT_ROUTE_UNAVAILABLE: { status: 422, when: 'the provider’s route is unavailable' },
  CASHOUT_PAYPAL_EMAIL_INVALID: { status: 422, when: 'the PayPal e-mail cannot be normalized' },
  CASHOUT_PAYPAL_EMAIL_MISMATCH: { status: 422, when: 'the e-mail does not match the registered PayPal payee' },
  CASHOUT_RAIL_UNAVAILABLE: { status: 422, when: 'the selected fiat rail is absent from the payout' },
  CASHOUT_PAYOUT_QUOTE_FAILED: { status: 502, when: 'any other quote failure' },
  CASHOUT_LISTING_UNAVAILABLE: { status: 503, when: 'the group transaction cannot be prepared; nothing was sent', planned: true },
  CASHOUT_PAYEE_UNAVAILABLE: { status: 503, when: 'the payout account could not be checked or registered' },
} as const satisfies Record<string, ErrorCodeRow>;

export type ErrorCode = keyof typeof ERROR_CODES;

type StatusesOf<C extends ErrorCode> = (typeof ERROR_CODES)[C]['status'] | ((typeof ERROR_CODES)[C] extends { alsoStatus: readonly (infer A)[] } ? A : never);

/** The codes answered with status `S`: their own status, or one they are also answered with. */
export type CodeWithStatus<S extends number> = { [C in ErrorCode]: S extends StatusesOf<C> ? C : never }[ErrorCode];

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** A refusal's HTTP status: its row's, or 422 for a code the table does not hold (a refusal nobody documented is unprocessable). */
export function statusOfCode(code: string): number {
  return (isErrorCode(code) ? ERROR_CODES[code].status : null) ?? 422;
}
