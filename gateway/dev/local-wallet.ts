/**
 * Development only: the local test wallet, so a payout can be funded by hand on `npm start`
 * (README) without knowing where the local conversion provider listens. The node hands the
 * gateway this port over its local provider; a node without one has none.
 */
import { z } from 'zod';
import { evmAddress } from '../schemas/common.js';

export const localWalletTransfer = z
  .strictObject({
    depositAddress: z.string().min(1).max(100).meta({ description: 'Where to send: a payout’s `funding.depositAddress`' }),
    chainId: z.number().int().meta({ description: 'The funding token’s chain, as the payout names it (`8253038` for Bitcoin)', example: 8453 }),
    tokenAddress: z
      .string()
      .min(1)
      .max(100)
      .meta({ description: 'The funding token’s address as the payout names it; all zero for a native token, the catalog’s id for BTC' }),
    amount: z
      .string()
      .regex(/^\d{1,24}(?:\.\d{1,18})?$/, 'must be a decimal amount of the token')
      .meta({ description: 'A decimal of the token, as `funding.amount` reads', example: '104.123712' }),
  })
  .meta({ id: 'LocalWalletTransfer' });

export const localWalletSent = z
  .object({
    transactionHash: z.string().meta({ description: 'The transfer on the local chain, or the Bitcoin txid (mined at once)' }),
    from: evmAddress.nullable().meta({ description: 'The local test wallet; null for Bitcoin, which has no sender to show' }),
  })
  .meta({ id: 'LocalWalletSent' });

export type LocalWalletTransfer = z.infer<typeof localWalletTransfer>;
export type LocalWalletSent = z.infer<typeof localWalletSent>;

/** The local wallet's answer: sent, or refused by the local provider with its own code and message. */
export type LocalWalletOutcome = { sent: LocalWalletSent } | { refused: { code: string; message: string } };

export interface LocalWallet {
  send(transfer: LocalWalletTransfer): Promise<LocalWalletOutcome>;
}

export const LOCAL_WALLET_UNAVAILABLE = {
  code: 'LOCAL_WALLET_UNAVAILABLE',
  when: 'the node runs no local conversion provider (it is not on the local chain)',
} as const;

export const LOCAL_WALLET_REFUSED = {
  code: 'LOCAL_WALLET_REFUSED',
  when: 'the local provider would not send it (a token or chain it does not stand in for, an amount out of range); `providerCode` says why',
} as const;
