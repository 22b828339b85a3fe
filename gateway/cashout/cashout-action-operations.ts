/**
 * What a signed-in customer does on a payout's checkout (docs/payout-checkout.md): attach the
 * payout signer to the wallet, save how to be paid, skip connecting the account, and confirm,
 * which lists the unpaid USDC for buyers. Each answers the checkout state after it; each
 * refusal of the payout's state carries { status, actions }.
 */
import { z } from 'zod';
import type { PayoutSignerProvider } from '../../actors/adapters/wallet-provider/payout-signers.js';
import type { RateSource } from '../../actors/adapters/rates/rate-source.js';
import { payoutKind } from '../../actors/kinds/payout-kind.js';
import type { PayeeDirectory } from '../../actors/market/payee-directory.js';
import { WALLET_CHECK_GRACE_MS } from '../../machines/payout/index.js';
import { formatUsdcCents, parseUsdc } from '../../machines/money.js';
import type { WalletBalances } from '../../actors/payouts/payout-effects.js';
import type { ErrorCode } from '../../actors/errors/error-codes.js';
import { detailedFailure } from '../checkout/checkout-answers.js';
import { reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { cashoutSignedInRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { cashoutError, signedInPayout, type CashoutAccessDependencies, type CheckoutPayout } from './cashout-access.js';
import { methodOf, saveMethodBody } from './cashout-methods.js';
import type { AccountConnections } from './account-connection.js';
import { bindQuote, type CashoutBridgeDependencies, type CryptoMethod } from './cashout-bridges.js';
import { isBaseUsdc, type PayoutBridgeQuote } from '../../machines/payout/index.js';
import { cashoutState } from './cashout-state.js';
import { listingFloor, payoutPath, stateOfPayout, type CashoutReadDependencies } from './cashout-read.js';

export interface CashoutActionDependencies extends CashoutAccessDependencies, CashoutReadDependencies, CashoutBridgeDependencies {
  signers: PayoutSignerProvider | null;
  /** What the customer's wallet holds, checked before a confirm; null without a chain. */
  balances: WalletBalances | null;
  payees: PayeeDirectory | null;
  /** How a Venmo, Cash App or PayPal connection's attestation is checked; null without a chain or attestation service. */
  connections: AccountConnections | null;
  rates: RateSource;
  escrow: string | null;
  now: () => number;
}

export function cashoutActionOperations(): Operation<CashoutActionDependencies>[] {
  return [attachSignerOperation, saveMethodOperation, skipConnectOperation, confirmOperation];
}

const PREFIX = '/api/v1/cashout-checkout/:payoutId';
const tags = ['Payout checkout'];
export const iso = (deps: Pick<CashoutActionDependencies, 'now'>) => new Date(deps.now()).toISOString();
const stateDetails = z.object({
  status: z.string().meta({ description: 'The payout’s status now' }),
  actions: z.array(z.string()).meta({ description: 'What the customer may do instead' }),
});
export const stateRefusal = (code: ErrorCode, when: string) => ({ code, when, details: stateDetails });
const LINK_EXPIRED = {
  code: 'CASHOUT_LINK_EXPIRED' as const,
  when: 'the payout has ended: it can be read, not acted on',
  details: z.object({ status: z.string().meta({ description: 'How it ended' }) }),
};

/** The 401s of a signed-in action, CASHOUT_LINK_EXPIRED with its status among them. */
export const signedInAnswers = {
  ...cashoutSignedInRefusals,
  '401': detailedFailure(401, [
    { code: 'CASHOUT_TOKEN_INVALID', when: 'the link token is missing or wrong, or no payout has that id' },
    { code: 'CASHOUT_LOGIN_REQUIRED', when: 'no `Authorization: Bearer` login token' },
    { code: 'CASHOUT_LOGIN_INVALID', when: 'the login token cannot be verified (expired, or signed under a rotated key)' },
    LINK_EXPIRED,
  ]),
};

export async function signerAttached(deps: CashoutActionDependencies, payout: CheckoutPayout): Promise<void> {
  const attached = deps.signers && payout.walletAddress ? await deps.signers.attached(payout.walletAddress as `0x${string}`) : false;
  if (!attached)
    throw cashoutError('CASHOUT_SIGNER_NOT_ATTACHED', 'Your wallet is not set up for payouts yet: set it up and try again', {
      status: payout.status,
      actions: payout.actions,
    });
}

const attachSignerOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/signer`,
  operationId: 'attachCashoutSigner',
  tags,
  summary: 'Set the wallet up for payouts',
  description:
    'Attaches the payout signer to the customer’s wallet under the payout-only policy: approve and use the escrow, relist, withdraw, and send up to 1,000 USDC per transfer on Base, gas sponsored. Done at sign-in; this retries it. Idempotent. No body.',
  guard: 'cashoutSignedIn',
  optionalBody: true,
  request: { path: payoutPath },
  answers: standardAnswers(
    { '200': success(200, cashoutState, 'Attached'), '400': invalid('payoutId is malformed'), ...signedInAnswers },
    { asksActors: true, unavailable: [{ code: 'CASHOUT_SIGNER_UNAVAILABLE', when: 'the wallet provider did not attach the signer; try again' }] },
  ),
  handle:
    (deps: CashoutActionDependencies) =>
    async (ctx, { path }) => {
      const { payout } = await signedInPayout(deps, ctx, path.payoutId);
      await attachSigner(deps, payout);
      reply(ctx, 200, 'Payout signer attached', cashoutState, await stateOfPayout(deps, payout));
    },
});

export async function attachSigner(deps: Pick<CashoutActionDependencies, 'signers'>, payout: CheckoutPayout): Promise<void> {
  if (!deps.signers || !payout.walletAddress) throw cashoutError('CASHOUT_SIGNER_UNAVAILABLE', 'This node cannot set wallets up for payouts');
  try {
    await deps.signers.attach(payout.walletAddress as `0x${string}`);
  } catch (error) {
    throw cashoutError('CASHOUT_SIGNER_UNAVAILABLE', 'Your wallet could not be set up for payouts just now: try again', null, error);
  }
}

const saveMethodOperation = defineOperation({
  method: 'put',
  path: `${PREFIX}/method`,
  operationId: 'saveCashoutMethod',
  tags,
  summary: 'Choose how to be paid',
  description:
    'Saves a fiat rail with the customer’s handle (and the currency on PayPal and Revolut), or a crypto destination. Zelle, Revolut, Chime and a crypto destination make the payout READY; Venmo, Cash App and PayPal wait for the account to connect, or for SKIP_CONNECT.',
  guard: 'cashoutSignedIn',
  request: { path: payoutPath, body: saveMethodBody },
  answers: standardAnswers(
    {
      '200': success(200, cashoutState, 'Saved'),
      '400': invalid('the body is not a method this checkout takes'),
      ...signedInAnswers,
      '409': detailedFailure(409, [
        stateRefusal('CASHOUT_METHOD_LOCKED', 'the method can no longer change (the payout is listed, paying or ended)'),
        stateRefusal('CASHOUT_SEND_IN_PROGRESS', 'a listing is on its way'),
        stateRefusal('CASHOUT_PAYOUT_BRIDGING', 'a crypto payout is with the provider (QUOTED or BRIDGING)'),
      ]),
      '422': detailedFailure(422, [
        { code: 'CASHOUT_PAYEE_HANDLE_INVALID', when: 'the handle does not fit the platform’s rules' },
        { code: 'CASHOUT_PAYEE_NOT_REGISTERED', when: 'the PayPal account is not set up' },
        { code: 'CASHOUT_PAYPAL_EMAIL_INVALID', when: 'the PayPal e-mail is not an e-mail address' },
        { code: 'CASHOUT_PAYPAL_EMAIL_MISMATCH', when: 'the PayPal e-mail is not the account’s' },
        { code: 'CASHOUT_RAIL_UNAVAILABLE', when: 'the payout does not offer that fiat rail' },
        { code: 'CASHOUT_PAYOUT_NETWORK_UNAVAILABLE', when: 'the payout does not offer that network' },
        { code: 'CASHOUT_PAYOUT_DESTINATION_UNSUPPORTED', when: 'the token is not paid out on that network' },
        {
          code: 'CASHOUT_ADDRESS_NOT_ALLOWED',
          when: 'the address is refused; responseObject.reason says why',
          details: z.object({
            reason: z.enum(['INVALID', 'ZERO', 'OWN_WALLET', 'ESCROW', 'TOKEN']).meta({ description: 'Why the address is refused' }),
          }),
        },
      ]),
    },
    { asksActors: true, unavailable: [{ code: 'CASHOUT_PAYEE_UNAVAILABLE', when: 'the PayPal account could not be checked now' }] },
  ),
  handle:
    (deps: CashoutActionDependencies) =>
    async (ctx, { path, body }) => {
      const { payout } = await signedInPayout(deps, ctx, path.payoutId);
      const method = await methodOf(body, { rails: payout.rails, payees: deps.payees, walletAddress: payout.walletAddress ?? '', escrow: deps.escrow });
      const after = await deps.system.ask(payoutKind, payout.payout.payoutId, { type: 'SAVE_METHOD', method, at: iso(deps) });
      reply(ctx, 200, 'Payout method saved', cashoutState, await stateOfPayout(deps, after as CheckoutPayout));
    },
});

const skipConnectOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/skip-connect`,
  operationId: 'skipCashoutConnect',
  tags,
  summary: 'Continue without connecting the account',
  description: 'On Venmo, Cash App and PayPal: the payout becomes READY without the account connected. No body.',
  guard: 'cashoutSignedIn',
  optionalBody: true,
  request: { path: payoutPath },
  answers: standardAnswers(
    {
      '200': success(200, cashoutState, 'READY'),
      '400': invalid('payoutId is malformed'),
      ...signedInAnswers,
      '409': detailedFailure(409, [
        stateRefusal('CASHOUT_PAYOUT_BRIDGING', 'a crypto payout is with the provider (QUOTED or BRIDGING): checked first'),
        stateRefusal('CASHOUT_SKIP_NOT_ALLOWED', 'SKIP_CONNECT is not offered'),
        stateRefusal('CASHOUT_SEND_IN_PROGRESS', 'a listing or transfer is on its way'),
      ]),
    },
    { asksActors: true },
  ),
  handle:
    (deps: CashoutActionDependencies) =>
    async (ctx, { path }) => {
      const { payout } = await signedInPayout(deps, ctx, path.payoutId);
      const after = await deps.system.ask(payoutKind, payout.payout.payoutId, { type: 'SKIP_CONNECT', at: iso(deps) });
      reply(ctx, 200, 'Connecting skipped', cashoutState, await stateOfPayout(deps, after as CheckoutPayout));
    },
});

