/**
 * Where the service's payout fee is delivered: PAYOUT_SERVICE_FEE_WALLET, or on the local chain a
 * local dev wallet no other part of the node holds or moves (indexer/chain/dev-accounts.ts), so its
 * balance shows the fees arrive. On another chain without the variable there is none; the
 * configuration refuses that in production while any payout rail is on.
 */
import type { Address } from 'viem';
import type { Config } from '../actors/config.js';
import { localPayoutServiceFeeAccount } from '../indexer/chain/dev-accounts.js';

export function payoutServiceFeeWallet(config: Pick<Config, 'PAYOUT_SERVICE_FEE_WALLET'>, chain: { localChain: boolean } | null): Address | null {
  if (config.PAYOUT_SERVICE_FEE_WALLET) return config.PAYOUT_SERVICE_FEE_WALLET as Address;
  return chain?.localChain ? localPayoutServiceFeeAccount().address : null;
}
