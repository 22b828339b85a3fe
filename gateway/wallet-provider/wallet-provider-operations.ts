/**
 * POST /v2/webhooks/walletprovider: the wallet provider's signed balance webhooks
 * (document 3). Authenticated by the signature over the body, not by a key, so the
 * body is read first (with every JSON body's limits), then verified as received, then
 * parsed for the transfer it reports (docs/wallet-provider-webhook.md): the signature
 * headers and the body are documented, and read by the handler in that order.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { ApiError, formError, reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import {
  walletProviderAccepted,
  walletProviderEventBody,
  walletProviderEventExample,
  walletProviderSignatureHeaders,
} from '../schemas/wallet-provider-schemas.js';
import { parseOrThrow } from '../validation.js';
import { SIGNATURE_REFUSALS, SignatureVerifier } from './signature.js';
import { WalletProviderIntake } from './webhook-intake.js';

export interface WalletProviderDependencies {
  system: ActorSystem;
  /** WALLET_PROVIDER_WEBHOOK_SECRET; absent or empty, the route answers 503 WEBHOOK_NOT_CONFIGURED. */
  walletProviderSecrets?: readonly string[];
  now(): string;
}

/** The signature is the credential: declared as the header it travels in, with the scheme spelled out. */
export const walletProviderSecuritySchemes = {
  walletProviderSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'svix-signature',
    description:
      'Standard Webhooks signature (svix-id, svix-timestamp, svix-signature, or the webhook-* spelling) under WALLET_PROVIDER_WEBHOOK_SECRET: HMAC-SHA256 of "id.timestamp.body", base64, as v1,<signature>.',
  },
} as const;

/**
 * The webhook's operation. On a node without secrets it is mounted even so, with the body
 * left unread: a provider pointed at this node hears why (and retries), not a 404 that
 * reads as a wrong URL. The document shows the configured operation.
 */
export function walletProviderOperations(configured = true): Operation<WalletProviderDependencies>[] {
  return [configured ? receiveOperation : notConfiguredOperation];
}

const described = {
  method: 'post' as const,
  path: '/v2/webhooks/walletprovider',
  operationId: 'receiveWalletProviderWebhook',
  tags: ['Wallet provider'],
  summary: 'Signed balance events from the wallet provider',
  description: [
    'The body is checked as every JSON body is, then the signature over it as received, then what it reports.',
    'A USDC transfer on a catalog chain is stored once, however many messages report it; any other object is acknowledged and ignored.',
    'A message id is claimed with its body: the same body again is answered 202 and stores nothing twice, another body under it is refused 409.',
  ].join(' '),
  guard: 'walletProviderSignature' as const,
  answers: standardAnswers(
    {
      '202': success(202, walletProviderAccepted, 'Accepted: stored, already stored, or ignored (the message says which)'),
      '400': invalid('the body is empty or not a JSON object, or a balance event on an eip155 chain has a malformed field'),
      '401': failure(
        401,
        Object.entries(SIGNATURE_REFUSALS).map(([code, when]) => ({ code: code as keyof typeof SIGNATURE_REFUSALS, when })),
      ),
      '409': failure(409, [{ code: 'MESSAGE_ID_REUSED', when: 'the message id was accepted before with another body; nothing was stored' }]),
    },
    { body: true, asksActors: true, unavailable: [{ code: 'WEBHOOK_NOT_CONFIGURED', when: 'WALLET_PROVIDER_WEBHOOK_SECRET is not set on this node' }] },
  ),
};

const receiveOperation = defineOperation({
  ...described,
  documented: { header: walletProviderSignatureHeaders, body: walletProviderEventBody },
  bodyExample: walletProviderEventExample,
  handle: (deps: WalletProviderDependencies) => {
    const verifier = new SignatureVerifier(deps.walletProviderSecrets ?? [], () => deps.system.clock.now());
    const intake = new WalletProviderIntake(deps.system, deps.now);
    return async (ctx) => {
      // Kept by the body parser as decoded: the text the provider signed, before JSON parsing touched it; undefined without a body.
      const raw: string | undefined = ctx.request.rawBody;
      const message = verifier.verify((name) => ctx.get(name), raw ?? '');
      if (!raw) throw formError('The body must be a JSON object');
      const body = parseOrThrow(walletProviderEventBody, ctx.request.body);
      reply(ctx, 202, await intake.accept(message, raw, body, ctx.state.log), walletProviderAccepted, {});
    };
  },
});

const notConfiguredOperation = defineOperation({
  ...described,
  documented: { header: walletProviderSignatureHeaders },
  handle: () => () => {
    throw new ApiError(503, 'The wallet-provider webhook is not configured on this node', 'WEBHOOK_NOT_CONFIGURED');
  },
});
