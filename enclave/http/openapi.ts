/**
 * The OpenAPI 3.1 document of the attestation service's HTTP surface (attestation-app.ts),
 * generated from the request schemas the service parses with (requests.ts) and the
 * answer schemas (response-schemas.ts). Every operation lists, per failure status, the
 * errorCode values it can answer: each route names its codes, and the code's status
 * comes from one table (REFUSALS, as docs/enclave.md has them), so a code cannot be
 * documented under two statuses.
 */
import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { ATTESTATION_NONCE } from '../boundary/enclave.js';
import {
  buyerProofRequest,
  buyerVerifyRequest,
  disputeRequest,
  identityRequest,
  sellerCredentialRequest,
  sellerResolveRequest,
  sellerRevokeRequest,
} from '../requests.js';
import { MAX_CREDENTIAL_LIFETIME_SECONDS } from '../seller/seller-credentials.js';
import {
  answered,
  attestationDocument,
  disputeAttestation,
  disputeVerifierList,
  identityAttestation,
  paymentAttestation,
  refused,
  sellerCredential,
  sellerPlatformList,
} from './response-schemas.js';

/** Every refusal the routes answer: its status, and when. */
const REFUSALS = {
  INVALID_REQUEST: [400, 'The body, a path segment or the query does not fit the operation; the message names the fields, never their values'],
  INVALID_JSON: [400, 'The body is not JSON, or is a bare JSON scalar'],
  INVALID_SESSION_MATERIAL: [400, "The session material is not a compact JWE to this enclave's current key, or does not fit the platform"],
  SESSION_CONTEXT_MISSING: [400, 'The sealed material names no use or no expiry in its protected header'],
  SESSION_CONTEXT_MISMATCH: [400, 'The material was sealed for another purpose, platform, chain, intent or caller, or for longer than an hour'],
  SESSION_MATERIAL_EXPIRED: [400, 'The sealed material has expired: seal it again'],
  INVALID_PARAMS: [400, "params do not fit the platform's"],
  UNSUPPORTED_ACTION: [400, 'The action type is not the platform’s, or no such identity action exists'],
  UNSUPPORTED_CHAIN: [400, 'chainId is not served'],
  INVALID_VERIFYING_CONTRACT: [400, 'verifyingContract is not an address'],
  VERIFYING_CONTRACT_MISMATCH: [400, "verifyingContract is not the chain's payment verifier; omit it"],
  DISPUTE_VERIFIER_UNKNOWN: [400, 'No dispute verifier is deployed on the chain'],
  REVOCATION_NOT_AUTHORIZED: [403, "The revocation is not signed by the credential's owner for this credential and issuedAt"],
  UNSUPPORTED_PLATFORM: [404, 'The platform has no verifier on this path'],
  CREDENTIAL_NOT_FOUND: [404, 'No credential is kept for this platform and payee'],
  PAYMENT_ID_ALREADY_USED: [409, 'The payment was attested for another intent on this chain; asking again for its own intent signs again'],
  PAYLOAD_TOO_LARGE: [413, 'The body is over 512 KiB'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'The body is not application/json'],
  SESSION_REJECTED: [422, 'The platform answered 401 or 403: the session has ended'],
  PAYMENT_NOT_FOUND: [422, 'The platform has no such payment (it answered 404, or its answer does not hold it)'],
  PAYMENT_NOT_COMPLETED: [422, 'The payment is pending, failed or reversed'],
  PAYMENT_NOT_OUTGOING: [422, "The buyer's account received the payment rather than sent it"],
  PAYMENT_NOT_INCOMING: [422, "The payee's account sent the payment rather than received it"],
  PAYER_MISMATCH: [422, "Another account than the buyer's session sent the payment"],
  PAYER_UNVERIFIABLE: [422, "The platform's payments name their payer, and a proof carries no session to tie it to the buyer"],
  CURRENCY_MISMATCH: [422, "The payment is not in the intent's currency"],
  AMOUNT_TOO_LOW: [422, 'The payment is less than ceil(amount × conversionRate) in cents'],
  PAYEE_MISMATCH: [422, "The payment's recipient is not the payee the intent names"],
  MEMO_MISMATCH: [422, "The payment's memo does not carry the intent's reference as a word of its own"],
  PAYMENT_BEFORE_INTENT: [422, "The payment is dated before the intent's signal, beyond the platform's buffer"],
  PAYMENT_AFTER_INTENT: [422, "The payment is dated after the intent's expiry, beyond the platform's buffer"],
  PROOF_NOT_TRUSTED: [422, 'The proof is not signed by a trusted attestor for this platform, intent and response'],
  PROOF_STALE: [422, 'The proof was fetched before the intent was signalled, over an hour ago, or ahead of our clock'],
  PROOF_RESPONSE_INVALID: [422, "The proof's response body is not JSON, or not the platform's shape"],
  IDENTITY_NOT_VERIFIED: [422, "The platform's answer does not bear the identity out"],
  DKIM_VERIFICATION_FAILED: [
    422,
    "The e-mail has no passing DKIM signature of the platform's domain over its whole body, is not from that domain, or repeats a header that decides what it says",
  ],
  DISPUTE_DETAILS_NOT_FOUND: [422, 'The e-mail names no payment id and dispute id, or no readable date'],
  CREDENTIAL_PAYEE_MISMATCH: [422, "The session's platform account is not the payee payeeDetails names"],
  REVOCATION_STALE: [422, 'issuedAt is more than 300 seconds from the service’s clock'],
  SELLER_CREDENTIAL_UNAVAILABLE: [
    422,
    "The intent's payee keeps no active, unexpired credential, or it was sealed by an enclave with another signing key: upload it again",
  ],
  SELLER_CREDENTIAL_REJECTED: [422, 'The platform refused the kept credential; it is now REJECTED until the maker uploads a new one'],
  PLATFORM_UNAVAILABLE: [502, 'The platform did not answer in time, or answered an error of its own'],
  PLATFORM_RESPONSE_INVALID: [502, 'The platform answered in a shape this client cannot read'],
} as const satisfies Record<string, readonly [number, string]>;

