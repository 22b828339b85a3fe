/**
 * Makers' own operations (docs/maker-auth.md, docs/maker-referrals.md,
 * docs/transaction-history.md): sign-in with a wallet, referrals and the transaction
 * history, each behind the bearer token the sign-in answers.
 */
import { redeemBody, referral, referralCodeBody } from '../schemas/referral-schemas.js';
import { transactionHistory, transactionHistoryPath } from '../schemas/transaction-history-schemas.js';
import { signedOut, signInBody, signInChallenge, makerToken } from '../schemas/wallet-auth-schemas.js';
import { failure, invalid, standardAnswers, success, type Answers } from './answers.js';
import { MAKER_TOKEN, NO_AUTH, makerTokenRefusals } from './security.js';

const signIn = ['Maker sign-in'];
const referrals = ['Referrals'];
const history = ['Transaction history'];

/** The history's own limit beside the address's: same answer, same headers. */
function walletLimited(answers: Answers): Answers {
  const standard = answers['429']!;
  return {
    ...answers,
    '429': {
      ...standard,
      ...failure(429, [
        {
          when: 'Too many requests from this client address, or for this wallet (TRANSACTION_HISTORY_PER_MINUTE a minute, default 30); retry after `x-retry-after` seconds',
        },
      ]),
      headers: standard.headers,
    } as Answers[string],
  };
}

export function walletPaths() {
  return {
    '/v2/auth/nonce': {
      post: {
        operationId: 'createSignInNonce',
        tags: signIn,
        summary: 'A nonce for signing in with a wallet',
        description:
          'Build an EIP-4361 message with this nonce, this domain and a URI under this origin, have the wallet sign it, and send both to POST /v2/auth/verify. Nothing is stored until the sign-in.',
        security: NO_AUTH,
        responses: standardAnswers({ '200': success(200, signInChallenge, 'The nonce and the fields the message must carry') }),
      },
    },
    '/v2/auth/verify': {
      post: {
        operationId: 'signInWithWallet',
        tags: signIn,
        summary: 'Sign in with a signed EIP-4361 message: a bearer token',
        description:
          'The message is checked (layout, domain, chain, times, nonce) and the signature recovered (an EOA’s; smart-contract wallets are not supported); each nonce signs in once. The token lasts MAKER_TOKEN_TTL_MS (default 24 hours), never beyond the message’s Expiration Time.',
        security: NO_AUTH,
        requestBody: { required: true, content: { 'application/json': { schema: signInBody } } },
        responses: standardAnswers(
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
      },
    },
    '/v2/auth/logout': {
      post: {
        operationId: 'signOut',
        tags: signIn,
        summary: 'Sign out: the token stops working',
        description: 'Ends the session of the token sent; the wallet’s other sessions go on.',
        security: MAKER_TOKEN,
        responses: standardAnswers({ '200': success(200, signedOut, 'Signed out'), ...makerTokenRefusals }, { asksActors: true }),
      },
    },
    '/v1/v1/me/referral': {
      get: {
        operationId: 'getMyReferral',
        tags: referrals,
        summary: 'The signed-in wallet’s referral code, its redemptions and who referred it',
        security: MAKER_TOKEN,
        responses: standardAnswers({ '200': success(200, referral, 'The wallet’s referral'), ...makerTokenRefusals }),
      },
    },
    '/v1/v1/me/referral/code': {
      patch: {
        operationId: 'setMyReferralCode',
        tags: referrals,
        summary: 'Set or change the wallet’s referral code',
        description: 'The previous code is released for others to take. Redemptions stay counted for the wallet.',
        security: MAKER_TOKEN,
        requestBody: { required: true, content: { 'application/json': { schema: referralCodeBody } } },
        responses: standardAnswers(
          {
            '200': success(200, referral, 'The wallet’s referral with its new code'),
            '400': invalid('the body'),
            ...makerTokenRefusals,
            '409': failure(409, [{ code: 'REFERRAL_CODE_TAKEN', when: 'another wallet holds the code, in any letter case' }]),
          },
          { body: true, asksActors: true },
        ),
      },
    },
    '/v1/v1/redeem': {
      post: {
        operationId: 'redeemReferralCode',
        tags: referrals,
        summary: 'Redeem another maker’s referral code, once',
        security: MAKER_TOKEN,
        requestBody: { required: true, content: { 'application/json': { schema: redeemBody } } },
        responses: standardAnswers(
          {
            '201': success(201, referral, 'Redeemed: the wallet’s referral, referredBy set'),
            '400': invalid('the body', [{ code: 'REFERRAL_OWN_CODE', when: 'the code is the wallet’s own' }]),
            ...makerTokenRefusals,
            '404': failure(404, [{ code: 'REFERRAL_CODE_NOT_FOUND', when: 'no wallet holds the code' }]),
            '409': failure(409, [{ code: 'REFERRAL_ALREADY_REDEEMED', when: 'the wallet has redeemed a code already' }]),
          },
          { body: true, asksActors: true },
        ),
      },
    },
    '/v2/transaction-history/{chain}/{token}': {
      get: {
        operationId: 'getTransactionHistory',
        tags: history,
        summary: 'The signed-in wallet’s confirmed USDC transfers',
        description:
          'Direct USDC transfers (ERC-20 Transfer events) from and to the wallet on the chain the service indexes, newest first, at most 1000. The first sign-in has the indexer read the wallet’s past transfers; until that backfill is done the older ones may be missing.',
        security: MAKER_TOKEN,
        requestParams: { path: transactionHistoryPath },
        responses: walletLimited(
          standardAnswers(
            {
              '200': success(200, transactionHistory, 'The transfers'),
              '400': invalid('chain or token is not a key or a symbol'),
              ...makerTokenRefusals,
              '404': failure(404, [
                { code: 'CHAIN_NOT_SUPPORTED', when: 'the service indexes another chain' },
                { code: 'TOKEN_NOT_SUPPORTED', when: 'the token is not usdc' },
              ]),
            },
            {
              unavailable: [
                { code: 'TRANSACTION_HISTORY_UNAVAILABLE', when: 'this node reads no chain' },
                { code: 'INDEXER_UNAVAILABLE', when: 'the chain indexer is not answering; retry after Retry-After' },
              ],
            },
          ),
        ),
      },
    },
  };
}
