/**
 * The customer's crypto and listing exits (document 2, "Customer checkout endpoints"): price a
 * crypto payout, send a listing's remainder to an address after a partial payment, take a
 * listing back to choose another method, and relist what is left. Each answers the checkout state after it (the quote
 * answers CashoutPayoutQuote); each refusal of the payout's state carries { status, actions }.
 */
import type { Context } from 'koa';
import { z } from 'zod';
import { payoutKind } from '../../actors/kinds/payout-kind.js';
import { isBaseUsdc, type PayoutBridgeQuote } from '../../machines/payout/index.js';
import { detailedFailure } from '../checkout/checkout-answers.js';
import { reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { cashoutError, signedInPayout, type CheckoutPayout } from './cashout-access.js';
import { iso, signedInAnswers, signerAttached, stateRefusal, type CashoutActionDependencies } from './cashout-action-operations.js';
import { bindQuote, previewQuote, type CryptoMethod } from './cashout-bridges.js';
import { cryptoDestinationRequest, methodOf } from './cashout-methods.js';
import { cashoutState } from './cashout-state.js';
import { payoutPath, stateOfPayout } from './cashout-read.js';

export function cashoutCryptoOperations(): Operation<CashoutActionDependencies>[] {
  return [payoutQuoteOperation, sendToAddressOperation, withdrawOperation, relistOperation];
}

const PREFIX = '/api/v1/cashout-checkout/:payoutId';
const tags = ['Payout checkout'];

const destinationView = z
  .strictObject({
    chainId: z.number().int().meta({ description: 'The network’s chain id' }),
    tokenAddress: z.string().meta({ description: 'The catalog’s address of the token' }),
    symbol: z.string().meta({ description: 'The token’s symbol' }),
    decimals: z.number().int().meta({ description: 'The token’s decimals' }),
    address: z.string().meta({ description: 'Where it is sent, canonical' }),
  })
  .meta({ description: 'Where it would go (PayoutCryptoDestination)' });

const cashoutPayoutQuote = z
  .strictObject({
    destination: destinationView,
    usdcAmount: z.string().meta({ description: 'Decimal USDC that would leave the customer’s wallet' }),
    estimatedAmount: z.string().meta({ description: 'Decimal destination token it would deliver now (equals usdcAmount for USDC on Base)' }),
    quotedAt: z.iso.datetime().meta({ description: 'When it was priced' }),
  })
  .meta({ id: 'CashoutPayoutQuote' });

/** The 422s of a destination in the body, as saving a crypto method answers them. */
const destinationRefusals = [
  { code: 'CASHOUT_PAYOUT_NETWORK_UNAVAILABLE' as const, when: 'the payout does not offer that network' },
  { code: 'CASHOUT_PAYOUT_DESTINATION_UNSUPPORTED' as const, when: 'the token is not paid out on that network' },
  {
    code: 'CASHOUT_ADDRESS_NOT_ALLOWED' as const,
    when: 'the address is refused; responseObject.reason says why',
    details: z.object({ reason: z.enum(['INVALID', 'ZERO', 'OWN_WALLET', 'ESCROW', 'TOKEN']).meta({ description: 'Why the address is refused' }) }),
  },
  { code: 'CASHOUT_PAYOUT_AMOUNT_TOO_LOW' as const, when: 'the provider’s minimum refused it, or it converts to nothing' },
  { code: 'CASHOUT_PAYOUT_ROUTE_UNAVAILABLE' as const, when: 'the provider has no route to that network or token now' },
];

async function cryptoMethodOf(deps: CashoutActionDependencies, payout: CheckoutPayout, body: z.infer<typeof cryptoDestinationRequest>): Promise<CryptoMethod> {
  return (await methodOf(body, { rails: payout.rails, payees: null, walletAddress: payout.walletAddress ?? '', escrow: deps.escrow })) as CryptoMethod;
}

const payoutQuoteOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/payout-quote`,
  operationId: 'quoteCashoutPayout',
  tags,
  summary: 'Price a crypto payout',
  description:
    'What the payout would deliver to the address now, without binding anything: in READY with a crypto method and CONFIRM offered it prices the unpaid USDC, in LISTING with SEND_TO_ADDRESS offered the listed remainder. USDC on Base is priced one for one without the provider.',
  guard: 'cashoutSignedIn',
  request: { path: payoutPath, body: cryptoDestinationRequest },
  answers: standardAnswers(
    {
      '200': success(200, cashoutPayoutQuote, 'Payout priced'),
      '400': invalid('the body is not a destination (unknown fields are refused; each field 1 to 64 characters)'),
      ...signedInAnswers,
      '409': detailedFailure(409, [stateRefusal('CASHOUT_PAYOUT_QUOTE_NOT_ALLOWED', 'neither CONFIRM of a crypto method nor SEND_TO_ADDRESS is offered')]),
      '422': detailedFailure(422, destinationRefusals),
      '502': failure(502, [{ code: 'CASHOUT_PAYOUT_QUOTE_FAILED', when: 'the provider’s preview failed; try again' }]),
    },
    { asksActors: false },
  ),
  handle:
    (deps: CashoutActionDependencies) =>
    async (ctx, { path, body }) => {
      const { payout } = await signedInPayout(deps, ctx, path.payoutId);
      const crypto = payout.method !== null && 'destination' in payout.method;
      const offered = (payout.status === 'READY' && crypto && payout.actions.includes('CONFIRM')) || payout.actions.includes('SEND_TO_ADDRESS');
      if (!offered)
        throw cashoutError('CASHOUT_PAYOUT_QUOTE_NOT_ALLOWED', `There is nothing to price on a ${payout.status} payout now`, {
          status: payout.status,
          actions: payout.actions,
        });
      const quote = await previewQuote(deps, await cryptoMethodOf(deps, payout, body), BigInt(payout.unpaidUsdc));
      reply(ctx, 200, 'Payout priced', cashoutPayoutQuote, quote);
    },
});

const sendToAddressOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/send-to-address`,
  operationId: 'sendCashoutRemainder',
  tags,
  summary: 'Send what is left to an address',
  description:
    'After a buyer paid part: one batch of the wallet withdraws the listing and sends the listed remainder to the address, straight in USDC on Base, else to the provider under a new binding exact-input quote (the wallet as refund target). The payout stays LISTING until the send is mined (SETTLED) or, through the provider, until it is delivered (SETTLED) or refunded (READY).',
  guard: 'cashoutSignedIn',
  request: { path: payoutPath, body: cryptoDestinationRequest },
  answers: standardAnswers(
    {
      '200': success(200, cashoutState, 'The remainder is on its way'),
      '400': invalid('the body is not a destination (unknown fields are refused; each field 1 to 64 characters)'),
      ...signedInAnswers,
      '409': detailedFailure(409, [
        stateRefusal('CASHOUT_SEND_NOT_ALLOWED', 'no partial payment, no listed remainder, a buyer paying, or no crypto network on the payout'),
        stateRefusal('CASHOUT_SEND_IN_PROGRESS', 'a listing, withdrawal or transfer is on its way'),
        stateRefusal('CASHOUT_PAYOUT_BRIDGING', 'a crypto payout is with the provider'),
        stateRefusal('CASHOUT_REMAINDER_CHANGED', 'a buyer paid more before the send could start'),
        stateRefusal('CASHOUT_SIGNER_NOT_ATTACHED', 'the payout signer is not attached: POST …/signer'),
      ]),
      '422': detailedFailure(422, destinationRefusals),
      '502': failure(502, [{ code: 'CASHOUT_PAYOUT_QUOTE_FAILED', when: 'the provider’s binding quote failed; nothing was sent' }]),
    },
    { asksActors: true },
  ),
  handle:
    (deps: CashoutActionDependencies) =>
    async (ctx, { path, body }) => {
      const { payout } = await signedInPayout(deps, ctx, path.payoutId);
      const method = await cryptoMethodOf(deps, payout, body);
      let bridge: PayoutBridgeQuote | null = null;
      // What is not offered is the kind's to refuse: nothing is bound for it.
      if (payout.actions.includes('SEND_TO_ADDRESS')) {
        await signerAttached(deps, payout);
        if (!isBaseUsdc(method.rail, method.destination.tokenAddress)) bridge = await bindQuote(deps, payout, method, BigInt(payout.unpaidUsdc));
      }
      const after = await deps.system.ask(payoutKind, payout.payout.payoutId, {
        type: 'SEND_TO_ADDRESS',
        method,
        remainderUsdc: payout.unpaidUsdc,
        bridge,
        at: iso(deps),
      });
      reply(ctx, 200, 'Sending the rest', cashoutState, await stateOfPayout(deps, after as CheckoutPayout));
    },
});

