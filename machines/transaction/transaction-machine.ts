/**
 * A transaction we mean to send, from the call an owner asked for to its outcome on
 * chain. PREPARED: gas is estimated (a call that would revert fails here, before it
 * spends a nonce), the wallet gives a nonce, the call is signed and the signed bytes
 * are saved, and only then sent. SUBMITTED: the relayer looks for a receipt every
 * `checkEveryMs`, sending the bytes again each time, and replaces an attempt unmined
 * after `bumpAfterMs` with one paying more. The end is one of MINED, REPLACED (our
 * cancellation took the nonce), FAILED (reverted, or would have) or DROPPED (another
 * transaction of the key took the nonce), and the owner hears it in one message.
 *
 * Pure: effects (estimate, sign, broadcast, checkReceipt, signReplacement) run after
 * the write and report back as events; time arrives in them.
 */
import { assign, enqueueActions, setup } from 'xstate';
import { topState } from '../top-state.js';
import type {
  Attempt,
  Authorization,
  ChainCall,
  Hex,
  MachineAddress,
  OutcomeStatus,
  TransactionContext,
  TransactionEvent,
  TransactionInput,
  TransactionOutcome,
  TransactionOutcomeEvent,
} from './transaction-types.js';

export type TransactionStatus = 'PREPARED' | 'SUBMITTED' | OutcomeStatus;

/** The authorizations a call carries, named only when there are some: a plain call's effects see a plain call. */
export function delegationOf(call: { authorizationList?: Authorization[] }): { authorizationList?: Authorization[] } {
  return call.authorizationList?.length ? { authorizationList: call.authorizationList } : {};
}

/** The transaction's call, in the key order every effect's params have always had. */
function chainCallOf(context: TransactionContext): ChainCall {
  return { from: context.from, to: context.to, data: context.data, value: context.value, ...delegationOf(context) };
}

/** How long a transaction may go unpriced before it fails unsent, where its policy does not say. */
export const DEFAULT_UNSENT_FAIL_MS = 120_000;

/** Gas a transfer of nothing to oneself costs: what a cancellation spends. */
export const CANCELLATION_GAS = 21_000n;

export const latestAttempt = (context: TransactionContext): Attempt | undefined => context.attempts.at(-1);

const attemptOf = (context: TransactionContext, hash: Hex) => context.attempts.find((attempt) => attempt.hash === hash);

const hasCancellation = (context: TransactionContext) => context.attempts.some((attempt) => attempt.kind === 'CANCELLATION');

function outcome(status: OutcomeStatus, fields: Partial<TransactionOutcome> & { at: number }): TransactionOutcome {
  return { status, hash: null, blockNumber: null, gasUsed: null, effectiveGasPrice: null, reason: null, revertData: null, ...fields };
}

/** What the replacing step signs: a bump of the latest attempt, keeping its kind, or the first cancellation. */
function replacementOf(context: TransactionContext, cancel: boolean) {
  const latest = latestAttempt(context)!;
  const cancelling = cancel || latest.kind === 'CANCELLATION';
  return {
    transactionId: context.id,
    chainId: context.chainId,
    from: context.from,
    nonce: context.nonce!,
    kind: cancelling ? ('CANCELLATION' as const) : ('FEE_BUMP' as const),
    // A cancellation sends nothing to the sender itself: the cheapest way to spend the nonce.
    to: cancelling ? context.from : context.to,
    data: cancelling ? ('0x' as Hex) : context.data,
    value: cancelling ? 0n : context.value,
    ...(cancelling ? {} : delegationOf(context)),
    gasLimit: cancelling ? CANCELLATION_GAS : context.gasLimit!,
    // Nothing was sent yet (the owner cancelled while it was being signed): nothing to outbid, so the network's price will do.
    previous: context.submittedAt === null ? null : { maxFeePerGas: latest.maxFeePerGas, maxPriorityFeePerGas: latest.maxPriorityFeePerGas },
    cap: context.policy.maxFeePerGas,
  };
}

