/**
 * What the dispute endpoints take (docs/disputes.md): the attestation service's dispute
 * attestation that opens one, the sandbox's simulated opening, the merchant's payment of
 * one, and the merchant's list query. The answers are in dispute-resources.ts.
 */
import { z } from 'zod';
import { bytes32, pageQuery, resourceId, txHash } from '../schemas/common.js';
import { paymentId } from '../payments/payment-schemas.js';
import { disputeStatus } from './dispute-resources.js';

export const disputeId = resourceId('dsp', 'a dispute');
export const disputePath = z.strictObject({ disputeId });

export const listDisputesQuery = z.strictObject({
  status: disputeStatus.optional().meta({ description: 'Only disputes in this status' }),
  ...pageQuery,
});

const hex32 = bytes32.meta({ description: 'A keccak256 hash, lower-case hex' });

export const openDisputeBody = z
  .strictObject({
    dispute: z
      .strictObject({
        platform: z.enum(['venmo', 'paypal']).meta({ description: 'The platform whose DKIM-signed e-mail reported the dispute' }),
        paymentId: z.string().min(1).max(64).meta({ description: 'The platform’s payment id, as its e-mail states it' }),
        disputeId: z.string().min(1).max(64).meta({ description: 'The platform’s case id, as its e-mail states it' }),
        signingDomain: z.string().min(1).max(253).meta({ description: 'The domain whose DKIM signature passed' }),
        emailDate: z
          .string()
          .regex(/^\d{1,12}$/)
          .meta({ description: 'The e-mail’s Date header, Unix seconds' }),
      })
      .meta({ description: 'What the attestation service read from the e-mail, as POST /dispute/verify answered it' }),
    domain: z
      .strictObject({
        name: z.string().max(64).meta({ description: 'DisputeVerifier' }),
        version: z.string().max(16).meta({ description: '1' }),
        chainId: z.number().int().positive().meta({ description: 'The chain the attestation is for: the node’s' }),
        verifyingContract: z
          .string()
          .regex(/^0x[0-9a-fA-F]{40}$/)
          .meta({ description: 'The dispute verifier of that chain: the node’s escrow' }),
      })
      .meta({ description: 'The EIP-712 domain the attestation is signed in' }),
    typedDataValue: z
      .strictObject({
        intentHash: hex32.meta({ description: 'The disputed payment’s intent' }),
        paymentId: hex32.meta({ description: 'keccak256 of dispute.paymentId' }),
        disputeId: hex32.meta({ description: 'keccak256 of dispute.disputeId' }),
        dataHash: hex32.meta({ description: 'keccak256 of data' }),
      })
      .meta({ description: 'The signed DisputeAttestation' }),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130}$/)
      .meta({ description: 'The attestation service’s EIP-712 signature of typedDataValue' }),
    data: z
      .string()
      .regex(/^0x([0-9a-fA-F]{2}){1,1024}$/)
      .meta({ description: 'The ABI-encoded (platform, paymentId, disputeId, signing domain, e-mail date) whose hash is dataHash' }),
    signer: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/)
      .optional()
      .meta({ description: 'The signer the attestation service names; ignored: the signature is recovered and checked against the signers this node trusts' }),
    metadata: z.record(z.string().max(64), z.string().max(256)).optional().meta({ description: 'The attestation service’s metadata; ignored' }),
  })
  .meta({
    id: 'OpenDisputeRequest',
    description: 'The responseObject of the attestation service’s POST /dispute/verify/{platform}/dispute_{platform}, as it answered',
    example: {
      dispute: { platform: 'venmo', paymentId: '4139920210011', disputeId: 'VD-20261123-0042', signingDomain: 'venmo.com', emailDate: '1795433400' },
      domain: { name: 'DisputeVerifier', version: '1', chainId: 8453, verifyingContract: '0x2a7c1d5e9f3b8a6c4e2d0f1b3a5c7e9d8b6a4c2e' },
      typedDataValue: {
        intentHash: `0x${'1'.repeat(64)}`,
        paymentId: `0x${'2'.repeat(64)}`,
        disputeId: `0x${'3'.repeat(64)}`,
        dataHash: `0x${'4'.repeat(64)}`,
      },
      signature: `0x${'5'.repeat(130)}`,
      data: `0x${'6'.repeat(64)}`,
    },
  });

export type OpenDisputeBody = z.infer<typeof openDisputeBody>;

export const simulateDisputeBody = z
  .strictObject({
    paymentId,
    disputeProtection: z
      .boolean()
      .default(false)
      .meta({ description: 'Whether the simulated maker’s deposit had dispute protection: an escalation then claims from its stake' }),
  })
  .meta({ id: 'SimulateDisputeRequest', example: { paymentId: 'pay_4Fz1hQk9TbW2mX7pLr0sVc3N', disputeProtection: false } });

export const payDisputeBody = z
  .strictObject({
    txHash: txHash.meta({ description: 'The Base transaction that sent amountUsdc of USDC to the dispute’s sellerAddress' }),
  })
  .meta({ id: 'PayDisputeRequest', example: { txHash: `0x${'a'.repeat(64)}` } });
