/**
 * The effects of the payment machine. Each runs after the turn that asked for it is
 * written, at least once, so each is safe to run again: transactions are prepared
 * under ids derived from the payment (the relayer answers a second PREPARE with the
 * transaction already prepared), and every report to the payment carries the effect
 * id in its message id, so a second run's report is the first one's, replayed.
 *
 * A refusal of the attestation service (the proof does not hold) is the customer's to
 * fix and goes back to the payment as VERIFICATION_REJECTED; an outage throws, and the
 * runtime retries the effect with backoff.
 *
 * Crypto attempts ask the conversion provider. A status the provider cannot give now is
 * left to the next poll (the machine asks again in seconds); a delivery whose receipt
 * cannot be read yet throws, so it is read again. Cancelling a request the provider is
 * still converting throws too, until the conversion ends: its delivery still counts.
 */
import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { PermanentEffectError } from '../errors.js';
import type { EffectContext, EffectHandlers } from '../runtime/actor-kind.js';
import { reportToSelf } from '../runtime/effect-report.js';
import type { ChainSubject } from '../chain/chain-facts.js';
import type { EnclaveClient } from '../adapters/enclave/enclave-client.js';
import type { Relayer } from '../relayer/relayer.js';
import { walletFor } from '../kinds/transaction-kind.js';
import {
  ATTEMPT_LIFETIME_MS,
  cancelTransactionId,
  EXTEND_PURPOSE,
  EXTENSION_MS,
  FULFIL_PURPOSE,
  fulfilTransactionId,
  SIGNAL_PURPOSE,
  signalTransactionId,
  type paymentMachine,
  type Hex,
  type PaymentChain,
  type PaymentEvent,
} from '../../machines/index.js';
import { PAYMENT_ID } from '../../machines/platforms/index.js';
import { transferAction } from '../../machines/rails.js';
import type { IntentPort } from '../adapters/chain/intent-port.js';
import { extensionRefusal as chainRefusal } from '../adapters/chain/intent-extension.js';
import type { ConversionProvider, ConversionState, DeliveryReader } from '../adapters/conversion/conversion-provider.js';
import type { DeliveryClaims } from './delivery-claims.js';

export interface PaymentEffectDependencies {
  relayer: Relayer;
  intents: IntentPort;
  /** Subscribes the payment to the facts of its intent. */
  watch(subject: ChainSubject, owner: { kind: string; id: string }): Promise<void>;
  enclave: EnclaveClient;
  /** Null on a node with no conversion provider: it takes no live crypto attempt. */
  conversions: ConversionProvider | null;
  deliveries: DeliveryReader;
  claims: DeliveryClaims;
}

type TransferParams = {
  paymentId: string;
  requestId: string | null;
  received: boolean;
  recipient: Hex | null;
  feeRecipient: Hex | null;
  chain: PaymentChain | null;
};

/** The codes a refusal of the service carries: the customer's proof does not hold, and asking again would not change that. */
const REFUSALS = new Set([
  GrpcStatus.INVALID_ARGUMENT,
  GrpcStatus.FAILED_PRECONDITION,
  GrpcStatus.ALREADY_EXISTS,
  GrpcStatus.PERMISSION_DENIED,
  GrpcStatus.NOT_FOUND,
]);

const owner = (paymentId: string) => ({ kind: 'payment', id: paymentId });

/**
 * Without `deps` (a node with no chain, which serves the sandbox only) nothing reaches
 * the chain or the attestation service: a sandbox payment asks for no effect but the
 * cancellation of an intent it never had, and a live payment is refused before it exists.
 */
