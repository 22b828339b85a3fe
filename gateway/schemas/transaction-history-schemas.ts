/** Document 3's transaction history of the signed-in wallet (docs/transaction-history.md). */
import { z } from 'zod';
import { evmAddress, isoTime } from './common.js';

export const transactionHistoryPath = z.object({
  chain: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,32}$/, 'must be a chain key: letters, digits and -, at most 32')
    .meta({ description: 'The chain’s readable key, any letter case: `base`', example: 'base' }),
  token: z
    .string()
    .regex(/^[A-Za-z0-9]{1,16}$/, 'must be a token symbol: letters and digits, at most 16')
    .meta({ description: 'The token’s symbol, any letter case: `usdc`', example: 'usdc' }),
});

const assetTransfer = z
  .object({
    chain: z.string().meta({ example: 'base' }),
    tokenContract: evmAddress,
    txHash: z.string().meta({ example: `0x${'ab'.repeat(32)}` }),
    blockNumber: z.number().int().min(0),
    timestamp: isoTime.meta({ description: 'The block’s time' }),
    from: evmAddress,
    to: evmAddress,
    type: z.enum(['SEND', 'DEPOSIT']).meta({ description: 'From the wallet’s side: SEND leaves it, DEPOSIT arrives (a transfer to itself is a DEPOSIT)' }),
    amountRaw: z.string().regex(/^\d+$/).meta({ description: 'Base units', example: '1500000' }),
    amountFormatted: z.string().meta({ description: 'In tokens, as a decimal', example: '1.5' }),
  })
  .meta({ id: 'AssetTransfer' });

export const transactionHistory = z
  .object({
    walletAddress: evmAddress,
    chain: z.string().meta({ example: 'base' }),
    chainId: z.number().int().meta({ description: 'The chain the transfers are on (the local chain’s own id where the node runs one)' }),
    tokenContract: evmAddress,
    assetTransfers: z.array(assetTransfer).meta({ description: 'Newest first, at most 1000' }),
  })
  .meta({ id: 'TransactionHistory' });
