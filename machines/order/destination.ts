/**
 * Where an order's USDC goes, resolved against the catalog (machines/catalog): the
 * chain (Base when none is named), the address (the merchant's wallet of that chain's
 * kind when none is sent: the EVM wallet on an EVM chain, the Solana wallet on
 * Solana), written in the chain's address format, and a token of that chain. On
 * Solana the address is the owner wallet, not a token account, as for an EVM wallet.
 *
 * A chain other than Base is delivered by a bridge after settlement (docs/bridges.md), which
 * is refused here rather than accepted and stranded: a bridge that keeps failing refunds the
 * merchant's EVM wallet on Base, so the account needs one; and a live order needs a node that
 * bridges live payments (a relayer wallet and the conversion provider's bridge out of Base).
 */
import { ADDRESS_FORMATS, BASE_CHAIN_ID, chainById, describeChains, describeTokens, findToken } from '../catalog/index.js';
import type { OrderAccount, RuleResult } from './create-rules.js';

export interface DestinationRequest {
  destinationAddress?: string | undefined;
  destinationToken?: string | undefined;
  /** As the API takes it, a JSON number. */
  destinationChainId?: number | undefined;
}

export interface Destination {
  destinationAddress: string;
  /** The token's address (mint on Solana) as the catalog writes it, whichever way the request named it. */
  destinationToken: string;
  destinationChainId: string;
}

export function resolveDestination(request: DestinationRequest, account: OrderAccount): RuleResult<Destination> {
  const chainId = request.destinationChainId === undefined ? BASE_CHAIN_ID : String(request.destinationChainId);
  const chain = chainById(chainId);
  if (!chain) {
    return {
      ok: false,
      code: 'FIELD_REFUSED',
      field: 'destinationChainId',
      message: `chain ${chainId} is not supported; the supported chains are ${describeChains()}`,
    };
  }
  if (chain.delivery === 'BRIDGE') {
    const refused = bridgeRefusal(chain.id, chain.name, account);
    if (refused) return { ok: false, code: 'FIELD_REFUSED', field: 'destinationChainId', message: refused };
  }
  const wallet = chain.kind === 'solana' ? account.solanaWalletAddress : account.evmWalletAddress;
  const address = request.destinationAddress ?? wallet;
  if (!address) {
    const kind = chain.kind === 'solana' ? 'Solana' : 'EVM';
    return { ok: false, code: 'DESTINATION_REQUIRED', message: `This merchant has no ${kind} wallet on file for ${chain.name}: send destinationAddress` };
  }
  const format = ADDRESS_FORMATS[chain.kind];
  if (!format.matches(address)) {
    return { ok: false, code: 'FIELD_REFUSED', field: 'destinationAddress', message: `must be ${format.description} on chain ${chain.id} (${chain.name})` };
  }
  const named = request.destinationToken ?? 'USDC';
  const token = findToken(chain, named);
  if (!token) {
    return {
      ok: false,
      code: 'FIELD_REFUSED',
      field: 'destinationToken',
      message: `${named} is not a supported token on chain ${chain.id} (${chain.name}); send one of ${describeTokens(chain)}`,
    };
  }
  return { ok: true, destinationAddress: address, destinationToken: token.address, destinationChainId: chain.id };
}

/** Why an order cannot be bridged to the chain, or null when it can. */
function bridgeRefusal(chainId: string, chainName: string, account: OrderAccount): string | null {
  if (account.environment === 'LIVE' && !account.liveBridges)
    return `chain ${chainId} (${chainName}) is delivered by a bridge, which this node runs for sandbox orders only; live orders are delivered on ${BASE_CHAIN_ID} (Base)`;
  if (!account.evmWalletAddress)
    return `chain ${chainId} (${chainName}) is delivered by a bridge from Base, which refunds the merchant's EVM wallet on Base if it fails: set evmWalletAddress first`;
  return null;
}