export function paymentEffects(deps: PaymentEffectDependencies | null): EffectHandlers<typeof paymentMachine> {
  if (!deps) {
    // Running it again on this node can never succeed: no retry ladder of a day.
    const absent = async () => {
      throw new PermanentEffectError('this node has no chain and no attestation service: only sandbox payments run here', { code: 'NO_CHAIN' });
    };
    return {
      signalIntent: absent,
      readSignal: absent,
      verifyPayment: absent,
      fulfilIntent: absent,
      extendIntent: absent,
      readExtension: absent,
      checkTransfer: absent,
      cancelIntent: async () => {},
      cancelTransfer: async () => {},
    };
  }
  const conversions = () => {
    if (!deps.conversions) throw new Error('this node has no conversion provider');
    return deps.conversions;
  };
  /** What the provider's state means for the attempt, the delivery read from the chain; null when there is nothing to tell it. */
  const transferEvent = async (params: TransferParams, state: ConversionState, context: EffectContext): Promise<PaymentEvent | null> => {
    const at = iso(context);
    const originAmount = (state.originAmountReceived ?? 0n).toString();
    switch (state.status) {
      case 'waiting':
        return null;
      case 'pending':
      case 'delayed':
        return params.received ? null : { type: 'TRANSFER_RECEIVED', originAmount, sourceTransactionHash: state.sourceTransactionHash, at };
      case 'success': {
        const delivery = await deps.deliveries.delivered(params.chain!, state.destinationTransactionHashes, params.recipient!, params.feeRecipient);
        // The provider says delivered, the chain does not show it (yet): read again after a backoff.
        if (!delivery)
          throw new Error(
            `payment ${params.paymentId}: the provider reports request ${params.requestId} delivered, but no USDC reached ${params.recipient} in ${state.destinationTransactionHashes.join(', ') || 'no transaction'}`,
          );
        if (!(await deps.claims.claim(params.chain!.chainId, delivery.transactionHash, params.paymentId, at))) {
          context.logger.error(
            { paymentId: params.paymentId, requestId: params.requestId, transactionHash: delivery.transactionHash },
            'the conversion provider named a delivery that settled another payment',
          );
          return {
            type: 'TRANSFER_FAILED',
            status: 'FAILED',
            message: `the provider named delivery ${delivery.transactionHash}, which settled another payment already`,
            at,
          };
        }
        return {
          type: 'TRANSFER_DELIVERED',
          transactionHash: delivery.transactionHash,
          netUsdc: delivery.netUsdc.toString(),
          feeUsdc: delivery.feeUsdc.toString(),
          originAmount,
          at,
        };
      }
      case 'refund':
        return { type: 'TRANSFER_FAILED', status: 'REFUNDED', message: state.message ?? 'the conversion provider refunded the transfer', at };
      case 'failure':
        return { type: 'TRANSFER_FAILED', status: 'FAILED', message: state.message ?? 'the conversion provider could not convert the transfer', at };
    }
  };
  const effects: EffectHandlers<typeof paymentMachine> = {
    async signalIntent(params) {
      if (!params.chain) throw new Error(`payment ${params.paymentId}: a sandbox payment signals no intent`);
      const id = params.transactionId;
      // The approval binds the caller, so it names the wallet the relayer will send this transaction from.
      const from = walletFor(deps.intents.wallets, id);
      const call = await deps.intents.signalCall(params.chain, from, {
        depositId: BigInt(params.depositId),
        amount: BigInt(params.amount),
        to: params.to,
        paymentMethod: params.paymentMethod,
        fiatCurrency: params.fiatCurrency,
        conversionRate: BigInt(params.conversionRate),
        platformFeeBps: params.platformFeeBps,
      });
      await deps.relayer.send(id, { ...call, value: 0n, purpose: SIGNAL_PURPOSE, owner: owner(params.paymentId), from });
    },

    async readSignal(params, context) {
      if (!params.transactionHash) throw new Error(`payment ${params.paymentId}: a mined signal without a transaction hash`);
      const signalled = await deps.intents.signalledIntent(params.transactionHash as Hex);
      // Subscribed before the payment learns the hash: no fact about the intent can come before anyone listens.
      await deps.watch({ intentHash: signalled.intentHash }, owner(params.paymentId));
      await reportToSelf<PaymentEvent>(context, { type: 'INTENT_SIGNALED', ...signalled, at: iso(context) });
    },

    async verifyPayment(params, context) {
      const { intent, chain, proof, sellerTxId } = params;
      if ((!proof && !sellerTxId) || !intent.intentHash || intent.signalTimestamp === null || !chain) {
        throw new Error(`payment ${params.paymentId}: nothing to verify`);
      }
      // A payment stored before payments kept their intent's expiry reads it from the intent on chain.
      const expiryTime = intent.expiryTime ?? (await deps.intents.intentExpiry(chain, intent.intentHash as Hex));
      const snapshot = {
        intentHash: intent.intentHash,
        amount: intent.amount,
        fiatCurrency: intent.fiatCurrency,
        payeeDetails: intent.payeeDetails,
        conversionRate: intent.conversionRate,
        signalTimestamp: BigInt(intent.signalTimestamp),
        expiryTime: BigInt(expiryTime),
        disputeProtection: intent.disputeProtection,
      };
      const actionType = transferAction(params.platform);
      let event: PaymentEvent;
      try {
        // A receipt id from a fulfil action is read by the maker's own kept session (the seller path); a customer's proof by theirs.
        const answer = sellerTxId
          ? await deps.enclave.resolveSellerPayment({
              platform: params.platform,
              actionType,
              params: { [PAYMENT_ID.name]: sellerTxId },
              intent: snapshot,
              chainId: BigInt(chain.chainId),
            })
          : await deps.enclave.verifyPayment({
              platform: params.platform,
              actionType,
              encryptedSessionMaterial: proof!.encryptedSessionMaterial,
              params: proof!.params,
              intent: snapshot,
              chainId: BigInt(chain.chainId),
            });
        event = { type: 'PAYMENT_VERIFIED', paymentProof: answer.paymentProof as Hex, at: iso(context) };
      } catch (error) {
        const refusal = error as ServiceError;
        if (!REFUSALS.has(refusal.code)) throw error;
        event = { type: 'VERIFICATION_REJECTED', code: refusalCode(refusal), message: refusal.details, at: iso(context) };
      }
      await reportToSelf<PaymentEvent>(context, event);
    },

    async fulfilIntent(params) {
      if (!params.intentHash || !params.paymentProof || !params.chain) throw new Error(`payment ${params.paymentId}: nothing to fulfil`);
      const call = deps.intents.fulfilCall(params.chain, params.intentHash as Hex, params.paymentProof);
      await deps.relayer.send(fulfilTransactionId(params.paymentId, params.attempt), {
        ...call,
        value: 0n,
        purpose: FULFIL_PURPOSE,
        owner: owner(params.paymentId),
      });
    },

    async checkTransfer(params: TransferParams, context: EffectContext) {
      if (!params.requestId || !params.chain || !params.recipient) return;
      let state: ConversionState;
      try {
        state = await conversions().status(params.requestId);
      } catch (error) {
        context.logger.warn(
          { err: error, paymentId: params.paymentId, requestId: params.requestId },
          'the conversion provider did not answer; the next poll asks again',
        );
        return;
      }
      const event = await transferEvent(params, state, context);
      if (event) await reportToSelf<PaymentEvent>(context, event);
    },

    async cancelTransfer(params: TransferParams, context: EffectContext) {
      if (!params.requestId || !params.chain || !params.recipient) return;
      const state = await conversions().cancel(params.requestId);
      if (state.status === 'pending' || state.status === 'delayed') {
        throw new Error(
          `payment ${params.paymentId}: request ${params.requestId} took the customer's transfer before it was cancelled and is still converting; asked again`,
        );
      }
      // Delivered before the cancel took: the payment settles late. Refunded or cancelled: nothing to tell.
      if (state.status === 'success') await reportToSelf<PaymentEvent>(context, (await transferEvent(params, state, context))!);
    },

    async cancelIntent(params) {
      if (!params.intentHash || !params.chain) return;
      const call = deps.intents.cancelCall(params.chain, params.intentHash as Hex);
      // The intent's owner cancels before its expiry: the wallet that signalled it. Nobody waits on the outcome:
      // a cancel that reverts found the intent already ended, and the facts say how.
      const from = walletFor(deps.intents.wallets, signalTransactionId(params.paymentId, params.reopenings));
      await deps.relayer.send(cancelTransactionId(params.paymentId, params.reopenings), {
        ...call,
        value: 0n,
        purpose: 'cancelIntent',
        owner: null,
        from,
      });
    },

    async extendIntent(params, context) {
      const refusal = await extensionRefusal(deps.intents, params, context);
      if ('code' in refusal) {
        await reportToSelf<PaymentEvent>(context, { type: 'EXTENSION_REFUSED', ...refusal, at: iso(context) });
        return;
      }
      const call = deps.intents.extendCall(params.chain!, params.intentHash as Hex, EXTENSION_MS / 1000);
      await deps.relayer.send(`${params.paymentId}-extend-${params.actionId}`, {
        ...call,
        value: 0n,
        purpose: EXTEND_PURPOSE,
        owner: owner(params.paymentId),
        from: refusal.from,
      });
    },

    async readExtension(params, context) {
      const intent = params.chain && params.intentHash ? await deps.intents.intentOnChain(params.chain, params.intentHash as Hex) : null;
      // Mined, yet the intent is gone: it ended meanwhile (its own facts end the attempt); the extension did not keep it open.
      const event: PaymentEvent = intent
        ? { type: 'INTENT_EXTENDED', expiryTime: intent.expiryTime, at: iso(context) }
        : { type: 'EXTENSION_REFUSED', code: 'PAYMENT_NOT_OPEN', message: 'the intent ended on chain before its extension was read', at: iso(context) };
      await reportToSelf<PaymentEvent>(context, event);
    },
  };
  return effects;
}

