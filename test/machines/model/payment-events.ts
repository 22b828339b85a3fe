/**
 * The payment model's inputs: a sandbox attempt, a live fiat attempt and a live crypto
 * attempt, and what the world sends each. The customer's commands are offered to all
 * three (the kind refuses what does not apply); what the chain says (transaction
 * outcomes, facts, the intent's signal) only to the live fiat attempt, and what the
 * conversion provider says only to the crypto one. Times are inside the window unless a
 * sample is named `late`; facts are named by id, so a retracted one is never offered as new.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { paymentKind } from '../../../actors/kinds/index.js';
import { EXTEND_PURPOSE, FULFIL_PURPOSE, SIGNAL_PURPOSE, type PaymentContext, type PaymentEvent, type PaymentHex } from '../../../machines/payment/index.js';
import { sample, type Variant } from '../../support/model-paths.js';
import { cryptoPaymentInput, INTENT_HASH, livePaymentInput, sandboxPaymentInput } from '../../support/payment-input.js';

export const PAYMENT_KIND = paymentKind;

const sandbox = sandboxPaymentInput({ id: 'pay_model_sandbox' });
const live = livePaymentInput({ id: 'pay_model_live' });
const crypto = cryptoPaymentInput({ id: 'pay_model_crypto' });

export const PAYMENT_VARIANTS: Variant[] = [
  { name: 'sandbox', id: sandbox.id, create: { type: 'CREATE', ...sandbox } },
  { name: 'live fiat', id: live.id, create: { type: 'CREATE', ...live } },
  { name: 'live crypto', id: crypto.id, create: { type: 'CREATE', ...crypto } },
];

/** In the window (12:00 to 13:00 for fiat, to 18:00 for crypto), and past the fiat window. */
const AT = '2026-11-23T12:30:00.000Z';
const LATE = '2026-11-23T13:30:00.000Z';
const ms = (iso: string) => Date.parse(iso);

const SIGNAL_TX: PaymentHex = '0x5151515151515151515151515151515151515151515151515151515151515151';
const FULFIL_TX: PaymentHex = '0xf0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0';
const CHARGEBACK_TX: PaymentHex = '0xcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcb';

const outcome = (label: string, purpose: string, status: 'MINED' | 'FAILED', at: string): PaymentEvent =>
  sample(label, {
    type: 'TRANSACTION_OUTCOME',
    transactionId: `tx_${purpose}`,
    purpose,
    outcome: {
      status,
      hash: status === 'MINED' ? (purpose === FULFIL_PURPOSE ? FULFIL_TX : SIGNAL_TX) : null,
      reason: status === 'FAILED' ? 'reverted' : null,
      at: ms(at),
    },
  });

const CUSTOMER: PaymentEvent[] = [
  { type: 'MARK_SENT', at: AT },
  { type: 'SUBMIT_PROOF', proof: { encryptedSessionMaterial: 'sealed-session-material', params: { paymentId: 'venmo_4411' } }, at: AT },
  { type: 'SIMULATE_PAYMENT', at: AT },
  sample('customer', { type: 'CANCEL', reason: 'CUSTOMER', at: AT }),
  sample('replaced', { type: 'CANCEL', reason: 'REPLACED', at: AT }),
];

const CHAIN: PaymentEvent[] = [
  { type: 'INTENT_SIGNALED', intentHash: INTENT_HASH, signalTimestamp: Math.floor(ms(AT) / 1000), expiryTime: Math.floor(ms(AT) / 1000) + 86_400, at: AT },
  outcome('signal mined', SIGNAL_PURPOSE, 'MINED', AT),
  outcome('signal failed', SIGNAL_PURPOSE, 'FAILED', AT),
  outcome('fulfil mined', FULFIL_PURPOSE, 'MINED', AT),
  outcome('fulfil failed', FULFIL_PURPOSE, 'FAILED', AT),
  outcome('fulfil failed late', FULFIL_PURPOSE, 'FAILED', LATE),
  { type: 'PAYMENT_VERIFIED', paymentProof: '0xa77e57a77e57', at: AT },
  sample('in the window', { type: 'VERIFICATION_REJECTED', code: 'PROOF_INVALID', message: 'the proof names another payment', at: AT }),
  sample('late', { type: 'VERIFICATION_REJECTED', code: 'PROOF_INVALID', message: 'the proof names another payment', at: LATE }),
];

