/**
 * The intent's effects against stand-ins for the chain and the attestation service: the
 * signal's read reports the intent's expiry with its signal time, and the proof's
 * verification sends the enclave both, reading the expiry from the intent on chain for a
 * payment whose snapshot was written before the expiry was kept.
 */
import test from 'ava';
import type { VerifyPaymentRequest } from '../../../proto/gen/peer/enclave/v1/enclave.js';
import { paymentEffects, type IntentPort, type PaymentEffectDependencies } from '../../../actors/payments/index.js';
import type { PaymentChain, PaymentHex } from '../../../machines/payment/index.js';
import { recordingEffectContext } from '../../support/effect-context.js';
import { LIVE_CHAIN } from '../../support/payment-input.js';

const INTENT_HASH: PaymentHex = '0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789';
const SIGNAL_TX: PaymentHex = '0x5151515151515151515151515151515151515151515151515151515151515151';
const SIGNALLED = 1_795_000_000;
const EXPIRES = SIGNALLED + 86_400;

/** The effects over a chain that signalled INTENT_HASH, and an enclave that records what it was asked. */
function effectsOn() {
  const expiryReads: Array<{ chain: PaymentChain; intentHash: PaymentHex }> = [];
  const asked: VerifyPaymentRequest[] = [];
  const intents: Partial<IntentPort> = {
    signalledIntent: async () => ({ intentHash: INTENT_HASH, signalTimestamp: SIGNALLED, expiryTime: EXPIRES }),
    intentExpiry: async (chain, intentHash) => {
      expiryReads.push({ chain, intentHash });
      return EXPIRES;
    },
  };
  const enclave = {
    verifyPayment: async (request: VerifyPaymentRequest) => {
      asked.push(request);
      return { paymentProof: '0xa77e57' };
    },
  };
  const deps = { intents, enclave, watch: async () => {} } as unknown as PaymentEffectDependencies;
  return { effects: paymentEffects(deps), expiryReads, asked };
}

const contextFor = (paymentId: string) => recordingEffectContext('payment', paymentId, { turn: 4, at: Date.parse('2026-11-23T12:05:00.000Z') });

const verifyParams = (expiryTime: number | null) => ({
  paymentId: 'pay_live',
  platform: 'venmo',
  proof: { encryptedSessionMaterial: 'sealed', params: { PAYMENT_ID: '4100001' } },
  sellerTxId: null,
  intent: {
    intentHash: INTENT_HASH,
    amount: '25000000',
    fiatCurrency: 'USD',
    payeeDetails: `0x${'22'.repeat(32)}` as const,
    conversionRate: '1013700000000000000',
    signalTimestamp: SIGNALLED,
    expiryTime,
    disputeProtection: false,
  },
  chain: LIVE_CHAIN,
});

test("the signal read tells the payment the intent's expiry with its hash and signal time", async (t) => {
  const { effects } = effectsOn();
  const { context, reports } = contextFor('pay_live');
  await effects.readSignal!({ paymentId: 'pay_live', transactionHash: SIGNAL_TX }, context);
  t.like(reports[0], { type: 'INTENT_SIGNALED', intentHash: INTENT_HASH, signalTimestamp: SIGNALLED, expiryTime: EXPIRES });
});

test('the enclave is asked with the expiry the payment kept, and the chain is not read for it', async (t) => {
  const { effects, expiryReads, asked } = effectsOn();
  const { context, reports } = contextFor('pay_live');
  await effects.verifyPayment!(verifyParams(EXPIRES), context);
  t.like(asked[0]?.intent, { intentHash: INTENT_HASH, signalTimestamp: BigInt(SIGNALLED), expiryTime: BigInt(EXPIRES) });
  t.is(asked[0]?.chainId, BigInt(LIVE_CHAIN.chainId));
  t.deepEqual(expiryReads, []);
  t.like(reports[0], { type: 'PAYMENT_VERIFIED', paymentProof: '0xa77e57' });
});

test('a payment written before the expiry was kept reads it from the intent on its own chain', async (t) => {
  const { effects, expiryReads, asked } = effectsOn();
  const { context } = contextFor('pay_live');
  await effects.verifyPayment!(verifyParams(null), context);
  t.deepEqual(expiryReads, [{ chain: LIVE_CHAIN, intentHash: INTENT_HASH }]);
  t.is(asked[0]?.intent?.expiryTime, BigInt(EXPIRES));
});
