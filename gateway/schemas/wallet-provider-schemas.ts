/**
 * What POST /v2/webhooks/walletprovider takes and answers. The body is any JSON
 * object; of those, the wallet provider's balance events on an EVM chain
 * (`wallet.funds_deposited`, `wallet.funds_withdrawn`) are read field by field, since
 * they may carry a USDC transfer. Fields the provider adds beyond these are allowed:
 * the body is the provider's, not ours (docs/wallet-provider-webhook.md).
 */
import { z } from 'zod';
import { evmAddress } from './common.js';

export const BALANCE_EVENT_TYPES = ['wallet.funds_deposited', 'wallet.funds_withdrawn'] as const;

const MAX_UINT256 = (1n << 256n) - 1n;

/** A USDC deposit on Base, as the provider sends one: the request body's example. */
export const walletProviderEventExample = {
  type: 'wallet.funds_deposited',
  wallet_id: 'fmfdj6yqly31huorjqzq38zc',
  idempotency_key: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890',
  caip2: 'eip155:8453',
  asset: { type: 'erc20', address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
  amount: '25000000',
  transaction_hash: '0x2446f1fd773fbb9f080e674b60c6a033c7ed7427b8b9413cf28a2a4a6da9b56c',
  sender: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  recipient: '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
  block: { number: 19832451 },
};

export const walletProviderEventBody = z.record(z.string(), z.unknown()).meta({
  id: 'WalletProviderEvent',
  description:
    'Any JSON object, signed. A balance event (type wallet.funds_deposited or wallet.funds_withdrawn) on an eip155 chain must have the fields of the example; one moving USDC on a catalog chain is stored, once per transfer. Every other object is acknowledged and ignored.',
});

/** The signature headers: one family of three, `webhook-*` when webhook-id is present, else `svix-*`. */
export const walletProviderSignatureHeaders = z.object({
  'svix-id': z.string().optional().meta({ description: 'The message id; required unless webhook-id is sent', example: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W' }),
  'svix-timestamp': z
    .string()
    .optional()
    .meta({ description: 'Unix seconds the message was signed at; within 5 minutes of the node’s clock', example: '1795435200' }),
  'svix-signature': z.string().optional().meta({
    description: 'Space-separated v1,<base64 HMAC-SHA256 of "id.timestamp.body">; one matching a configured secret suffices',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  }),
  'webhook-id': z
    .string()
    .optional()
    .meta({ description: 'Standard Webhooks spelling of svix-id; when present, the three webhook-* headers are read instead' }),
  'webhook-timestamp': z.string().optional().meta({ description: 'Standard Webhooks spelling of svix-timestamp' }),
  'webhook-signature': z.string().optional().meta({ description: 'Standard Webhooks spelling of svix-signature' }),
});

/** Enough of a body to tell a balance event on an EVM chain, the only kind read further; anything else is ignored. */
export const evmBalanceEventHead = z.object({ type: z.enum(BALANCE_EVENT_TYPES), caip2: z.string().startsWith('eip155:') });

/** A balance event on an EVM chain, read for the transfer it reports; a malformed one is a validation 400, so the provider retries it and shows the failure. */
export const evmBalanceEvent = z.object({
  type: z.enum(BALANCE_EVENT_TYPES),
  caip2: z
    .string()
    .regex(/^eip155:[1-9]\d{0,14}$/, 'must be eip155: and a chain id')
    .transform((text) => Number(text.slice('eip155:'.length))),
  asset: z.object({ type: z.string().min(1).max(64), address: evmAddress.nullable() }),
  amount: z
    .string()
    .regex(/^\d{1,78}$/, 'must be a whole number of base units')
    // zod runs this even after the pattern failed, so it reads only digits.
    .refine((text) => !/^\d+$/.test(text) || BigInt(text) <= MAX_UINT256, 'must fit in 256 bits'),
  transaction_hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x followed by 64 hex digits'),
  sender: evmAddress,
  recipient: evmAddress,
  block: z.object({ number: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
  /** Not in the provider's events today; where a report carries it, it identifies the transfer exactly. */
  log_index: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

/** Document 3: "202 with an empty responseObject". */
export const walletProviderAccepted = z.strictObject({}).meta({ id: 'WalletProviderAccepted', description: 'Always empty' });
