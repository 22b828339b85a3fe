/** ReferralSplitConfig at the edge (machines/merchant/referral-split.ts): what the admin sets on a merchant and every order shows. */
import { z } from 'zod';
import { MAX_REFERRAL_RECIPIENTS, referralSplitProblem } from '../../machines/merchant/index.js';
import { evmAddress } from '../schemas/common.js';

const recipients = z
  .array(
    z.object({
      recipient: evmAddress.meta({ description: 'The referral partner’s EVM address' }),
      bps: z.number().int().min(1).max(10_000).meta({ description: 'Its share of the platform’s fee on each payment, in basis points of that fee' }),
    }),
  )
  .min(1)
  .max(MAX_REFERRAL_RECIPIENTS)
  .meta({ description: `The referral partners, 1 to ${MAX_REFERRAL_RECIPIENTS}; their shares add up to at most 10000` });

/** As orders and profiles show it: a shape, not a rule (what the sum may be is the admin input's to check). */
export const referralSplitConfig = z.object({ recipients }).meta({
  id: 'ReferralSplitConfig',
  description: 'How the platform’s fee on a payment is shared with referral partners; what the shares leave stays the platform’s',
  example: { recipients: [{ recipient: '0x2222222222222222222222222222222222222222', bps: 2500 }] },
});

/** What the admin sets on a merchant: the shape, with its rules (each partner once, shares adding up to at most 10000). */
export const referralSplitInput = z
  .object({ recipients })
  .superRefine((config, ctx) => {
    const problem = referralSplitProblem(config);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['recipients'] });
  })
  .meta({
    description: 'How the platform’s fee on a payment is shared with referral partners; each partner once, shares adding up to at most 10000',
    example: { recipients: [{ recipient: '0x2222222222222222222222222222222222222222', bps: 2500 }] },
  });
