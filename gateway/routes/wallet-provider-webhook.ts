/**
 * POST /v2/webhooks/walletprovider: the wallet provider's signed balance webhooks
 * (document 3). Authenticated by the signature over the body, not by a key, so the
 * body is read first (with every JSON body's limits), then verified as received, then
 * parsed for the transfer it reports (docs/wallet-provider-webhook.md).
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { ApiError, formError, reply } from '../envelope.js';
import { exactRouter } from '../routing.js';
import { walletProviderAccepted, walletProviderEventBody } from '../schemas/wallet-provider-schemas.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';
import { SignatureVerifier } from '../wallet-provider/signature.js';
import { WalletProviderIntake } from '../wallet-provider/webhook-intake.js';

export const WALLET_PROVIDER_WEBHOOK_PATH = '/v2/webhooks/walletprovider';

export interface WalletProviderRouteDependencies {
  system: ActorSystem;
  /** WALLET_PROVIDER_WEBHOOK_SECRET; absent or empty, the route answers 503 WEBHOOK_NOT_CONFIGURED. */
  walletProviderSecrets?: readonly string[];
  body: Middleware<GatewayState>;
  now(): string;
}

export function walletProviderRoutes(deps: WalletProviderRouteDependencies): Router<GatewayState> {
  const router = exactRouter();
  const secrets = deps.walletProviderSecrets ?? [];
  if (secrets.length === 0) {
    // Mounted even so, with the body left unread: a provider pointed at this node hears why (and retries), not a 404 that reads as a wrong URL.
    router.post(WALLET_PROVIDER_WEBHOOK_PATH, () => {
      throw new ApiError(503, 'The wallet-provider webhook is not configured on this node', 'WEBHOOK_NOT_CONFIGURED');
    });
    return router;
  }
  const verifier = new SignatureVerifier(secrets, () => deps.system.clock.now());
  const intake = new WalletProviderIntake(deps.system, deps.now);

  router.post(WALLET_PROVIDER_WEBHOOK_PATH, deps.body, async (ctx) => {
    // Kept by the body parser as decoded: the text the provider signed, before JSON parsing touched it; undefined without a body.
    const raw: string | undefined = ctx.request.rawBody;
    const message = verifier.verify((name) => ctx.get(name), raw ?? '');
    if (!raw) throw formError('The body must be a JSON object');
    const body = parseOrThrow(walletProviderEventBody, ctx.request.body);
    reply(ctx, 202, await intake.accept(message, raw, body, ctx.state.log), walletProviderAccepted, {});
  });

  return router;
}
