/**
 * The canonical form of a USDC transfer the wallet provider reports: one ERC-20
 * Transfer of Circle's USDC on a catalog EVM chain, written so that two reports of the
 * same transfer are equal field for field, whichever wallet's event (the sender's
 * withdrawal or the recipient's deposit) or which message carried it. Addresses and
 * the hash are lower case (hex carries no meaning in letter case), the amount is base
 * units in decimal digits.
 *
 * A transfer is identified by (chainId, txHash, logIndex) when the report carries the
 * log index. The provider's balance events do not, so without it the identity is the
 * transfer's content: chain, transaction, token, sender, recipient and amount. Under
 * that identity two transfers of one transaction with the same sender, recipient and
 * amount count once (docs/wallet-provider-webhook.md).
 */
import { chainById } from '../catalog/index.js';

export interface CanonicalTransfer {
  /** EIP-155 chain id. */
  chainId: number;
  /** 0x and 64 lower-case hex digits. */
  txHash: string;
  /** The Transfer log's index in its block when the report carries it, else null. */
  logIndex: number | null;
  /** The USDC contract, lower case. */
  token: string;
  from: string;
  to: string;
  /** USDC base units (6 decimals), decimal digits without leading zeros; above zero. */
  amount: string;
  blockNumber: number;
}

/** A transfer as the event states it, its fields checked for shape (gateway/schemas/wallet-provider-schemas.ts) but not yet for meaning. */
export type ReportedTransfer = CanonicalTransfer;

export type TransferReading = { kind: 'transfer'; transfer: CanonicalTransfer } | { kind: 'ignored'; reason: string };

/**
 * The canonical transfer a report describes, or why it is none of ours to keep: a chain
 * outside the catalog, a token other than the chain's USDC, or an amount of zero (the
 * zero-value Transfer logs that address-poisoning spam emits, which move nothing).
 */
export function readTransfer(reported: ReportedTransfer): TransferReading {
  const chain = chainById(String(reported.chainId));
  if (chain?.kind !== 'evm') return { kind: 'ignored', reason: `chain ${reported.chainId} is not a catalog EVM chain` };
  const usdc = chain.tokens.find((token) => token.symbol === 'USDC');
  if (!usdc || usdc.address.toLowerCase() !== reported.token.toLowerCase())
    return { kind: 'ignored', reason: `token ${reported.token} is not USDC on chain ${chain.id}` };
  const amount = BigInt(reported.amount);
  if (amount === 0n) return { kind: 'ignored', reason: 'a transfer of zero moves nothing' };
  return {
    kind: 'transfer',
    transfer: {
      chainId: reported.chainId,
      txHash: reported.txHash.toLowerCase(),
      logIndex: reported.logIndex,
      token: reported.token.toLowerCase(),
      from: reported.from.toLowerCase(),
      to: reported.to.toLowerCase(),
      amount: amount.toString(),
      blockNumber: reported.blockNumber,
    },
  };
}

/** The key a transfer is stored under: two reports with one identity are one transfer. */
export function transferIdentity(transfer: CanonicalTransfer): string {
  const { chainId, txHash, logIndex, token, from, to, amount } = transfer;
  return logIndex === null ? `${chainId}:${txHash}:${token}:${from}:${to}:${amount}` : `${chainId}:${txHash}:${logIndex}`;
}

/** Whether two reports under one identity agree on everything; a disagreement (a block number, say) is a conflict, and the first report stands. */
export function sameTransfer(a: CanonicalTransfer, b: CanonicalTransfer): boolean {
  return (
    a.chainId === b.chainId &&
    a.txHash === b.txHash &&
    a.logIndex === b.logIndex &&
    a.token === b.token &&
    a.from === b.from &&
    a.to === b.to &&
    a.amount === b.amount &&
    a.blockNumber === b.blockNumber
  );
}
