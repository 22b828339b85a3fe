/**
 * POST …/connect: the customer's Venmo, Cash App or PayPal account connected with the identity
 * attestation the attestation service gave for it (account-connection.ts). A FUNDED payout
 * waiting for its account is READY; a READY one that skipped connecting, or whose connection
 * lapsed, is connected (again). Answers the checkout state.
 */
import { payoutKind } from '../../actors/kinds/payout-kind.js';
import { detailedFailure } from '../checkout/checkout-answers.js';
import { reply } from '../envelope.js';
import { invalid, standardAnswers, success } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { attestedConnection, connectBody } from './account-connection.js';
import { cashoutError, signedInPayout, type CheckoutPayout } from './cashout-access.js';
import { iso, signedInAnswers, stateRefusal, type CashoutActionDependencies } from './cashout-action-operations.js';
import { payoutPath, stateOfPayout } from './cashout-read.js';
import { cashoutState } from './cashout-state.js';
import type { PayoutFiatRail } from '../../machines/payout/payout-rails.js';

export function cashoutConnectOperations(): Operation<CashoutActionDependencies>[] {
  return [connectOperation];
}

const connectOperation = defineOperation({
  method: 'post',
  path: '/api/v1/cashout-checkout/:payoutId/connect',
  operationId: 'connectCashoutAccount',
  tags: ['Payout checkout'],
  summary: 'Connect the account buyers pay',
  description:
    'On Venmo, Cash App and PayPal: the identity attestation the attestation service answered to POST /identity (document 3) for a session of the customer’s account on the rail, with the payout’s wallet as callerAddress. The checkout believes it only if a trusted enclave signer signed it for this chain, for the rail’s registration action, for this wallet, still valid, naming the account the method was saved with; the connection holds until the attestation’s validUntil.',
  guard: 'cashoutSignedIn',
  request: { path: payoutPath, body: connectBody },
  answers: standardAnswers(
    {
      '200': success(200, cashoutState, 'Connected'),
      '400': invalid('the body is not an identity attestation'),
      ...signedInAnswers,
      '409': detailedFailure(409, [
        stateRefusal('CASHOUT_METHOD_LOCKED', 'no Venmo, Cash App or PayPal method can be connected now'),
        stateRefusal('CASHOUT_SEND_IN_PROGRESS', 'a listing or transfer is on its way'),
        stateRefusal('CASHOUT_PAYOUT_BRIDGING', 'a crypto payout is with the provider'),
      ]),
      '422': detailedFailure(422, [
        {
          code: 'CASHOUT_PAYEE_HANDLE_INVALID',
          when: 'the attestation is refused: another account, app, payout or chain, an untrusted signer, a signature that does not hold, or expired',
        },
      ]),
    },
    { asksActors: true, unavailable: [{ code: 'CASHOUT_PAYEE_UNAVAILABLE', when: 'this node cannot check connections (no chain or attestation service)' }] },
  ),
  handle:
    (deps: CashoutActionDependencies) =>
    async (ctx, { path, body }) => {
      const { payout } = await signedInPayout(deps, ctx, path.payoutId);
      const method = payout.method;
      const rail = method && 'handle' in method ? (method.rail as PayoutFiatRail) : null;
      const { payeeId } = payout;
      if (!rail || !payeeId || !payout.walletAddress)
        throw cashoutError('CASHOUT_METHOD_LOCKED', 'There is no account to connect on this payout now', { status: payout.status, actions: payout.actions });
      const { validUntil } = await attestedConnection(deps.connections, body, { rail, payeeId, wallet: payout.walletAddress, nowMs: deps.now() });
      const after = await deps.system.ask(payoutKind, payout.payout.payoutId, { type: 'CONNECTED', payeeId, validUntil, at: iso(deps) });
      reply(ctx, 200, 'Account connected', cashoutState, await stateOfPayout(deps, after as CheckoutPayout));
    },
});
