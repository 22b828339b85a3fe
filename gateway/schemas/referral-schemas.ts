/** Makers' referrals (docs/maker-referrals.md): the code a maker sets or redeems, and the referral answered. */
import { z } from 'zod';
import { REFERRAL_CODE_PATTERN, REFERRAL_CODE_RULE } from '../../machines/referral/index.js';
import { evmAddress, isoTime } from './common.js';

const referralCode = z
  .string()
  .regex(REFERRAL_CODE_PATTERN, `must be ${REFERRAL_CODE_RULE}`)
  .meta({ description: `${REFERRAL_CODE_RULE}; letter case aside, one maker’s` });

export const referralCodeBody = z.strictObject({ code: referralCode }).meta({ id: 'ReferralCodeRequest', example: { code: 'MAKER-ALICE' } });
export const redeemBody = z.strictObject({ code: referralCode }).meta({ id: 'RedeemReferralRequest', example: { code: 'FRIEND-BOB' } });

export const referral = z
  .object({
    walletAddress: evmAddress.meta({ description: 'The signed-in wallet' }),
    code: referralCode.nullable().meta({ description: 'The wallet’s own code, in the spelling it chose; null until it sets one' }),
    redemptions: z.number().int().min(0).meta({ description: 'How many wallets redeemed this wallet’s codes (whichever it held then)' }),
    referredBy: z
      .object({ code: referralCode.meta({ description: 'The code as it was redeemed' }), redeemedAt: isoTime })
      .nullable()
      .meta({ description: 'The code this wallet redeemed, once; null before. The referrer’s wallet is not shown' }),
  })
  .meta({ id: 'MakerReferral' });