type RefusalCode = keyof typeof REFUSALS;

/** What a POST body can be refused for before the service reads it. */
const BODY: RefusalCode[] = ['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
const SESSION: RefusalCode[] = ['INVALID_SESSION_MATERIAL', 'SESSION_CONTEXT_MISSING', 'SESSION_CONTEXT_MISMATCH', 'SESSION_MATERIAL_EXPIRED'];
const CHAIN: RefusalCode[] = ['UNSUPPORTED_CHAIN', 'INVALID_VERIFYING_CONTRACT', 'VERIFYING_CONTRACT_MISMATCH'];
/** Asking the platform with a session (platforms/platform-client.ts). */
const PLATFORM: RefusalCode[] = ['SESSION_REJECTED', 'PAYMENT_NOT_FOUND', 'PLATFORM_UNAVAILABLE', 'PLATFORM_RESPONSE_INVALID'];
/** The rules every payment meets whoever read it, then the claim on its id. */
const TERMS: RefusalCode[] = [
  'PAYMENT_NOT_COMPLETED',
  'CURRENCY_MISMATCH',
  'AMOUNT_TOO_LOW',
  'PAYEE_MISMATCH',
  'PAYMENT_BEFORE_INTENT',
  'PAYMENT_AFTER_INTENT',
  'PAYMENT_ID_ALREADY_USED',
];

type Answer = { description: string; content: { 'application/json': { schema: z.ZodType } } };
const json = (description: string, schema: z.ZodType): Answer => ({ description, content: { 'application/json': { schema } } });

/**
 * The success, one answer per failure status with exactly the codes `codes` puts under
 * it, a fault of ours, and the other methods of the path (each path serves one).
 */
function responses(method: 'GET' | 'POST', success: { status: number; schema: z.ZodType; description: string }, codes: RefusalCode[]) {
  const byStatus = new Map<number, RefusalCode[]>();
  for (const code of new Set(codes)) byStatus.set(REFUSALS[code][0], [...(byStatus.get(REFUSALS[code][0]) ?? []), code]);
  const answers: Record<string, Answer> = { [success.status]: json(success.description, answered(success.status, success.schema)) };
  for (const [status, listed] of [...byStatus].sort(([a], [b]) => a - b)) {
    answers[status] = json(listed.map((code) => `- \`${code}\`: ${REFUSALS[code][1]}`).join('\n'), refused(status, listed as [RefusalCode, ...RefusalCode[]]));
  }
  answers['405'] = json(
    `- \`METHOD_NOT_ALLOWED\`: the path asked with another method than ${method}, before any operation runs`,
    refused(405, ['METHOD_NOT_ALLOWED']),
  );
  answers['500'] = json('- `INTERNAL_ERROR`: a fault of ours; the answer shows no detail, the log has it under X-Request-Id', refused(500, ['INTERNAL_ERROR']));
  return answers;
}

const body = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema } } });

