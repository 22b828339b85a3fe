/**
 * The shape of one payment platform's definition: what a client must capture from a
 * signed-in session, which public params go beside it, and the one request the
 * attestation service makes with both. The enclave's adapters build their schemas and
 * requests from it and the gateway publishes it as provider templates, so a client is
 * never told to send anything the enclave would refuse.
 */

/**
 * How a session-material value is checked (formats.ts gives each one's rules; the
 * enclave maps each to its validator, and a format without one does not compile).
 */
export type SessionFormat = 'header' | 'bearer' | 'replayable-headers' | 'cashapp-activity-request';

/** Where, in the signed-in page's own request to the platform, a client reads a value. */
export type Capture =
  /** One header of that request, by name. */
  | { readonly from: 'request-header'; readonly header: string }
  /** Several headers of that request, as an object of name to value. */
  | { readonly from: 'request-headers' }
  /** The request's body, as text. */
  | { readonly from: 'request-body' };

export interface SessionField {
  /** The key in the session-material object the client seals. */
  readonly name: string;
  readonly format: SessionFormat;
  readonly optional?: true;
  readonly capture: Capture;
  readonly description: string;
}

/**
 * `payment`: names the payment the buyer made; `account`: names the session's own account,
 * which on the seller path the enclave reads from the kept session instead of the caller.
 */
export type ParamSource = 'payment' | 'account';

export interface ParamField {
  readonly name: string;
  readonly source: ParamSource;
  readonly description: string;
}

/** A header of the enclave's request: a session field's value, or a fixed value. */
export type RequestHeader = { readonly name: string; readonly session: string } | { readonly name: string; readonly value: string };

/**
 * One request to the platform. `{NAME}` in the path or a form value is the public param
 * NAME; in the path it is percent-encoded as one segment or query value.
 */
export interface RequestTemplate {
  readonly method: 'GET' | 'POST';
  /** Path and query under the platform's API base URL. */
  readonly path: string;
  readonly headers: readonly RequestHeader[];
  /** A session field holding more headers, sent before the named ones so those win (Cash App's requestHeaders). */
  readonly headersFrom?: string;
  /** A form of fixed values and params, or the JSON of a session field. */
  readonly body?: { readonly form: Readonly<Record<string, string>> } | { readonly json: string };
}

export type ActionKind = 'payment' | 'identity';

export interface ActionDefinition {
  /** The attestation service's action type, for example `transfer_venmo` or `register_venmo`. */
  readonly type: string;
  readonly session: readonly SessionField[];
  readonly params: readonly ParamField[];
  /** What the enclave asks the platform with the session and params. */
  readonly request: RequestTemplate;
  /**
   * How the enclave reads the session's own account: on a platform whose payment reads
   * show other people's payments too (Venmo), the payer must be that account; on the
   * seller path, the payment must have been received by it.
   */
  readonly accountRequest?: RequestTemplate;
}

export interface PlatformDefinition {
  /** The path segment and payment-method name; its keccak256 is the method hash on chain. */
  readonly id: string;
  readonly displayName: string;
  /** ISO 4217 codes the platform's payments are made in, its home currency first. */
  readonly currencies: readonly string[];
  /** Where the platform's web API answers in production. */
  readonly apiBaseUrl: string;
  /** Where a user signs in, so the page's own requests carry the session a client captures. */
  readonly loginUrl: string;
  /** The buyer's transfer, proven through the buyer TEE path. */
  readonly payment?: ActionDefinition;
  /** The account registration of document 3's identity actions. */
  readonly identity?: ActionDefinition;
}

/** One action of one platform, with its kind: what a provider template describes. */
export interface PlatformAction {
  readonly platform: PlatformDefinition;
  readonly kind: ActionKind;
  readonly action: ActionDefinition;
}