type ExtendParams = Parameters<NonNullable<EffectHandlers<typeof paymentMachine>['extendIntent']>>[0];

/**
 * What stops an extension, checked on chain before one is sent (the orchestrator's own checks, in
 * its order, and document 1's 5 days counted from the attempt's creation, not the intent's
 * signal), so a request that cannot succeed ends with its code instead of a reverted
 * transaction. Otherwise the wallet to send it from: the intent's guardian.
 */
async function extensionRefusal(intents: IntentPort, params: ExtendParams, context: EffectContext): Promise<{ code: string; message: string } | { from: Hex }> {
  if (!params.chain || !params.intentHash) return { code: 'PAYMENT_NOT_OPEN', message: 'the attempt has no intent on chain' };
  const intent = await intents.intentOnChain(params.chain, params.intentHash as Hex);
  const readiness = intent ? await intents.extensionReadiness(params.chain, intent) : null;
  const now = await context.actorNow();
  const onChain = readiness ? chainRefusal(intent, readiness, EXTENSION_MS / 1000, Math.floor(now / 1000)) : 'PAYMENT_NOT_OPEN';
  const lifetimeEnds = Date.parse(params.createdAt) + ATTEMPT_LIFETIME_MS;
  const code = onChain ?? (Date.parse(params.quoteExpiresAt) + EXTENSION_MS > lifetimeEnds ? 'FIVE_DAY_LIFETIME_EXCEEDED' : null);
  if (code) return { code, message: EXTENSION_REFUSALS[code] ?? code };
  return { from: readiness!.from! };
}

/** What each refusal tells the merchant. */
const EXTENSION_REFUSALS: Readonly<Record<string, string>> = {
  PAYMENT_NOT_OPEN: 'the intent has ended on chain',
  INTENT_ALREADY_EXPIRED: 'the intent had expired when the extension ran',
  FIVE_DAY_LIFETIME_EXCEEDED: '24 more hours would pass the attempt’s 5-day lifetime',
  UNSUPPORTED_INTENT_GUARDIAN: 'the intent was signalled without an intent guardian this node sends for: it cannot be extended',
  INSUFFICIENT_EXTENSION_TOKEN_BALANCE: 'the intent guardian cannot pay for an extension now; retry later',
};

/** The service's stable code travels in the status details' leading `CODE:`; without one, the gRPC status names it. */
function refusalCode(error: ServiceError): string {
  const code = error.metadata?.get('error-code')?.[0];
  if (typeof code === 'string' && code) return code;
  return `VERIFICATION_${GrpcStatus[error.code]}`;
}

const iso = (context: EffectContext) => new Date(context.clock.now()).toISOString();