/** The crypto method the payout saved, as the checkout checks a method now (its network may have been removed since). */
async function savedCryptoMethod(deps: CashoutActionDependencies, payout: CheckoutPayout): Promise<CryptoMethod> {
  const method = payout.method as { rail: string; destination: { tokenAddress: string; address: string } };
  return (await methodOf(
    { rail: method.rail, tokenAddress: method.destination.tokenAddress, address: method.destination.address } as Parameters<typeof methodOf>[0],
    { rails: payout.rails, payees: null, walletAddress: payout.walletAddress ?? '', escrow: deps.escrow },
  )) as CryptoMethod;
}

/**
 * Document 2: before confirming, the wallet must still hold what is unpaid (a payout funded in
 * the last 10 minutes is left out until its USDC shows); if not, 409 CASHOUT_WALLET_SHORT with the
 * checkout state and its shortfall.
 */
async function walletCovers(deps: CashoutActionDependencies, payout: CheckoutPayout): Promise<void> {
  const { fundedAt, depositAmount, paidAmount } = payout.payout;
  if (!deps.balances || !payout.walletAddress || fundedAt === null || depositAmount === null) return;
  if (deps.now() - Date.parse(fundedAt) < WALLET_CHECK_GRACE_MS) return;
  const unpaid = parseUsdc(depositAmount) - parseUsdc(paidAmount);
  const available = await deps.balances.usdcOf(payout.walletAddress as `0x${string}`);
  if (available >= unpaid) return;
  const state = await stateOfPayout(deps, payout);
  throw cashoutError('CASHOUT_WALLET_SHORT', 'Your wallet no longer holds the payout: it was spent in the wallet app', {
    ...state,
    walletShortfall: { requiredAmount: formatUsdcCents(unpaid), availableAmount: formatUsdcCents(available) },
  });
}

const confirmOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/confirm`,
  operationId: 'confirmCashout',
  tags,
  summary: 'Start the withdrawal',
  description:
    'On a fiat method: the wallet lists the unpaid USDC in the escrow for buyers (10 to 1,000 USDC; 1 outside production); the payout is LISTING once the deposit lands. On a crypto method: USDC on Base is sent straight to the address; any other network or token takes a new binding exact-input quote (the wallet as refund target) and the wallet sends the USDC to the provider once: the payout stays READY with payoutBridge QUOTED then BRIDGING until it is delivered (SETTLED) or refunded (READY again). The answer is the state with the listing or send on its way, which GET follows. No body.',
  guard: 'cashoutSignedIn',
  optionalBody: true,
  request: { path: payoutPath },
  answers: standardAnswers(
    {
      '200': success(200, cashoutState, 'The listing is on its way'),
      '400': invalid('payoutId is malformed'),
      ...signedInAnswers,
      '409': detailedFailure(409, [
        stateRefusal('CASHOUT_NOT_READY', 'no eligible method, state or unpaid amount'),
        stateRefusal('CASHOUT_SEND_IN_PROGRESS', 'a listing is already on its way'),
        stateRefusal('CASHOUT_PAYOUT_BRIDGING', 'a crypto payout is with the provider (QUOTED or BRIDGING)'),
        stateRefusal('CASHOUT_CONFIRM_CONFLICT', 'the payout changed while its quote was bound'),
        stateRefusal('CASHOUT_SIGNER_NOT_ATTACHED', 'the payout signer is not attached: POST …/signer'),
        {
          code: 'CASHOUT_WALLET_SHORT',
          when: 'the wallet no longer holds what is unpaid; responseObject is the checkout state with walletShortfall',
          details: cashoutState,
        },
      ]),
      '422': failure(422, [
        { code: 'CASHOUT_RAIL_UNAVAILABLE', when: 'the method’s currency cannot be priced now' },
        { code: 'CASHOUT_CREDENTIAL_INACTIVE', when: 'the account’s connection lapsed: connect it again, or continue without connecting' },
        { code: 'CASHOUT_AMOUNT_OUTSIDE_RAIL_LIMITS', when: 'what is unpaid is below the smallest listing (10 USDC; 1 outside production)' },
        { code: 'CASHOUT_PAYOUT_AMOUNT_TOO_LOW', when: 'the provider’s binding quote refused the amount as too small, or it converts to nothing' },
        { code: 'CASHOUT_PAYOUT_ROUTE_UNAVAILABLE', when: 'the provider has no route to the method’s network or token now' },
      ]),
      '502': failure(502, [{ code: 'CASHOUT_PAYOUT_QUOTE_FAILED', when: 'the provider’s binding quote failed; nothing was sent' }]),
    },
    { asksActors: true, unavailable: [{ code: 'RATE_UNAVAILABLE', when: 'the currency’s rate cannot be read now' }] },
  ),
  handle:
    (deps: CashoutActionDependencies) =>
    async (ctx, { path }) => {
      const { payout } = await signedInPayout(deps, ctx, path.payoutId);
      // What is not offered is the kind's to refuse, with { status, actions }: nothing is checked or priced for it.
      let rate = 0n;
      let bridge: PayoutBridgeQuote | undefined;
      if (payout.actions.includes('CONFIRM')) {
        await walletCovers(deps, payout);
        await signerAttached(deps, payout);
        const currency = (payout.method && 'currency' in payout.method ? payout.method.currency : undefined) ?? 'USD';
        const perUsd = await deps.rates.currencyPerUsd(currency);
        if (perUsd === null) throw cashoutError('CASHOUT_RAIL_UNAVAILABLE', `${currency} cannot be priced now`);
        // Rates are 6 decimals of the currency per USD; a listing's floor is 18 per USDC, USDC at 1 USD (document 2: 0 % spread).
        rate = perUsd * 10n ** 12n;
        // Bound last, once nothing else can refuse: a quote is never bound for a confirm that does not send.
        const destination = payout.method && 'destination' in payout.method ? payout.method.destination : undefined;
        if (destination && !isBaseUsdc(payout.method!.rail, destination.tokenAddress))
          bridge = await bindQuote(deps, payout, await savedCryptoMethod(deps, payout), BigInt(payout.unpaidUsdc));
      }
      const minUsdc = listingFloor(deps.environment);
      const after = await deps.system.ask(payoutKind, payout.payout.payoutId, {
        type: 'CONFIRM',
        minUsdc: minUsdc.toString(),
        rate: rate.toString(),
        ...(bridge ? { bridge } : {}),
        at: iso(deps),
      });
      reply(ctx, 200, 'Listing', cashoutState, await stateOfPayout(deps, after as CheckoutPayout));
    },
});
