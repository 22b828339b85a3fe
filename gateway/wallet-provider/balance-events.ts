/**
 * Which transfer, if any, a verified wallet-provider message reports. Only a balance
 * event on an EVM chain is read further; its fields must then be well formed (a
 * validation 400 otherwise), and it reports a canonical transfer only when it moves
 * USDC on a catalog chain (machines/wallet-transfer). Everything else is ignored, with
 * the reason, for the answer's message and the log.
 */
import { readTransfer, type TransferReading } from '../../machines/wallet-transfer/index.js';
import { evmBalanceEvent, evmBalanceEventHead } from '../schemas/wallet-provider-schemas.js';
import { parseOrThrow } from '../validation.js';

export function transferReported(body: Record<string, unknown>): TransferReading {
  if (!evmBalanceEventHead.safeParse(body).success) return { kind: 'ignored', reason: 'not a balance event on an EVM chain' };
  const event = parseOrThrow(evmBalanceEvent, body);
  if (event.asset.type !== 'erc20' || event.asset.address === null) return { kind: 'ignored', reason: `asset type ${event.asset.type} is not an ERC-20 token` };
  return readTransfer({
    chainId: event.caip2,
    txHash: event.transaction_hash,
    logIndex: event.log_index ?? null,
    token: event.asset.address,
    from: event.sender,
    to: event.recipient,
    amount: event.amount,
    blockNumber: event.block.number,
  });
}
