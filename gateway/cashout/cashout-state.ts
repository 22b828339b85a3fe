/**
 * What the customer's checkout reads (docs/payout-checkout.md, "The checkout state"): the
 * payout as the merchant sees it, what the customer may do next, the methods the payout
 * offers, and document 2's checkout fields. Built through this schema, so the customer's
 * e-mail never leaves but masked; the wallet is shown, as the customer's own (the link's holder).
 */
import { z } from 'zod';
import { PAYOUT_CRYPTO_RAILS, PAYOUT_FIAT_RAILS } from '../../machines/payout/payout-rails.js';
import { CASHOUT_ACTIONS } from '../../machines/payout/cashout-actions.js';
import { payoutView } from '../payouts/payout-resources.js';
import { isoTime } from '../schemas/common.js';
import { formatUsdcCents } from '../../machines/money.js';
import type { CheckoutPayout } from './cashout-access.js';

export const cashoutAction = z.enum(CASHOUT_ACTIONS).meta({ id: 'CashoutAction' });

const timelineEntry = z
  .strictObject({
    type: z.string().meta({ description: 'PayoutTimelineEventType' }),
    text: z.string().meta({ description: 'What happened, in words for the customer' }),
    txHash: z.string().nullable().meta({ description: 'The transaction it is about, if any' }),
    txChainId: z.number().int().nullable().meta({ description: 'The chain of txHash' }),
    occurredAt: isoTime,
  })
  .meta({ id: 'PayoutTimelineEntry' });

const cryptoDestination = z
  .strictObject({
    chainId: z.number().int().meta({ description: 'The network’s chain id' }),
    tokenAddress: z.string().meta({ description: 'The catalog’s address of the token' }),
    symbol: z.string().meta({ description: 'The token’s symbol' }),
    decimals: z.number().int().meta({ description: 'The token’s decimals' }),
    address: z.string().meta({ description: 'Where it is sent, canonical' }),
  })
  .meta({ id: 'PayoutCryptoDestination', description: 'Where a crypto payout goes' });

export const payoutBridgeView = z
  .strictObject({
    provider: z.enum(['ROUTEA', 'ROUTEB']).meta({ description: 'PayoutProvider: the route converting and delivering it' }),
    status: z.enum(['QUOTED', 'BRIDGING', 'DELIVERED', 'REFUNDED']).meta({ description: 'CashoutPayoutBridgeStatus (never NOT_SENT here)' }),
    destination: cryptoDestination,
    usdcAmount: z.string().meta({ description: 'Decimal USDC that left (or leaves) the wallet' }),
    estimatedAmount: z.string().meta({ description: 'The binding quote’s output, in the destination token' }),
    deliveredAmount: z.string().nullable().meta({ description: 'What arrived, in the destination token; null until delivered' }),
    destinationTxHash: z.string().nullable().meta({ description: 'The delivery on the destination network' }),
    refundedAmount: z.string().nullable().meta({ description: 'Decimal USDC that came back to the wallet; null unless refunded' }),
    refundTxHash: z.string().nullable().meta({ description: 'The refund on Base' }),
  })
  .meta({ id: 'CashoutPayoutBridgeView', description: 'The newest crypto payout through the provider' });