const platform = z.string().meta({ description: 'The platform id, as `venmo` or `zelle-chase`' });
const platformAction = z.object({ platform, actionType: z.string().meta({ description: 'The platform’s action, as `transfer_venmo`' }) });
const credentialPath = z.object({
  platform,
  payeeDetails: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/)
    .meta({ description: 'keccak256 of the payee id, as deposits name it' }),
});
const attestationQuery = z.object({
  nonce: z
    .string()
    .regex(ATTESTATION_NONCE)
    .optional()
    .meta({ description: '16 to 64 random bytes as lower-case 0x hex: the document is then signed for this request, now' }),
});

const PAYMENT_OUTPUT =
  'The answer is the EIP-712 PaymentAttestation the on-chain UnifiedPaymentVerifier accepts, with the ABI-encoded proof to pass to fulfillIntent. ' +
  'A payment id is claimed only once every rule holds; asking again for the same intent signs the same data again.';

const INTRO = `
Document 3's attestation service: payment, identity and dispute evidence checked inside the enclave and signed with EIP-712 for the on-chain verifiers. See docs/enclave.md.

Every answer but this document is the envelope \`{ success, message, responseObject, statusCode, errorCode? }\`: \`statusCode\` is the HTTP status, \`success\` is true exactly for a 2xx, and a refusal carries \`errorCode\` and \`responseObject\` null. Branch on \`errorCode\`, never on \`message\`. Each answer carries \`X-Request-Id\`, which the service's log line names.

Session material is sealed to \`encryptionKey\` of GET /attestation (compact JWE, ECDH-ES+A256KW, A256GCM) with its use in the protected header (\`peer: { purpose, platform, …, expiresAt }\`), and opened only inside the enclave.

On any path, before an operation is chosen: 404 \`NOT_FOUND\` for a path the service does not serve, 405 \`METHOD_NOT_ALLOWED\` for another method, 415 \`UNSUPPORTED_MEDIA_TYPE\` for a POST whose body is not application/json.
`.trim();

const SELLER_PATH =
  'The seller path attests a payment with the payee’s own platform session instead of the buyer’s: the maker keeps a credential with the service, and the service reads the payments the maker received.';

function attestationPaths() {
  return {
    '/attestation': {
      get: {
        operationId: 'getAttestationDocument',
        tags: ['Attestation'],
        summary: 'The attestation document',
        description:
          'What a client checks before trusting a signature or sealing session material: the measurement, the signer, the encryption key, and the signer’s signature binding them. Ask with a nonce for a document signed for this request.',
        requestParams: { query: attestationQuery },
        responses: responses('GET', { status: 200, schema: attestationDocument, description: 'The attestation document' }, ['INVALID_REQUEST']),
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['Service'],
        summary: 'This document',
        description: 'The one answer not wrapped in the envelope, so OpenAPI tools read it as it is.',
        responses: {
          '200': json('OpenAPI 3.1', z.record(z.string(), z.unknown())),
          '405': json('- `METHOD_NOT_ALLOWED`: the path asked with another method than GET', refused(405, ['METHOD_NOT_ALLOWED'])),
        },
      },
    },
  };
}