/** A listing step without a body: the signer attached when the step is offered (the wallet signs it), then the payout asked; what is not offered is the kind's to refuse. */
async function listingStep(deps: CashoutActionDependencies, ctx: Context, payoutId: string, step: 'WITHDRAW' | 'RELIST') {
  const { payout } = await signedInPayout(deps, ctx, payoutId);
  if (payout.actions.includes(step)) await signerAttached(deps, payout);
  const after = await deps.system.ask(payoutKind, payout.payout.payoutId, { type: step, at: iso(deps) });
  return stateOfPayout(deps, after as CheckoutPayout);
}

const withdrawOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/withdraw`,
  operationId: 'withdrawCashoutListing',
  tags,
  summary: 'Take the listing back',
  description:
    'To change method or currency: the wallet withdraws the listing from the escrow and, once that is mined, the payout is FUNDED again with what buyers paid kept; the customer chooses a method again. No body.',
  guard: 'cashoutSignedIn',
  optionalBody: true,
  request: { path: payoutPath },
  answers: standardAnswers(
    {
      '200': success(200, cashoutState, 'The listing is being taken back'),
      '400': invalid('payoutId is malformed'),
      ...signedInAnswers,
      '409': detailedFailure(409, [
        stateRefusal('CASHOUT_ATTEMPT_NOT_LISTED', 'nothing is listed'),
        stateRefusal('CASHOUT_BUYER_PAYMENT_ACTIVE', 'a buyer is paying now'),
        stateRefusal('CASHOUT_SEND_IN_PROGRESS', 'a withdrawal or transfer is on its way'),
        stateRefusal('CASHOUT_PAYOUT_BRIDGING', 'a crypto payout is with the provider'),
        stateRefusal('CASHOUT_SIGNER_NOT_ATTACHED', 'the payout signer is not attached: POST …/signer'),
      ]),
    },
    { asksActors: true },
  ),
  handle:
    (deps: CashoutActionDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Taking the listing back', cashoutState, await listingStep(deps, ctx, path.payoutId, 'WITHDRAW'));
    },
});

const relistOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/relist`,
  operationId: 'relistCashoutListing',
  tags,
  summary: 'List what is left again',
  description:
    'After buyers paid part: the wallet sets the listing’s range to what is left (from the listing’s floor to the rest, at most 1,000 USDC a buyer), so buyers are offered no more than there is. The payout stays LISTING. No body.',
  guard: 'cashoutSignedIn',
  optionalBody: true,
  request: { path: payoutPath },
  answers: standardAnswers(
    {
      '200': success(200, cashoutState, 'The listing is being updated'),
      '400': invalid('payoutId is malformed'),
      ...signedInAnswers,
      '409': detailedFailure(409, [
        stateRefusal(
          'CASHOUT_RELIST_NOT_ALLOWED',
          'the range already matches what is left, a buyer is paying, the listing takes no new buyers, or what is left is below the smallest listing',
        ),
        stateRefusal('CASHOUT_SEND_IN_PROGRESS', 'a withdrawal, relist or transfer is on its way'),
        stateRefusal('CASHOUT_PAYOUT_BRIDGING', 'a crypto payout is with the provider'),
        stateRefusal('CASHOUT_SIGNER_NOT_ATTACHED', 'the payout signer is not attached: POST …/signer'),
      ]),
    },
    { asksActors: true },
  ),
  handle:
    (deps: CashoutActionDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Relisting', cashoutState, await listingStep(deps, ctx, path.payoutId, 'RELIST'));
    },
});