export const cashoutState = z
  .strictObject({
    payout: payoutView.meta({ description: 'The payout, as its merchant reads it (PayoutView)' }),
    merchant: z
      .strictObject({ name: z.string().nullable().meta({ description: 'The merchant’s name, as its profile says' }) })
      .meta({ description: 'Who is paying the customer out' }),
    sentTo: z.string().meta({ description: 'The payout’s e-mail, masked (`a••@example.com`): where sign-in codes go' }),
    walletAddress: z
      .string()
      .nullable()
      .meta({ description: 'The customer’s own embedded wallet on Base, which holds the payout: the callerAddress an account connection is attested for' }),
    actions: z.array(cashoutAction).meta({ description: 'What the customer may do now, in the order the page offers them' }),
    rails: z
      .array(
        z.strictObject({
          rail: z.enum([...PAYOUT_FIAT_RAILS, ...PAYOUT_CRYPTO_RAILS]).meta({ description: 'PayoutRail' }),
          kind: z.enum(['FIAT', 'CRYPTO']).meta({ description: 'FIAT: a buyer pays the customer on the rail; CRYPTO: sent to an address on the network' }),
          minAmount: z.string().nullable().meta({
            description:
              'FIAT: the least decimal USDC a listing takes, and the least a buyer may take of it (10.00 in production; 1.00 on a non-production node); CRYPTO: null, the provider’s minimum shows when priced',
          }),
        }),
      )
      .meta({ description: 'The methods this payout offers (its rails, less any an operator removed)' }),
    timeline: z.array(timelineEntry).meta({ description: 'What happened to the payout, oldest first' }),
    method: z
      .union([
        z.strictObject({
          rail: z.enum(PAYOUT_FIAT_RAILS).meta({ description: 'PayoutFiatRail' }),
          handle: z.string().meta({ description: 'The customer’s account on the rail, as they wrote it' }),
          currency: z.string().meta({ description: 'PayoutCurrency' }),
        }),
        z.strictObject({
          rail: z.enum(PAYOUT_CRYPTO_RAILS).meta({ description: 'PayoutCryptoRail' }),
          destination: cryptoDestination,
        }),
      ])
      .nullable()
      .meta({ id: 'PayoutMethodView', description: 'How the customer chose to be paid; null until they choose' }),
    walletShortfall: z
      .strictObject({
        requiredAmount: z.string().meta({ description: 'Decimal USDC the payout still needs in the wallet' }),
        availableAmount: z.string().meta({ description: 'Decimal USDC the wallet holds' }),
      })
      .nullable()
      .meta({ description: 'Set on a CASHOUT_WALLET_SHORT refusal: the USDC was spent in the wallet app; null otherwise' }),
    connection: z
      .strictObject({
        status: z
          .enum(['NOT_NEEDED', 'PENDING', 'SKIPPED', 'CONNECTED'])
          .meta({ description: 'NOT_NEEDED on Zelle, Revolut and Chime; PENDING until connected or skipped on Venmo, Cash App and PayPal' }),
        connectedUntil: isoTime
          .nullable()
          .meta({ description: 'CONNECTED: until when the account’s attestation holds; confirming after it needs connecting again' }),
      })
      .nullable()
      .meta({ description: 'The fiat method’s account connection; null without a fiat method' }),
    unpaidAmount: z
      .string()
      .meta({ description: 'Decimal USDC still the customer’s to be paid: the deposit less what buyers paid and what bridge refunds came back short' }),
    payoutBridge: payoutBridgeView.nullable().meta({ description: 'The newest crypto payout through the provider; null when there is none' }),
    settleTx: z
      .strictObject({
        chainId: z.number().int().meta({ description: 'The chain of txHash' }),
        txHash: z.string().meta({ description: 'The transaction' }),
      })
      .nullable()
      .meta({
        description:
          'What settled the payout: a delivered bridge’s destination transaction, else the Base transaction; null before it settled or when the newest bridge was refunded',
      }),
    listingError: z
      .strictObject({
        code: z.string().meta({ description: 'Why' }),
        message: z.string().meta({ description: 'In words for the customer' }),
      })
      .nullable()
      .meta({ description: 'Why the latest confirm did not list; null otherwise' }),
  })
  .meta({ id: 'CashoutState' });

export type CashoutState = z.infer<typeof cashoutState>;

export function cashoutStateOf(payout: CheckoutPayout, extra: { merchantName: string | null; sentTo: string; listingMinUsdc: bigint }): CashoutState {
  const fiat = (rail: string) => (PAYOUT_FIAT_RAILS as readonly string[]).includes(rail);
  return {
    payout: payout.payout,
    merchant: { name: extra.merchantName },
    sentTo: extra.sentTo,
    walletAddress: payout.walletAddress,
    actions: [...payout.actions],
    method: payout.method,
    listingError: payout.listingError,
    connection: payout.connection,
    unpaidAmount: formatUsdcCents(BigInt(payout.unpaidUsdc)),
    payoutBridge: payout.bridge,
    settleTx: payout.settleTx,
    walletShortfall: null,
    rails: payout.rails.map((rail) => ({
      rail: rail as CashoutState['rails'][number]['rail'],
      kind: fiat(rail) ? ('FIAT' as const) : ('CRYPTO' as const),
      minAmount: fiat(rail) ? formatUsdcCents(extra.listingMinUsdc) : null,
    })),
    timeline: [...payout.timeline],
  };
}
