/**
 * A merchant's payout settings at the admin API's edge (document 2, Limits): the change an
 * operator sends, parsed to the PayoutSettings fields it replaces, and the settings as the
 * admin API and the merchant's own profile show them. Money is decimal USDC here and base
 * units inside; funding tokens are catalog entries here and fundingTokenKey's keys inside.
 * A field's errors all land under `payouts` in fieldErrors, so each message names its field.
 */
import { getAddress } from 'viem';
import { z } from 'zod';
import { MoneyFormatError, parseUsdc } from '../../machines/money.js';
import { FUNDING_CHAIN_IDS, FUNDING_CHAINS, NATIVE_TOKEN_ADDRESS } from '../../machines/payout/funding-catalog.js';
import { normaliseRails, PAYOUT_RAILS, RETIRED_CRYPTO_RAIL } from '../../machines/payout/payout-rails.js';
import { catalogTokenKey, fundingTokenKey, MAX_MERCHANT_FEE_BPS, MAX_PAYOUT_USDC } from '../../machines/payout/payout-settings.js';

const USDC_UNIT = 1_000_000n;
/** Every funding token's key in catalog order: the order a list of allowed tokens is kept in. */
const CATALOG_KEYS = FUNDING_CHAINS.flatMap((chain) => chain.tokens.map((token) => fundingTokenKey(chain.id, token.address)));

function feeBps(field: string, description: string) {
  const message = `${field} must be a whole number of basis points from 0 to ${MAX_MERCHANT_FEE_BPS}`;
  return z.number(message).int(message).min(0, message).max(MAX_MERCHANT_FEE_BPS, message).meta({ description, example: 100 });
}

const methods = z
  .array(
    z.enum(PAYOUT_RAILS, {
      error: (issue) =>
        issue.input === RETIRED_CRYPTO_RAIL
          ? `methods: ${RETIRED_CRYPTO_RAIL} is retired; name each network's rail (routea_<chainId>, routeb_133701)`
          : `methods: each must be a payout rail (${PAYOUT_RAILS.join(', ')})`,
    }),
    'methods must be a list of payout rails',
  )
  .max(PAYOUT_RAILS.length, 'methods: each rail can be listed once')
  .refine((rails) => new Set(rails).size === rails.length, 'methods: each rail can be listed once')
  .transform(normaliseRails)
  .meta({
    description: 'The payout methods the merchant offers, each once; empty turns payouts off (403 PAYOUTS_DISABLED)',
    example: ['venmo', 'routea_8453'],
  });

const merchantWalletAddress = z
  .string('merchantWalletAddress must be an EVM address or null')
  .regex(/^0x[0-9a-fA-F]{40}$/, 'merchantWalletAddress must be 0x followed by 40 hex digits, or null')
  .refine((address) => address.toLowerCase() !== NATIVE_TOKEN_ADDRESS, 'merchantWalletAddress must not be the zero address: a fee sent there is lost')
  .transform((address) => getAddress(address))
  .nullable()
  .meta({
    description:
      'Where the merchant fee is delivered, an EVM address on Base (stored EIP-55); null for none. A fee without a wallet can be saved, but payouts are then refused with 403 PAYOUT_MERCHANT_WALLET_MISSING',
    example: '0x1111111111111111111111111111111111111111',
  });

const tokenMessage = 'fundingTokens: each must be { chainId, tokenAddress } of a funding catalog token';
const fundingTokens = z
  .array(
    z.strictObject(
      {
        chainId: z
          .number(tokenMessage)
          .int(tokenMessage)
          .meta({ description: `The funding chain: ${FUNDING_CHAIN_IDS.join(', ')}`, example: 8453 }),
        tokenAddress: z
          .string(tokenMessage)
          .max(64, tokenMessage)
          .meta({ description: 'The token on that chain (any letter case on EVM chains); the all-zero address for the native token' }),
      },
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys' ? `fundingTokens: a token has chainId and tokenAddress only, not ${issue.keys.join(', ')}` : tokenMessage,
      },
    ),
    'fundingTokens must be a list of funding tokens, or null for every catalog token',
  )
  .min(1, 'fundingTokens: list at least one token, or send null to allow every catalog token')
  .max(CATALOG_KEYS.length, 'fundingTokens: each token can be listed once')
  .transform((tokens, ctx) => {
    const keys: string[] = [];
    for (const { chainId, tokenAddress } of tokens) {
      const key = catalogTokenKey(chainId, tokenAddress);
      if (key === null) ctx.addIssue({ code: 'custom', message: `fundingTokens: ${chainId}:${tokenAddress} is not a funding token of the catalog` });
      else keys.push(key);
    }
    if (new Set(keys).size !== keys.length) ctx.addIssue({ code: 'custom', message: 'fundingTokens: each token can be listed once' });
    return keys.sort((a, b) => CATALOG_KEYS.indexOf(a) - CATALOG_KEYS.indexOf(b));
  })
  .nullable()
  .meta({ description: 'The funding tokens the merchant allows, each once; null allows every catalog token' });

