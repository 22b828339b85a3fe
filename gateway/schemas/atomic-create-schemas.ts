/** Document 3's atomic deposit creation: the strict body and the status object (docs/atomic-create.md). */
import { z } from 'zod';
import { evmAddress, isoTime, txHash } from './common.js';

const calldata = z
  .string()
  .regex(/^0x(?:[0-9a-fA-F]{2}){4,}$/, 'must be hex calldata: 0x followed by at least 4 bytes')
  .meta({ description: 'ABI-encoded calldata, selector first', example: '0x095ea7b3' });

/** A UUID by pattern rather than `format: uuid`, which not every OpenAPI validator knows; any version, any letter case. */
const uuid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID');

const calldataList = z.array(calldata).min(1, 'must hold 1 to 32 calls').max(32, 'must hold 1 to 32 calls');

const atomicCreateCalls = z
  .strictObject({
    approve: calldata.optional().meta({ description: 'USDC `approve(escrow, amount)`, at least the deposit’s amount' }),
    createDeposit: calldata.meta({ description: 'The escrow’s `createDeposit`, of USDC' }),
    setRateManager: calldata.optional().meta({ description: 'The escrow’s `setRateManager(0, manager)`' }),
    configureDeposit: calldata.optional().meta({
      description:
        'One of the escrow’s setPaymentMethod, setCurrencyMinRate, setRateBounds, setIntentAmountRange, setPrivate, setSellerAutomatedRelease, naming deposit 0',
    }),
    configureDeposits: calldataList.optional().meta({ description: 'More configuration calls, as `configureDeposit`, run in this order' }),
    setDisputeProtectionEnabled: calldata.optional().meta({ description: 'The escrow’s `setDisputeProtectionEnabled(0, enabled)`' }),
    setDisputeProtectionEnabledCalls: calldataList.optional().meta({ description: 'More `setDisputeProtectionEnabled` calls' }),
  })
  .meta({
    id: 'AtomicCreateCalls',
    description:
      'The calls the batch runs as the wallet, in this order: approve, createDeposit, setRateManager, configureDeposit, configureDeposits, setDisputeProtectionEnabled, setDisputeProtectionEnabledCalls. Every call after createDeposit names deposit 0: the platform puts the deposit id it reserved in its place.',
  });

export const atomicCreateBody = z
  .strictObject({
    requestId: uuid.meta({ description: 'The request’s idempotency key: the same request again answers as the first did; other calls under it are a 409' }),
    calls: atomicCreateCalls,
  })
  .meta({ id: 'AtomicCreateRequest' });

export type AtomicCreateBody = z.output<typeof atomicCreateBody>;

export const atomicCreatePath = z.object({
  requestId: uuid.meta({ description: 'The requestId the creation was asked with' }),
});

const chainId = z.number().int().min(1).meta({ description: 'The chain the deposit is created on' });
const escrowAddress = evmAddress.meta({ description: 'The escrow contract the deposit is made in' });

export const atomicCreateResult = z
  .object({
    chainId,
    depositId: z.string().regex(/^\d+$/).meta({ description: 'The escrow deposit id reserved for the request', example: '42' }),
    escrowAddress,
    transactionHash: txHash.meta({ description: 'The transaction that carries the batch' }),
  })
  .meta({ id: 'AtomicCreateResult' });

export const atomicCreateStatus = z
  .object({
    status: z.enum(['pending', 'confirmed', 'failed']).meta({
      description:
        'pending: submitted, not yet confirmed; confirmed: the deposit exists; failed (ours, beside document 3’s two): the batch can never succeed, see `failure`',
    }),
    chainId,
    depositId: z
      .string()
      .regex(/^\d+$/)
      .meta({ description: 'The deposit id reserved; final once confirmed (a batch that lost its id to another deposit is submitted again under the next)' }),
    escrowAddress,
    transactionHash: txHash.nullable().meta({ description: 'Null until confirmed' }),
    failure: z
      .object({
        code: z.enum(['CALLDATA_REVERTS', 'EMBEDDED_WALLET_NOT_FOUND', 'SUBMISSION_FAILED']).meta({
          description:
            'CALLDATA_REVERTS: the batch reverts for a reason of the maker’s calls; EMBEDDED_WALLET_NOT_FOUND: the provider holds no embedded wallet for the address; SUBMISSION_FAILED: the batch reverted on chain, or lost its id three times',
        }),
        message: z.string().meta({ description: 'The reason in words' }),
      })
      .nullable()
      .meta({ description: 'Why a failed request failed; null otherwise' }),
    updatedAt: isoTime.meta({ description: 'When the request last changed' }),
  })
  .meta({ id: 'AtomicCreateStatus' });
