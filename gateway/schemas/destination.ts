/**
 * The destination fields of the create-order body. Their shapes are checked here;
 * whether the chain and token are in the catalog, and whether the address is of the
 * chain's kind, is the order's create rule (machines/order/destination.ts), so that
 * one place decides what can be delivered. Chain ids stay JSON numbers, Solana's
 * included (792703809, as Peer's chain list numbers it); answers write them as
 * decimal strings, as document 1 does.
 */
import { z } from 'zod';
import { describeChains } from '../../machines/catalog/index.js';
import { walletAddress } from './addresses.js';

export const destinationAddress = walletAddress.meta({
  description: "An EVM address on an EVM chain, a Solana address on Solana; defaults to the merchant's wallet of the chain's kind",
});

export const destinationToken = z.string().min(1).max(64).meta({ description: "The token's symbol (USDC) or its address on the chain (the mint on Solana)" });

export const destinationChainId = z
  .number()
  .int()
  .positive()
  .meta({ description: `Defaults to 8453. Supported: ${describeChains()}` });