function buyerPaths() {
  return {
    '/buyer/verify/{platform}/{actionType}': {
      post: {
        operationId: 'verifyBuyerPayment',
        tags: ['Payments'],
        summary: "Attest a payment read with the buyer's session",
        description: `The enclave opens the buyer's sealed session (purpose \`payment\`, this platform, chainId and intentHash), reads the payment from the platform, and checks it against the intent: sent from the session's account, completed, in the intent's currency, enough at its rate, to its payee, made between its signal and its expiry (each widened by the platform's buffer; proving after the expiry is allowed). ${PAYMENT_OUTPUT} metadata.source is \`buyer-tee\`.`,
        requestParams: { path: platformAction },
        requestBody: body(buyerVerifyRequest),
        responses: responses('POST', { status: 200, schema: paymentAttestation, description: 'The payment attestation' }, [
          ...BODY,
          'INVALID_REQUEST',
          'UNSUPPORTED_PLATFORM',
          'UNSUPPORTED_ACTION',
          ...CHAIN,
          'INVALID_PARAMS',
          ...SESSION,
          ...PLATFORM,
          ...TERMS,
          'PAYMENT_NOT_OUTGOING',
          'PAYER_MISMATCH',
        ]),
      },
    },
    '/verify/{platform}/{actionType}': {
      post: {
        operationId: 'verifyBuyerProof',
        tags: ['Payments'],
        summary: "Attest a payment shown by a buyer's provider proof",
        description: `Instead of a session, the platform's response body vouched for by a trusted attestor: an EIP-191 signature over keccak256(abi.encode("peer-provider-proof:v1", keccak256(platform), intentHash, keccak256(responseBody), timestamp)). The body then meets the same rules; a payment that names its payer cannot be tied to the buyer without a session. ${PAYMENT_OUTPUT} metadata.source is \`buyer-proof\`.`,
        requestParams: { path: platformAction },
        requestBody: body(buyerProofRequest),
        responses: responses('POST', { status: 200, schema: paymentAttestation, description: 'The payment attestation' }, [
          ...BODY,
          'INVALID_REQUEST',
          'UNSUPPORTED_PLATFORM',
          'UNSUPPORTED_ACTION',
          ...CHAIN,
          'INVALID_PARAMS',
          'PROOF_NOT_TRUSTED',
          'PROOF_STALE',
          'PROOF_RESPONSE_INVALID',
          'PAYMENT_NOT_FOUND',
          ...TERMS,
          'PAYMENT_NOT_OUTGOING',
          'PAYER_UNVERIFIABLE',
        ]),
      },
    },
    '/identity': {
      post: {
        operationId: 'registerIdentity',
        tags: ['Identity'],
        summary: 'Attest that the caller holds a platform account',
        description:
          "The enclave opens the sealed session (purpose `identity`, the platform, callerAddress), reads the account from the platform and signs an IdentityAttestation, valid for a day, in the domain of the chain's payment verifier. callerAddress is signed, not authenticated. A platform's 404 to the account read answers PAYMENT_NOT_FOUND, as on every platform read.",
        requestBody: body(identityRequest),
        responses: responses('POST', { status: 200, schema: identityAttestation, description: 'The identity attestation' }, [
          ...BODY,
          'INVALID_REQUEST',
          'UNSUPPORTED_ACTION',
          'INVALID_PARAMS',
          'UNSUPPORTED_CHAIN',
          ...SESSION,
          ...PLATFORM,
          'IDENTITY_NOT_VERIFIED',
        ]),
      },
    },
  };
}

