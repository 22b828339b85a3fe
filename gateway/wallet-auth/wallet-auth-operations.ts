/** Makers' sign-in with an Ethereum wallet (docs/maker-auth.md): POST /v2/auth/nonce, /v2/auth/verify and /v2/auth/logout. */
import { reply } from '../envelope.js';
import { walletOf } from '../middleware/bearer-auth.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { makerTokenRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { makerToken, signedOut, signInBody, signInChallenge } from '../schemas/wallet-auth-schemas.js';
import type { WalletSessions } from './wallet-sessions.js';

export interface WalletAuthDependencies {
  sessions: WalletSessions;
}

export function walletAuthOperations(): Operation<WalletAuthDependencies>[] {
  return [nonceOperation, verifyOperation, logoutOperation];
}

const tags = ['Maker sign-in'];

const nonceOperation = defineOperation({
  method: 'post',
  path: '/v2/auth/nonce',
  operationId: 'createSignInNonce',
  tags,
  summary: 'A nonce for signing in with a wallet',
  description:
    'Build an EIP-4361 message with this nonce, this domain and a URI under this origin, have the wallet sign it, and send both to POST /v2/auth/verify. Nothing is stored until the sign-in.',
  guard: 'none',
  answers: standardAnswers({ '200': success(200, signInChallenge, 'The nonce and the fields the message must carry') }),
  handle: (deps: WalletAuthDependencies) => (ctx) => {
    // Each answer is a new nonce: nothing may keep one to hand out twice.
    ctx.set('cache-control', 'no-store');
    reply(ctx, 200, 'Sign-in nonce', signInChallenge, deps.sessions.challenge());
  },
});

const verifyOperation = defineOperation({
  method: 'post',
  path: '/v2/auth/verify',
  operationId: 'signInWithWallet',
  tags,
  summary: 'Sign in with a signed EIP-4361 message: a bearer token',
  description:
    'The message is checked (layout, domain, chain, times, nonce) and the signature recovered (an EOA’s; smart-contract wallets are not supported); each nonce signs in once. The token lasts MAKER_TOKEN_TTL_MS (default 24 hours), never beyond the message’s Expiration Time.',
  guard: 'none',
  request: { body: signInBody },
  answers: standardAnswers(
    {
      '200': success(200, makerToken, 'Signed in: the token, shown once'),
      '400': invalid('the body', [
        {
          code: 'SIWE_MESSAGE_INVALID',
          when: 'the message is not exactly an EIP-4361 message (a field missing or malformed, text besides the fields, an address not EIP-55 checksummed)',
        },
      ]),
      '401': failure(401, [
        { code: 'SIWE_DOMAIN_MISMATCH', when: 'the domain, scheme or URI is not this site’s (the challenge’s domain and uri)' },
        { code: 'SIWE_CHAIN_UNSUPPORTED', when: 'the Chain ID is not one of the challenge’s chainIds' },
        { code: 'SIWE_MESSAGE_EXPIRED', when: 'the message’s Expiration Time has passed' },
        { code: 'SIWE_MESSAGE_NOT_YET_VALID', when: 'its Issued At or Not Before is more than 5 minutes ahead of the service’s clock' },
        { code: 'SIWE_NONCE_UNKNOWN', when: 'the nonce was not issued by POST /v2/auth/nonce' },
        { code: 'SIWE_NONCE_EXPIRED', when: 'the nonce’s expiresAt has passed: ask for a new one' },
        { code: 'SIWE_NONCE_USED', when: 'the nonce has signed in already: ask for a new one' },
        { code: 'SIGNATURE_INVALID', when: 'the signature is not the message’s address signing this message' },
      ]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: WalletAuthDependencies) =>
    async (ctx, { body }) => {
      ctx.set('cache-control', 'no-store');
      reply(ctx, 200, 'Signed in', makerToken, await deps.sessions.signIn(body.message, body.signature as `0x${string}`));
    },
});

const logoutOperation = defineOperation({
  method: 'post',
  path: '/v2/auth/logout',
  operationId: 'signOut',
  tags,
  summary: 'Sign out: the token stops working',
  description: 'Ends the session of the token sent; the wallet’s other sessions go on.',
  guard: 'makerToken',
  answers: standardAnswers({ '200': success(200, signedOut, 'Signed out'), ...makerTokenRefusals }, { asksActors: true }),
  handle: (deps: WalletAuthDependencies) => async (ctx) => {
    reply(ctx, 200, 'Signed out', signedOut, await deps.sessions.signOut(walletOf(ctx)));
  },
});