export const transactionMachine = setup({
  types: {
    input: {} as TransactionInput,
    context: {} as TransactionContext,
    events: {} as TransactionEvent,
  },
  delays: {
    checkEvery: ({ context }) => context.policy.checkEveryMs,
    unsentFail: ({ context }) => context.policy.unsentFailMs ?? DEFAULT_UNSENT_FAIL_MS,
  },
  guards: {
    succeeded: ({ event }) => event.type === 'RECEIPT' && event.succeeded,
    isCancellation: ({ context, event }) => event.type === 'RECEIPT' && attemptOf(context, event.hash)?.kind === 'CANCELLATION',
    cancelRequested: ({ context }) => context.cancelRequested,
    cancellationDue: ({ context, event }) => context.cancelRequested && !hasCancellation(context) && !(event.type === 'NOT_MINED' && event.included),
    bumpDue: ({ context, event }) => event.type === 'NOT_MINED' && !event.included && event.at - latestAttempt(context)!.signedAt >= context.policy.bumpAfterMs,
  },
  actions: {
    estimate: (_, _params: { transactionId: string } & ChainCall) => {},
    sign: (_, _params: { transactionId: string; chainId: number; gasLimit: bigint; cap: bigint } & ChainCall) => {},
    broadcast: (_, _params: { transactionId: string; hash: Hex; raw: Hex }) => {},
    checkReceipt: (_, _params: { transactionId: string; nonce: bigint; hashes: Hex[]; raw: Hex | null; confirmations: number } & ChainCall) => {},
    signReplacement: (_, _params: ReturnType<typeof replacementOf>) => {},
    tell: (_, _params: { to: MachineAddress; event: TransactionOutcomeEvent }) => {},
    recordEstimate: assign(({ event }) => (event.type === 'ESTIMATED' ? { gasLimit: event.gasLimit, updatedAt: event.at } : {})),
    recordSigned: assign(({ context, event }) => {
      if (event.type !== 'SIGNED') return {};
      const { type: _type, nonce, ...attempt } = event;
      return { nonce, attempts: [...context.attempts, attempt], updatedAt: event.signedAt };
    }),
    recordReplacement: assign(({ context, event }) => {
      if (event.type !== 'REPLACEMENT_SIGNED') return {};
      const { type: _type, ...attempt } = event;
      return { attempts: [...context.attempts, attempt], updatedAt: event.signedAt };
    }),
    recordBroadcast: assign(({ context, event }) => (event.type === 'BROADCAST' ? { submittedAt: context.submittedAt ?? event.at, updatedAt: event.at } : {})),
    requestCancel: assign({ cancelRequested: true }),
    recordMined: assign(({ event }) => (event.type === 'RECEIPT' ? { outcome: receiptOutcome('MINED', event), updatedAt: event.at } : {})),
    recordReplaced: assign(({ event }) => (event.type === 'RECEIPT' ? { outcome: receiptOutcome('REPLACED', event), updatedAt: event.at } : {})),
    recordReverted: assign(({ event }) => (event.type === 'RECEIPT' ? { outcome: receiptOutcome('FAILED', event), updatedAt: event.at } : {})),
    recordSimulationRevert: assign(({ event }) =>
      event.type === 'SIMULATION_REVERTED'
        ? { outcome: outcome('FAILED', { reason: event.reason, revertData: event.revertData, at: event.at }), updatedAt: event.at }
        : {},
    ),
    recordUnsent: assign(({ context }) => {
      const at = context.createdAt + (context.policy.unsentFailMs ?? DEFAULT_UNSENT_FAIL_MS);
      return { outcome: outcome('FAILED', { reason: 'not sent: the chain did not answer while the transaction was being priced', at }), updatedAt: at };
    }),
    recordCancelledUnsigned: assign(({ event }) =>
      event.type === 'CANCEL'
        ? { cancelRequested: true, outcome: outcome('FAILED', { reason: 'cancelled by its owner before it was signed', at: event.at }), updatedAt: event.at }
        : {},
    ),
    recordDropped: assign(({ event }) =>
      event.type === 'NONCE_USED_ELSEWHERE'
        ? { outcome: outcome('DROPPED', { reason: 'another transaction of the sending key spent its nonce', at: event.at }), updatedAt: event.at }
        : {},
    ),
  },
}).createMachine({
  id: 'transaction',
  context: ({ input }) => ({
    ...input,
    gasLimit: null,
    nonce: null,
    attempts: [],
    cancelRequested: false,
    submittedAt: null,
    outcome: null,
    createdAt: input.at,
    updatedAt: input.at,
  }),
  initial: 'PREPARED',
  states: {
    PREPARED: {
      initial: 'estimating',
      states: {
        estimating: {
          entry: {
            type: 'estimate',
            params: ({ context }) => ({
              transactionId: context.id,
              ...chainCallOf(context),
            }),
          },
          on: {
            ESTIMATED: { target: 'signing', actions: 'recordEstimate' },
            SIMULATION_REVERTED: { target: '#transaction.FAILED', actions: 'recordSimulationRevert' },
            CANCEL: { target: '#transaction.FAILED', actions: 'recordCancelledUnsigned' },
          },
          // Nothing is signed and no nonce is taken before the estimate: failing here leaves nothing on chain to wait for.
          after: { unsentFail: { target: '#transaction.FAILED', actions: 'recordUnsent' } },
        },
        signing: {
          entry: {
            type: 'sign',
            params: ({ context }) => ({
              transactionId: context.id,
              chainId: context.chainId,
              ...chainCallOf(context),
              gasLimit: context.gasLimit!,
              cap: context.policy.maxFeePerGas,
            }),
          },
          on: {
            SIGNED: [
              // The nonce is the transaction's now: a cancellation spends it rather than leave a gap.
              { guard: 'cancelRequested', target: '#transaction.SUBMITTED.replacing', actions: 'recordSigned' },
              { target: 'broadcasting', actions: 'recordSigned' },
            ],
            CANCEL: { actions: 'requestCancel' },
          },
        },
        broadcasting: {
          entry: { type: 'broadcast', params: ({ context }) => broadcastOf(context) },
          on: {
            BROADCAST: { target: '#transaction.SUBMITTED.checking', actions: 'recordBroadcast' },
            NONCE_TOO_LOW: '#transaction.SUBMITTED.checking',
            CANCEL: { actions: 'requestCancel' },
          },
        },
      },
    },
    SUBMITTED: {
      initial: 'checking',
      on: { CANCEL: { actions: 'requestCancel' } },
      states: {
        checking: {
          entry: {
            type: 'checkReceipt',
            params: ({ context }) => ({
              transactionId: context.id,
              // The call, so that a revert can be decoded by running it again.
              ...chainCallOf(context),
              nonce: context.nonce!,
              hashes: context.attempts.map((attempt) => attempt.hash),
              // What a look sends again; nothing before the first broadcast, so a call cancelled while signing never leaves.
              raw: context.submittedAt === null ? null : latestAttempt(context)!.raw,
              confirmations: context.policy.confirmations,
            }),
          },
          on: {
            RECEIPT: [
              { guard: 'isCancellation', target: '#transaction.REPLACED', actions: 'recordReplaced' },
              { guard: 'succeeded', target: '#transaction.MINED', actions: 'recordMined' },
              { target: '#transaction.FAILED', actions: 'recordReverted' },
            ],
            NOT_MINED: [{ guard: 'cancellationDue', target: 'replacing' }, { guard: 'bumpDue', target: 'replacing' }, { target: 'waiting' }],
            NONCE_USED_ELSEWHERE: { target: '#transaction.DROPPED', actions: 'recordDropped' },
          },
        },
        waiting: {
          after: { checkEvery: 'checking' },
          on: { CANCEL: { target: 'replacing', actions: 'requestCancel' } },
        },
        replacing: {
          entry: { type: 'signReplacement', params: ({ context }) => replacementOf(context, context.cancelRequested) },
          on: {
            REPLACEMENT_SIGNED: { target: 'rebroadcasting', actions: 'recordReplacement' },
            BUMP_CAPPED: 'waiting',
          },
        },
        rebroadcasting: {
          entry: { type: 'broadcast', params: ({ context }) => broadcastOf(context) },
          on: {
            BROADCAST: { target: 'checking', actions: 'recordBroadcast' },
            NONCE_TOO_LOW: 'checking',
          },
        },
      },
    },
    MINED: {
      type: 'final',
      entry: enqueueActions(({ context, enqueue }) => void (context.owner && enqueue({ type: 'tell', params: outcomeMessage(context) }))),
    },
    REPLACED: {
      type: 'final',
      entry: enqueueActions(({ context, enqueue }) => void (context.owner && enqueue({ type: 'tell', params: outcomeMessage(context) }))),
    },
    FAILED: {
      type: 'final',
      entry: enqueueActions(({ context, enqueue }) => void (context.owner && enqueue({ type: 'tell', params: outcomeMessage(context) }))),
    },
    DROPPED: {
      type: 'final',
      entry: enqueueActions(({ context, enqueue }) => void (context.owner && enqueue({ type: 'tell', params: outcomeMessage(context) }))),
    },
  },
});

/** The one message the owner receives, sent on entry to the outcome's state. */
function outcomeMessage(context: TransactionContext): { to: MachineAddress; event: TransactionOutcomeEvent } {
  return {
    to: context.owner!,
    event: { type: 'TRANSACTION_OUTCOME', transactionId: context.id, purpose: context.purpose, outcome: context.outcome! },
  };
}

function broadcastOf(context: TransactionContext) {
  const latest = latestAttempt(context)!;
  return { transactionId: context.id, hash: latest.hash, raw: latest.raw };
}

function receiptOutcome(status: OutcomeStatus, receipt: Extract<TransactionEvent, { type: 'RECEIPT' }>): TransactionOutcome {
  return outcome(status, {
    hash: receipt.hash,
    blockNumber: receipt.blockNumber,
    gasUsed: receipt.gasUsed,
    effectiveGasPrice: receipt.effectiveGasPrice,
    reason: receipt.reason,
    revertData: receipt.revertData,
    at: receipt.at,
  });
}

/** The public status: the top-level state. */
export function transactionStatusOf(value: unknown): TransactionStatus {
  return topState(value) as TransactionStatus;
}