const stepMessage = `payoutStep must be a whole number of USDC from 1 to ${MAX_PAYOUT_USDC / USDC_UNIT}, as a decimal string such as "100"`;
const payoutStep = z
  .string(stepMessage)
  .max(32, stepMessage)
  .transform((text, ctx) => {
    const units = wholeUsdc(text);
    if (units !== null && units >= USDC_UNIT && units <= MAX_PAYOUT_USDC) return units;
    ctx.addIssue({ code: 'custom', message: stepMessage });
    return z.NEVER;
  })
  .meta({ description: 'Payouts are whole multiples of this many USDC, from 1 to 1000', example: '100' });

/** The fields an operator changes, each optional: those sent merge over the stored settings, or over the defaults while there are none. */
export const payoutSettingsChange = z
  .strictObject({
    methods: methods.optional(),
    merchantFeeBps: feeBps('merchantFeeBps', 'The merchant’s fee on the amount funded, in basis points (100 = 1%), at most 1000').optional(),
    merchantWalletAddress: merchantWalletAddress.optional(),
    serviceFeeBps: feeBps('serviceFeeBps', 'The service’s fee on the amount funded, in basis points, at most 1000; never shown to the merchant').optional(),
    fundingTokens: fundingTokens.optional(),
    payoutStep: payoutStep.optional(),
  })
  .transform(({ payoutStep, ...fields }) => ({ ...fields, ...(payoutStep === undefined ? {} : { payoutStepUsdc: payoutStep }) }))
  .meta({
    description:
      'The payout settings to change, each optional; while payouts are not set up the defaults are no methods, no merchant fee or wallet, a 200 bps service fee, every catalog funding token and a 100 USDC step',
    example: { methods: ['venmo', 'routea_8453'], merchantFeeBps: 100, merchantWalletAddress: '0x1111111111111111111111111111111111111111' },
  });

const shownFields = {
  methods: z
    .array(z.enum(PAYOUT_RAILS))
    .meta({ description: 'The payout methods offered, in PayoutRail order; empty: payouts are off (403 PAYOUTS_DISABLED)' }),
  merchantFeeBps: z.number().int().meta({ description: 'The merchant’s fee on the amount funded, in basis points' }),
  merchantWalletAddress: z.string().nullable().meta({ description: 'Where the merchant fee is delivered on Base; null for none' }),
  fundingTokens: z
    .array(
      z.object({
        chainId: z.number().int().meta({ description: 'The funding chain' }),
        tokenAddress: z.string().meta({ description: 'The token as the catalog spells it (EIP-55 on EVM chains)' }),
      }),
    )
    .nullable()
    .meta({ description: 'The funding tokens allowed, in catalog order; null: every catalog token' }),
  payoutStep: z.string().meta({ description: 'Payouts are whole multiples of this many USDC', example: '100' }),
};

export const merchantPayoutSettings = z
  .object(shownFields)
  .meta({ id: 'MerchantPayoutSettings', description: 'The account’s payout settings (document 2), copied onto each payout at creation' });

export const adminPayoutSettings = z
  .object({
    ...shownFields,
    serviceFeeBps: z.number().int().meta({ description: 'The service’s fee on the amount funded, in basis points; operators only' }),
  })
  .meta({ id: 'AdminPayoutSettings', description: 'The account’s payout settings as operators see them, the service’s fee included' });

/** A whole number of USDC in base units, or null for anything else (a fraction, more than 6 decimals, not a decimal). */
function wholeUsdc(text: string): bigint | null {
  try {
    const units = parseUsdc(text);
    return units % USDC_UNIT === 0n ? units : null;
  } catch (error) {
    if (error instanceof MoneyFormatError) return null;
    throw error;
  }
}
