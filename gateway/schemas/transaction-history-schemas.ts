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

const chain = z.string().meta({ description: 'The chain’s readable key', example: 'base' });
const tokenContract = evmAddress.meta({ description: 'The token’s contract on the chain' });

const assetTransfer = z
  .object({
    chain,
    tokenContract,
    txHash: z.string().meta({ description: 'The transfer’s transaction', example: `0x${'ab'.repeat(32)}` }),
    blockNumber: z.number().int().min(0).meta({ description: 'The block of that transaction' }),
    timestamp: isoTime.meta({ description: 'The block’s time' }),
    from: evmAddress.meta({ description: 'The sender' }),
    to: evmAddress.meta({ description: 'The receiver' }),
    type: z.enum(['SEND', 'DEPOSIT']).meta({ description: 'From the wallet’s side: SEND leaves it, DEPOSIT arrives (a transfer to itself is a DEPOSIT)' }),
    amountRaw: z.string().regex(/^\d+$/).meta({ description: 'Base units', example: '1500000' }),
    amountFormatted: z.string().meta({ description: 'In tokens, as a decimal', example: '1.5' }),
  })
  .meta({ id: 'AssetTransfer', description: 'One transfer of the token to or from the wallet' });

export const transactionHistory = z
  .object({
    walletAddress: evmAddress.meta({ description: 'The signed-in wallet' }),
    chain,
    chainId: z.number().int().meta({ description: 'The chain the transfers are on (the local chain’s own id where the node runs one)' }),
    tokenContract,
    assetTransfers: z.array(assetTransfer).meta({ description: 'Newest first, at most 1000' }),
  })
  .meta({ id: 'TransactionHistory' });