function disputePaths() {
  return {
    '/dispute/supported': {
      get: {
        operationId: 'listDisputeVerifiers',
        tags: ['Disputes'],
        summary: 'The platforms whose dispute e-mails are verified',
        responses: responses('GET', { status: 200, schema: disputeVerifierList, description: 'The dispute verifiers' }, []),
      },
    },
    '/dispute/verify/{platform}/{actionType}': {
      post: {
        operationId: 'verifyDispute',
        tags: ['Disputes'],
        summary: "Attest a platform's dispute e-mail",
        description:
          "The raw e-mail, sealed as `{rawEmail}` (purpose `dispute`, chainId and intentHash), must carry a passing DKIM signature of the platform's domain over its whole body. The answer is a DisputeAttestation in the chain's dispute verifier's domain: no proof for fulfillIntent.",
        requestParams: { path: platformAction },
        requestBody: body(disputeRequest),
        responses: responses('POST', { status: 200, schema: disputeAttestation, description: 'The dispute attestation' }, [
          ...BODY,
          'INVALID_REQUEST',
          'UNSUPPORTED_PLATFORM',
          'UNSUPPORTED_ACTION',
          'UNSUPPORTED_CHAIN',
          'DISPUTE_VERIFIER_UNKNOWN',
          ...SESSION,
          'DKIM_VERIFICATION_FAILED',
          'DISPUTE_DETAILS_NOT_FOUND',
        ]),
      },
    },
  };
}

