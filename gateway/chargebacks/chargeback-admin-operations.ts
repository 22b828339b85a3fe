/**
 * Staff's chargeback trigger, under the admin token (docs/chargebacks.md): a settled live payment
 * whose fiat was reversed on its rail is compensated from its maker's stake, and the escrow records
 * it on chain. The answer is the transaction's hash; the payment and its order show the chargeback
 * once the indexer has read the record (their chargeback fields, PAYMENT_CHARGEBACKED and the
 * order's event). `npm run admin -- chargeback PAYMENT_ID --dispute ID --amount USDC` calls it.
 */
import { z } from 'zod';
import type { Hex } from 'viem';
import { statusOfCode } from '../../actors/errors/error-codes.js';
import { paymentKind } from '../../actors/kinds/index.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { ChargebackRefusedError, type StakeCompensation } from '../../actors/chain/stake-compensation.js';
import { parseUsdc } from '../../machines/money.js';
import { ApiError, reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { adminRefusal } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { paymentId } from '../payments/payment-schemas.js';
import { usdc } from '../schemas/common.js';

export interface ChargebackAdminDependencies {
  system: ActorSystem;
  /** Null on a node without a chain and relayer: the trigger answers 503 CHARGEBACKS_UNAVAILABLE. */
  compensation: StakeCompensation | null;
}

const chargebackRequest = z
  .strictObject({
    disputeId: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9_:.-]+$/, 'letters, digits and _ : . - only')
      .meta({ description: 'The dispute the reversal belongs to; one dispute is compensated once', example: 'dsp_7Hq2Lm9XwR4tZ8cV1bN6kP3s' }),
    amountUsdc: usdc.meta({ description: 'What the reversal took, in USDC; at most what the payment released, and more than 0', example: '25' }),
  })
  .meta({ id: 'ChargebackRequest', example: { disputeId: 'dsp_7Hq2Lm9XwR4tZ8cV1bN6kP3s', amountUsdc: '25' } });

const chargebackSent = z
  .object({
    paymentId: z.string().meta({ description: 'The payment charged back' }),
    intentHash: z.string().meta({ description: 'Its intent on chain' }),
    disputeId: z.string().meta({ description: 'The dispute, as given' }),
    transactionHash: z.string().meta({ description: 'The escrow’s compensateChargeback transaction' }),
  })
  .meta({ id: 'ChargebackSent', description: 'The compensation sent; the payment shows it once the indexer has read it' });

const CHARGEBACK_REFUSED = {
  code: 'CHARGEBACK_REFUSED',
  when: 'the payment is not a settled live fiat payment, or the escrow would not record it (no dispute protection, compensated already, no stake, more than it released)',
} as const;
const CHARGEBACKS_UNAVAILABLE = { code: 'CHARGEBACKS_UNAVAILABLE', when: 'this node has no chain and relayer to record chargebacks with' } as const;

const compensateOperation = defineOperation({
  method: 'post',
  path: '/internal/v1/payments/:paymentId/chargebacks',
  operationId: 'compensateChargeback',
  tags: ['Admin'],
  summary: 'Record a chargeback: the maker’s stake compensates a reversed payment',
  description:
    'For a settled live fiat payment whose fiat was reversed on its rail. The escrow records it and the maker’s stake pays what it holds, up to the amount (docs/chargebacks.md). Asking again with the same dispute id answers the same transaction.',
  guard: 'adminToken',
  request: { path: z.strictObject({ paymentId }), body: chargebackRequest },
  answers: standardAnswers(
    {
      '202': success(202, chargebackSent, 'Sent: the chargeback shows once the indexer reads it'),
      '400': invalid('the path or the body'),
      ...adminRefusal,
      '404': failure(404, [{ code: 'ACTOR_NOT_FOUND', when: 'no payment has that id' }]),
      '422': failure(422, [CHARGEBACK_REFUSED]),
    },
    { body: true, unavailable: [CHARGEBACKS_UNAVAILABLE] },
  ),
  handle:
    (deps: ChargebackAdminDependencies) =>
    async (ctx, { path, body }) => {
      if (!deps.compensation) throw new ApiError(503, 'This node records no chargebacks: it has no chain and relayer', CHARGEBACKS_UNAVAILABLE.code);
      const doc = await deps.system.views(paymentKind).findOne({ _id: path.paymentId }, { projection: { view: 1 } });
      if (!doc) throw new ApiError(404, `No payment ${path.paymentId}`, 'ACTOR_NOT_FOUND');
      const { view } = doc;
      const intentHash = view.payment.railIdentifier;
      if (view.status !== 'SETTLED' || !view.live || view.crypto || !intentHash?.startsWith('0x')) {
        throw new ApiError(statusOfCode(CHARGEBACK_REFUSED.code), `Payment ${path.paymentId} is not a settled live fiat payment`, CHARGEBACK_REFUSED.code);
      }
      const amountUsdc = parseUsdc(body.amountUsdc);
      if (amountUsdc <= 0n) throw new ApiError(statusOfCode(CHARGEBACK_REFUSED.code), 'A chargeback compensates more than 0 USDC', CHARGEBACK_REFUSED.code);
      try {
        const { transactionHash } = await deps.compensation.compensate({ intentHash: intentHash as Hex, disputeId: body.disputeId, amountUsdc });
        reply(ctx, 202, 'Chargeback sent', chargebackSent, { paymentId: path.paymentId, intentHash, disputeId: body.disputeId, transactionHash });
      } catch (error) {
        if (error instanceof ChargebackRefusedError) throw new ApiError(statusOfCode(CHARGEBACK_REFUSED.code), error.message, CHARGEBACK_REFUSED.code);
        throw error;
      }
    },
});

export function chargebackAdminOperations(): Operation<ChargebackAdminDependencies>[] {
  return [compensateOperation];
}