/** Remediation's steps (document 1, Remediation actions): the runner's asks, and what the chain answers an extension. */
const REMEDIATION: PaymentEvent[] = [
  { type: 'REOPEN', actionId: 'act_model_recreate', at: AT },
  { type: 'EXTEND', actionId: 'act_model_extend', at: AT },
  { type: 'SELLER_RECEIPT', actionId: 'act_model_fulfil', txId: 'venmo_4411', at: AT },
  outcome('extension mined', EXTEND_PURPOSE, 'MINED', AT),
  outcome('extension failed', EXTEND_PURPOSE, 'FAILED', AT),
  { type: 'INTENT_EXTENDED', expiryTime: Math.floor(ms(LATE) / 1000) + 86_400, at: AT },
  { type: 'EXTENSION_REFUSED', code: 'UNSUPPORTED_INTENT_GUARDIAN', message: 'no guardian', at: AT },
  {
    type: 'MESSAGE_REFUSED',
    to: { kind: 'action', id: 'act_model_extend' },
    event: { type: 'ACTION_SUCCEEDED' },
    code: 'EVENT_NOT_ACCEPTED',
    message: 'the action ended',
  },
];

const PROVIDER: PaymentEvent[] = [
  { type: 'TRANSFER_RECEIVED', originAmount: '25125000', sourceTransactionHash: '0x5e5e', at: AT },
  { type: 'TRANSFER_DELIVERED', transactionHash: '0xde11', netUsdc: '24875000', feeUsdc: '125000', originAmount: '25125000', at: AT },
  { type: 'TRANSFER_FAILED', status: 'REFUNDED', message: 'the provider refunded the transfer', at: AT },
];

/**
 * The escrow's record of a chargeback on the attempt's intent (docs/chargebacks.md), under two fact ids (a
 * redelivery after a reorganisation), offered once it settled, and the order's answer with the whole fact.
 */
function chargebacks(context: PaymentContext): PaymentEvent[] {
  if (context.railIdentifier === null || context.settlementFactId === null) return [];
  const recorded = (id: string): PaymentEvent =>
    sample(`chargeback ${id}`, {
      type: 'CHAIN_FACT',
      fact: {
        id,
        transactionHash: CHARGEBACK_TX,
        blockTimestamp: String(Math.floor(ms(LATE) / 1000)),
        chargebackCompensated: {
          intentHash: context.railIdentifier!,
          disputeId: 'dsp_model',
          depositId: context.quote.depositId,
          compensatedAmount: '25000000',
        },
      },
    });
  const claim = context.chargebackClaim ?? null;
  return [
    recorded('fact_chargeback'),
    recorded('fact_chargeback#2'),
    ...(claim
      ? [
          {
            type: 'CHARGEBACK_RECORDED' as const,
            chargeback: {
              paymentId: context.id,
              intentHash: claim.intentHash,
              disputeId: claim.disputeId,
              status: 'CHARGEBACKED' as const,
              compensatedUsdcAmount: '25',
              disputedAt: claim.disputedAt,
              disputeTxHash: claim.disputeTxHash,
              refundOverlap: 'NONE' as const,
              bridgeOrSweepOverlap: null,
            },
          },
        ]
      : []),
  ];
}

/** IntentFulfilled and IntentPruned facts for the attempt's intent, and the retraction of the fact that settled it. */
function facts(context: PaymentContext): PaymentEvent[] {
  if (context.railIdentifier === null) return [];
  const seconds = String(Math.floor(ms(AT) / 1000));
  const fulfilled = (id: string, retracted?: boolean): PaymentEvent =>
    sample(retracted ? `${id} retracted` : `${id} fulfilled`, {
      type: 'CHAIN_FACT',
      fact: {
        id,
        transactionHash: FULFIL_TX,
        blockTimestamp: seconds,
        ...(retracted ? { retracted } : {}),
        intentFulfilled: { intentHash: context.railIdentifier!, amount: String(context.price.netUsdc), fundsTransferredTo: context.quote.toAddress },
      },
    });
  return [
    fulfilled('fact_1'),
    fulfilled('fact_2'),
    ...(context.settlementFactId ? [fulfilled(context.settlementFactId, true)] : []),
    sample('pruned', {
      type: 'CHAIN_FACT',
      fact: { id: 'fact_pruned', transactionHash: '0x77', blockTimestamp: seconds, intentPruned: { intentHash: context.railIdentifier } },
    }),
  ];
}

export function paymentEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const context = snapshot.context as PaymentContext;
  if (context.chain === null) return CUSTOMER;
  if (context.conversion !== null) return [...CUSTOMER, ...PROVIDER];
  return [...CUSTOMER, ...CHAIN, ...REMEDIATION, ...facts(context), ...chargebacks(context)];
}

/** What the guards and the kind's refusals read. */
export function paymentAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const context = snapshot.context as PaymentContext;
  return {
    value: snapshot.value,
    intent: context.railIdentifier !== null,
    sent: context.sentAt !== null,
    proof: context.proof !== null,
    attestation: context.paymentProof !== null,
    settledBy: context.settlementFactId,
    retracted: context.retractedFactIds,
    received: context.transferReceived !== null,
    error: context.errorCode,
    reopened: (context.reopenings ?? 0) > 0,
    remediation: context.remediation?.actionName ?? null,
    receipt: (context.sellerReceipt ?? null) !== null,
    chargebackClaim: (context.chargebackClaim ?? null) !== null,
    chargeback: (context.chargeback ?? null) !== null,
  };
}
