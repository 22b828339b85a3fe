/**
 * Authenticates makers by the bearer token their wallet's sign-in answered
 * (docs/maker-auth.md): `Authorization: Bearer pmt_…`. The session is found by the
 * token's hash (the store never holds the token) and must be signed in and unexpired by
 * the node's clock. A refusal is a 401 in the envelope whose errorCode says what to do:
 * TOKEN_MISSING (send one), TOKEN_INVALID (sign in again: unknown, malformed or signed
 * out) or TOKEN_EXPIRED (sign in again: its time is up), with RFC 6750's WWW-Authenticate.
 *
 * Every maker operation (referrals, transaction history, atomic-create) puts it in its
 * route's own middleware, as merchant operations do with apiKeyAuth.
 */
import type { Context, Middleware } from 'koa';
import { makerSessionKind } from '../../actors/makers/index.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { sameHash } from '../auth/secret-hash.js';
import { ApiError } from '../envelope.js';
import type { GatewayState } from '../state.js';
import { hashMakerToken, looksLikeMakerToken } from '../wallet-auth/maker-tokens.js';

/** The signed-in wallet a request acts for. */
export interface MakerWallet {
  /** EIP-55 checksummed. */
  address: string;
  /** The session's id (the nonce its sign-in consumed): what signing out ends. */
  sessionId: string;
  expiresAt: string;
}

export interface WalletAuthState {
  wallet: MakerWallet;
}

const BEARER = /^Bearer +(\S+) *$/i;

/** The token of an `Authorization: Bearer <token>` header; undefined when there is none. */
export function bearerToken(ctx: Pick<Context, 'get'>): string | undefined {
  return BEARER.exec(ctx.get('authorization'))?.[1];
}

function refused(message: string, errorCode: 'TOKEN_MISSING' | 'TOKEN_INVALID' | 'TOKEN_EXPIRED', ctx: Context): ApiError {
  ctx.set(
    'www-authenticate',
    errorCode === 'TOKEN_MISSING' ? 'Bearer realm="maker"' : `Bearer realm="maker", error="invalid_token", error_description="${message}"`,
  );
  return new ApiError(401, message, errorCode);
}

export function bearerAuth(deps: { system: ActorSystem; now(): string }): Middleware<GatewayState> {
  return async (ctx, next) => {
    const token = bearerToken(ctx);
    if (token === undefined) throw refused('Missing bearer token', 'TOKEN_MISSING', ctx);
    const tokenHash = hashMakerToken(token);
    const doc = looksLikeMakerToken(token)
      ? await deps.system.views(makerSessionKind).findOne({ 'view.tokenHash': tokenHash }, { projection: { view: 1 } })
      : null;
    const session = doc?.view;
    if (!doc || !session || !sameHash(session.tokenHash, tokenHash) || !session.signedIn) throw refused('Invalid bearer token', 'TOKEN_INVALID', ctx);
    if (Date.parse(session.expiresAt) <= Date.parse(deps.now())) throw refused('Bearer token expired', 'TOKEN_EXPIRED', ctx);
    (ctx.state as GatewayState & Partial<WalletAuthState>).wallet = { address: session.address, sessionId: doc._id, expiresAt: session.expiresAt };
    ctx.state.addLogFields({ wallet: session.address });
    await next();
  };
}

/** The wallet bearerAuth admitted; only routes behind it may ask. */
export function walletOf(ctx: { state: unknown }): MakerWallet {
  const { wallet } = ctx.state as Partial<WalletAuthState>;
  if (!wallet) throw new Error('walletOf() on a route without bearerAuth');
  return wallet;
}