function sellerPaths() {
  const days = MAX_CREDENTIAL_LIFETIME_SECONDS / 86_400;
  return {
    '/seller/supported': {
      get: {
        operationId: 'listSellerPlatforms',
        tags: ['Seller'],
        summary: 'The platforms the seller path serves',
        description: SELLER_PATH,
        responses: responses('GET', { status: 200, schema: sellerPlatformList, description: 'The seller platforms' }, []),
      },
    },
    '/seller/credentials/{platform}': {
      post: {
        operationId: 'uploadSellerCredential',
        tags: ['Seller'],
        summary: "Keep a maker's platform session for the seller path",
        description: [
          SELLER_PATH,
          `The session is sealed to the enclave's encryption key for purpose \`seller\`, this platform and callerAddress; the enclave opens it, asks the platform whose account it is, and keeps it only if that account is the payee payeeDetails names. It is kept sealed again to the enclave's storage key, so the store holds ciphertext that opens only in an enclave holding this signing key; the answer never carries it.`,
          `callerAddress becomes the owner, the only address that may revoke it. expiresAt (Unix seconds) is when the platform session ends, at most ${days} days ahead. A new upload for the same payee replaces the old credential.`,
          'A credential is **enabled** while ACTIVE (neither revoked nor refused by its platform) and **available** while also unexpired: the orderbook’s sellerAutomatedReleaseEnabled and sellerAutomatedReleaseAvailable.',
        ].join('\n\n'),
        requestParams: { path: z.object({ platform }) },
        requestBody: body(sellerCredentialRequest),
        responses: responses('POST', { status: 201, schema: sellerCredential, description: 'The credential kept' }, [
          ...BODY,
          'INVALID_REQUEST',
          'UNSUPPORTED_PLATFORM',
          ...SESSION,
          ...PLATFORM,
          'CREDENTIAL_PAYEE_MISMATCH',
        ]),
      },
    },
    '/seller/credentials/{platform}/{payeeDetails}': {
      get: {
        operationId: 'getSellerCredential',
        tags: ['Seller'],
        summary: "A payee's kept credential",
        description: 'Public: who owns it, its status, whether it is enabled and available, and when it ends. Never the session.',
        requestParams: { path: credentialPath },
        responses: responses('GET', { status: 200, schema: sellerCredential, description: 'The credential' }, [
          'INVALID_REQUEST',
          'UNSUPPORTED_PLATFORM',
          'CREDENTIAL_NOT_FOUND',
        ]),
      },
    },
    '/seller/credentials/{platform}/{payeeDetails}/revoke': {
      post: {
        operationId: 'revokeSellerCredential',
        tags: ['Seller'],
        summary: 'Revoke a kept credential',
        description:
          "The credential's owner signs, EIP-191 (personal_sign), the message `peer-seller-credential-revoke:v1:<credentialId>:<issuedAt>`, issuedAt in Unix seconds within 300 seconds of the service's clock: a signature revokes that one credential, now. The sealed session is erased and the credential answers REVOKED; revoking it again answers the same.",
        requestParams: { path: credentialPath },
        requestBody: body(sellerRevokeRequest),
        responses: responses('POST', { status: 200, schema: sellerCredential, description: 'The credential, revoked' }, [
          ...BODY,
          'INVALID_REQUEST',
          'UNSUPPORTED_PLATFORM',
          'CREDENTIAL_NOT_FOUND',
          'REVOCATION_STALE',
          'REVOCATION_NOT_AUTHORIZED',
        ]),
      },
    },
    '/seller/verify/{platform}/{actionType}': {
      post: {
        operationId: 'resolveSellerPayment',
        tags: ['Seller'],
        summary: "Attest a payment read with the payee's kept credential",
        description: [
          `No session from the caller: the credential the intent's payee keeps reads the payment, which must have been received by that account. The payee's account sees payments from anyone, so the payment is tied to its intent by its memo, which must carry \`paymentReference(intentHash)\` as a word of its own, in any case: \`PEER-\` and the first 12 hex digits of the intent hash, upper case (\`PEER-1A2B3C4D5E6F\` for 0x1a2b3c4d5e6f…).`,
          `The intent's other rules hold as on the buyer path. ${PAYMENT_OUTPUT} metadata.source is \`seller-tee\`. A platform that refuses the credential marks it REJECTED.`,
        ].join('\n\n'),
        requestParams: { path: platformAction },
        requestBody: body(sellerResolveRequest),
        responses: responses('POST', { status: 200, schema: paymentAttestation, description: 'The payment attestation' }, [
          ...BODY,
          'INVALID_REQUEST',
          'UNSUPPORTED_PLATFORM',
          'UNSUPPORTED_ACTION',
          ...CHAIN,
          'INVALID_PARAMS',
          'SELLER_CREDENTIAL_UNAVAILABLE',
          'SELLER_CREDENTIAL_REJECTED',
          // A kept session that no longer fits the platform's schema.
          'INVALID_SESSION_MATERIAL',
          'PAYMENT_NOT_FOUND',
          'PLATFORM_UNAVAILABLE',
          'PLATFORM_RESPONSE_INVALID',
          ...TERMS,
          'PAYMENT_NOT_INCOMING',
          'MEMO_MISMATCH',
        ]),
      },
    },
  };
}

export function attestationOpenApi(version: string) {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Peer attestation service',
      version,
      summary: 'Payment, identity and dispute evidence, checked in the enclave and signed for the chain',
      description: INTRO,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Peer-Proprietary' },
    },
    servers: [{ url: '/', description: 'The service serving this document' }],
    // Nothing authenticates a caller: what a request proves is in its sealed material and signatures.
    security: [],
    tags: [
      { name: 'Attestation', description: 'What clients check before trusting the service' },
      { name: 'Payments', description: 'Payment attestations for fulfillIntent, from the buyer’s side' },
      { name: 'Seller', description: 'Payment attestations from the payee’s kept credential' },
      { name: 'Identity', description: 'Identity attestations' },
      { name: 'Disputes', description: 'Dispute attestations from platform e-mails' },
      { name: 'Service', description: 'This description' },
    ],
    paths: { ...attestationPaths(), ...buyerPaths(), ...sellerPaths(), ...disputePaths() },
  });
}
