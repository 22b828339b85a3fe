/**
 * The local test wallet the development routes send from (gateway/dev/local-wallet.ts): the
 * local conversion provider's customer wallet on the local chain, and its Bitcoin mempool,
 * mined at once so a payout funded by hand in BTC goes on without a second step.
 */
import type { LocalWallet, LocalWalletOutcome, LocalWalletTransfer } from '../gateway/dev/local-wallet.js';
import { BITCOIN_CHAIN_ID } from '../machines/payout/funding-catalog.js';
import type { ConversionSimulator } from './conversion-simulator/index.js';
import { SimulatorError } from './conversion-simulator/simulator-error.js';

export function localWalletOf(simulator: ConversionSimulator): LocalWallet {
  return {
    async send(transfer: LocalWalletTransfer): Promise<LocalWalletOutcome> {
      try {
        if (transfer.chainId === BITCOIN_CHAIN_ID) {
          const { txid } = simulator.sendBitcoin(transfer.depositAddress, transfer.amount);
          simulator.mineBitcoin();
          return { sent: { transactionHash: txid, from: null } };
        }
        if (!/^0x[0-9a-fA-F]{40}$/.test(transfer.depositAddress))
          return { refused: { code: 'INVALID_ADDRESS', message: `${transfer.depositAddress} is not an EVM address` } };
        const sent = await simulator.sendFromWallet({ ...transfer, depositAddress: transfer.depositAddress as `0x${string}` });
        return { sent };
      } catch (error) {
        if (error instanceof SimulatorError) return { refused: { code: error.code, message: error.message } };
        throw error;
      }
    },
  };
}
