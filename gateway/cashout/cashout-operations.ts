/**
 * The customer's checkout of a payout, under /api/v1/cashout-checkout/{payoutId}: what the
 * page behind a payout's checkoutUrl calls, with the link's token in X-Cashout-Token and, to
 * act, the login token its sign-in answered (docs/payout-checkout.md). Merchants do not call
 * these.
 */
import { z } from 'zod';
import { detailedFailure } from '../checkout/checkout-answers.js';
import { payoutKind } from '../../actors/kinds/payout-kind.js';
import { reply } from '../envelope.js';
import { invalid, standardAnswers, success } from '../openapi/answers.js';
import { cashoutLinkRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { isoTime } from '../schemas/common.js';
import { attachSigner } from './cashout-action-operations.js';
import { linkedPayout } from './cashout-access.js';
import type { CashoutActionDependencies } from './cashout-action-operations.js';
import { merchantNameOf, payoutPath, stateOfPayout } from './cashout-read.js';
import { sendSignInCode, signIn, type SignInDependencies } from './cashout-sign-in.js';
import { cashoutState } from './cashout-state.js';

export type CashoutDependencies = CashoutActionDependencies & SignInDependencies;

export function cashoutOperations(): Operation<CashoutDependencies>[] {
  return [readOperation, sendCodeOperation, signInOperation];
}

const PREFIX = '/api/v1/cashout-checkout/:payoutId';
/** Where a sign-in goes on the payout's timeline and sets the wallet up: the customer can act from FUNDED until it ends. */
const ACTING = new Set(['FUNDED', 'READY', 'LISTING', 'PAYING']);
const tags = ['Payout checkout'];

const readOperation = defineOperation({
  method: 'get',
  path: PREFIX,
  operationId: 'readCashoutCheckout',
  tags,
  summary: 'Read a payout’s checkout',
  description:
    'The checkout state of the payout the link opens: the payout, what the customer may do now, the methods it offers and what happened so far. Readable with the link alone, and after the payout has ended.',
  guard: 'cashoutLink',
  request: { path: payoutPath },
  answers: standardAnswers({ '200': success(200, cashoutState, 'The checkout state'), '400': invalid('payoutId is malformed'), ...cashoutLinkRefusals }),
  handle:
    (deps: CashoutDependencies) =>
    async (ctx, { path }) => {
      const payout = await linkedPayout(deps, ctx, path.payoutId);
      reply(ctx, 200, 'Payout checkout', cashoutState, await stateOfPayout(deps, payout));
    },
});

const codeSent = z
  .strictObject({
    sentTo: z.string().meta({ description: 'The e-mail the code went to, masked', example: 'a••@example.com' }),
    expiresAt: isoTime.meta({ description: 'When the code stops working (10 minutes)' }),
  })
  .meta({ id: 'CashoutCodeSent' });

const sendCodeOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/sign-in/code`,
  operationId: 'sendCashoutSignInCode',
  tags,
  summary: 'E-mail a sign-in code',
  description:
    'Sends a six-digit code to the payout’s e-mail, good for 10 minutes and one sign-in; it replaces any code sent before. At most five codes per payout in 15 minutes (then 429 with x-retry-after). No body.',
  guard: 'cashoutLink',
  request: { path: payoutPath },
  optionalBody: true,
  answers: standardAnswers(
    {
      '202': success(202, codeSent, 'The code is on its way'),
      '400': invalid('payoutId is malformed'),
      ...cashoutLinkRefusals,
    },
    { asksActors: true, unavailable: [{ code: 'CASHOUT_CODE_NOT_SENT', when: 'the mail server did not take the message; ask again' }] },
  ),
  handle:
    (deps: CashoutDependencies) =>
    async (ctx, { path }) => {
      const payout = await linkedPayout(deps, ctx, path.payoutId);
      reply(ctx, 202, 'Sign-in code sent', codeSent, await sendSignInCode(deps, payout, await merchantNameOf(deps, payout)));
    },
});

const signInBody = z
  .strictObject({
    code: z
      .string()
      .regex(/^\d{6}$/, 'must be the six digits of the e-mailed code')
      .meta({ description: 'The six digits of the latest code e-mailed for this payout', example: '042917' }),
  })
  .meta({ id: 'CashoutSignIn' });
const signedIn = z
  .strictObject({
    loginToken: z.string().meta({ description: 'Send as `Authorization: Bearer <loginToken>` with the link token to act on the payout' }),
    expiresAt: isoTime.meta({ description: 'When the sign-in ends (2 hours)' }),
  })
  .meta({ id: 'CashoutSignedIn' });

const signInOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/sign-in`,
  operationId: 'signInToCashout',
  tags,
  summary: 'Sign in with the e-mailed code',
  description:
    'Trades the latest code for a login token of the payout’s customer, good on every payout of theirs. A code signs in once; five wrong tries end it.',
  guard: 'cashoutLink',
  request: { path: payoutPath, body: signInBody },
  answers: standardAnswers(
    {
      '200': success(200, signedIn, 'Signed in'),
      '400': invalid('the code is not six digits'),
      ...cashoutLinkRefusals,
      '422': detailedFailure(422, [
        {
          code: 'CASHOUT_CODE_INVALID',
          when: 'the code did not sign in; responseObject.reason says why',
          details: z.object({
            reason: z.enum(['WRONG_CODE', 'CODE_EXPIRED', 'NO_CODE', 'CODE_USED', 'TOO_MANY_TRIES']).meta({ description: 'Why the code did not sign in' }),
          }),
        },
      ]),
    },
    { asksActors: true },
  ),
  handle:
    (deps: CashoutDependencies) =>
    async (ctx, { path, body }) => {
      const payout = await linkedPayout(deps, ctx, path.payoutId);
      const answer = await signIn(deps, payout, body.code);
      if (ACTING.has(payout.status)) {
        await deps.system.ask(payoutKind, payout.payout.payoutId, { type: 'SIGNED_IN', at: new Date(deps.now()).toISOString() });
        // Set up at sign-in so the customer never waits on it later; a failure here is retried by POST …/signer.
        await attachSigner(deps, payout).catch((error: unknown) => ctx.state.log.warn({ err: error }, 'the payout signer was not attached at sign-in'));
      }
      reply(ctx, 200, 'Signed in', signedIn, answer);
    },
});
