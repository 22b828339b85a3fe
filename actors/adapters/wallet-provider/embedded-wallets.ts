/**
 * The wallet provider's side of a maker's embedded wallet: the provider holds the key, and
 * signs for the maker what the platform asks (the EIP-7702 delegation to the batch executor,
 * and each batch). The real provider is an HTTPS service with server-side signing; the local
 * stand-in signs with the accounts the node gives it (anvil's public mnemonic, worth nothing off a local chain).
 */
import type { LocalAccount } from 'viem';
import type { Authorization, BatchTypedData, Hex } from '../../../machines/index.js';

export interface EmbeddedWallet {
  readonly address: Hex;
  /** Signs the account's delegation of its code to `contractAddress` (EIP-7702) at the account's nonce. */
  signAuthorization(request: { contractAddress: Hex; chainId: number; nonce: number }): Promise<Authorization>;
  signBatch(typedData: BatchTypedData): Promise<Hex>;
}

export interface EmbeddedWalletProvider {
  /** The embedded wallet at `address`, or null when the provider holds none there. */
  wallet(address: Hex): Promise<EmbeddedWallet | null>;
}

export class LocalEmbeddedWallets implements EmbeddedWalletProvider {
  readonly #accounts: Map<string, LocalAccount>;

  constructor(accounts: readonly LocalAccount[]) {
    this.#accounts = new Map(accounts.map((account) => [account.address.toLowerCase(), account]));
  }

  get addresses(): Hex[] {
    return [...this.#accounts.values()].map((account) => account.address);
  }

  async wallet(address: Hex): Promise<EmbeddedWallet | null> {
    const account = this.#accounts.get(address.toLowerCase());
    if (!account) return null;
    return {
      address: account.address,
      async signAuthorization({ contractAddress, chainId, nonce }) {
        const signed = await account.signAuthorization!({ contractAddress, chainId, nonce });
        return { address: signed.address, chainId: signed.chainId, nonce: signed.nonce, r: signed.r, s: signed.s, yParity: signed.yParity ?? 0 };
      },
      signBatch: (typedData) => account.signTypedData(typedData),
    };
  }
}
