/**
 * What the merchant payout endpoints take (document 2, POST /api/v1/payouts and the list
 * query), validated here and documented from the same schemas. Rules that need two fields
 * (the funding token against its chain, Bitcoin's refund address) are checked here too,
 * with document 2's messages, so a body failing them is the validation 400 and is refused
 * before the Idempotency-Key is looked at.
 */
import { z } from 'zod';
import { BITCOIN_CHAIN_ID, BTC_TOKEN_ADDRESS, FUNDING_CHAIN_IDS, fundingChain } from '../../machines/payout/funding-catalog.js';
import { isBitcoinAddress } from '../../machines/payout/bitcoin-address.js';
import { PAYOUT_RAILS, RETIRED_CRYPTO_RAIL } from '../../machines/payout/payout-rails.js';
import { isEvmAddress } from '../../machines/catalog/address-formats.js';
import { pageQuery } from '../schemas/common.js';
import { payoutStatus } from './payout-resources.js';

export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

const usdcAmount = z
  .string()
  .regex(/^\d{1,12}(?:\.\d{1,6})?$/, 'must be a decimal USDC amount with at most 6 decimals')
  .meta({ description: 'USDC owed, a decimal with at most 6 decimals', example: '100' });

const railValue = z.string().superRefine((value, ctx) => {
  if (value === RETIRED_CRYPTO_RAIL) ctx.addIssue({ code: 'custom', message: 'crypto is retired: name the networks (routea_<chainId>, routeb_133701)' });
  else if (!(PAYOUT_RAILS as readonly string[]).includes(value)) ctx.addIssue({ code: 'custom', message: `must be one of ${PAYOUT_RAILS.join(', ')}` });
});

export const createPayoutBody = z
  .strictObject({
    customerEmail: z
      .email('must be an e-mail address')
      .max(254)
      .meta({ description: 'The customer paid out; up to 254 characters; lower-cased before use', example: 'ana@example.com' }),
    payout: z
      .strictObject({
        amount: usdcAmount,
        chainId: z.number().int().meta({ description: 'Must be 8453 (Base)', example: 8453 }),
        tokenAddress: z.string().max(128).meta({ description: 'Must be USDC on Base', example: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' }),
      })
      .meta({ description: 'What the customer is paid: USDC on Base' }),
    funding: z
      .strictObject({
        chainId: z
          .number()
          .int()
          .refine((id) => FUNDING_CHAIN_IDS.includes(id), `must be one of ${FUNDING_CHAIN_IDS.join(', ')}; Solana, Tron and Zcash cannot fund a payout`)
          .meta({ description: `The chain the funding is sent on: ${FUNDING_CHAIN_IDS.join(', ')} (8253038 is Bitcoin)`, example: 8453 }),
        tokenAddress: z
          .string()
          .max(128)
          .meta({ description: 'The token to fund with; the all-zero address for a native token, the catalog’s BTC address on Bitcoin' }),
        refundAddress: z
          .string()
          .max(128)
          .optional()
          .meta({ description: 'Where the provider sends funding it cannot convert; required for Bitcoin; omitted on EVM refunds the sending wallet' }),
      })
      .superRefine((funding, ctx) => {
        const chain = fundingChain(funding.chainId);
        if (!chain) return;
        if (chain.kind === 'evm') {
          if (!isEvmAddress(funding.tokenAddress)) ctx.addIssue({ code: 'custom', path: ['tokenAddress'], message: 'Must be an EVM address' });
          if (funding.refundAddress !== undefined && !isEvmAddress(funding.refundAddress))
            ctx.addIssue({ code: 'custom', path: ['refundAddress'], message: 'Must be an EVM address' });
          return;
        }
        if (funding.chainId === BITCOIN_CHAIN_ID && funding.tokenAddress !== BTC_TOKEN_ADDRESS)
          ctx.addIssue({ code: 'custom', path: ['tokenAddress'], message: 'Must be the BTC token address' });
        if (funding.refundAddress === undefined) ctx.addIssue({ code: 'custom', message: 'Bitcoin funding needs a refund address' });
        else if (!isBitcoinAddress(funding.refundAddress)) ctx.addIssue({ code: 'custom', path: ['refundAddress'], message: 'Must be a Bitcoin address' });
      })
      .meta({ description: 'The token and chain you fund the payout with' }),
    merchantReference: z.string().min(1).max(128).optional().meta({ description: 'Your own reference, 1 to 128 characters; the list matches it exactly' }),
    returnUrl: z
      .url({ protocol: /^https$/, message: 'must be an https:// URL' })
      .max(2048)
      .optional()
      .meta({ description: 'Where the checkout sends the customer back, an https URL' }),
    rails: z
      .array(railValue)
      .min(1, 'must name at least one rail')
      .max(PAYOUT_RAILS.length)
      .refine((rails) => new Set(rails).size === rails.length, 'Each rail can be listed once')
      .optional()
      .meta({ description: 'Limits the payout to these of your rails; never enables a rail that is off. Order does not matter' }),
  })
  .meta({
    id: 'CreatePayoutRequest',
    example: {
      customerEmail: 'ana@example.com',
      payout: { amount: '100', chainId: 8453, tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      funding: { chainId: 8453, tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
    },
  });

export type CreatePayoutBody = z.output<typeof createPayoutBody>;

export const listPayoutsQuery = z.strictObject({
  customerEmail: z.string().max(254).optional().meta({ description: 'Exact match, case-insensitive' }),
  status: payoutStatus.optional().meta({ description: 'One PayoutStatus' }),
  merchantReference: z.string().min(1).max(128).optional().meta({ description: 'Exact match' }),
  ...pageQuery,
});

export const payoutPath = z.object({
  id: z
    .string()
    .regex(/^po_[0-9A-Za-z]{1,64}$/, 'must be a payout id (po_…)')
    .meta({ description: 'The payout’s id', example: 'po_5Xr0Qm7Zk2' }),
});

export const payoutRailPath = payoutPath.extend({
  rail: z
    .string()
    .regex(new RegExp(`^(?:${PAYOUT_RAILS.join('|')})$`), `must be one of ${PAYOUT_RAILS.join(', ')}`)
    .meta({ description: 'The payout rail to remove', example: 'routea_42161' }),
});

export const fundingActivityBody = z
  .object({
    requestId: z.string().min(1).max(128).meta({ description: 'The provider’s funding request' }),
    depositAddress: z.string().min(1).max(128).optional().meta({ description: 'Its deposit address' }),
  })
  .meta({ example: { requestId: '0x5f2c…', depositAddress: '0x9a1b…' } });
