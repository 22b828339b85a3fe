/**
 * Wallet address schemas beyond EVM's (`evmAddress` in common.ts): Solana's, and the
 * wallet address a request may send for either kind of chain. Which kind a chain
 * takes is the catalog's rule (machines/catalog), checked where the chain is known.
 */
import { z } from 'zod';
import { isEvmAddress, isSolanaAddress } from '../../machines/catalog/index.js';

export const solanaAddress = z
  .string()
  .refine(isSolanaAddress, 'must be a Solana address: base58, 32 to 44 characters spelling 32 bytes')
  .meta({ description: 'Solana address (base58; letter case counts)', example: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' });

export const walletAddress = z
  .string()
  .refine((text) => isEvmAddress(text) || isSolanaAddress(text), 'must be an EVM address (0x and 40 hex digits) or a Solana address (base58, 32 bytes)');
