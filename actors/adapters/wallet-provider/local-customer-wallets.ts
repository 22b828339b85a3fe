/**
 * The local stand-in for the wallet provider's payout customers: an e-mail's wallet is the key at
 * a path derived from a hash of the e-mail under the HD root the node gives it (deploy: anvil's
 * public mnemonic, whose keys are worth nothing off a local chain). Nothing is stored, so the same
 * e-mail gets the same wallet on every node sharing the root and after every restart, and the
 * stand-in holds the key the customer's checkout signs with. Tests make it fail on demand, as
 * the real provider does when it is down.
 */
import { createHash } from 'node:crypto';
import { toHex } from 'viem';
import { privateKeyToAccount, type HDKey, type LocalAccount } from 'viem/accounts';
import { CustomerWalletUnavailable, type CustomerWallet, type CustomerWalletProvider } from './customer-wallets.js';

/**
 * The root's fourth BIP-44 account (m/44'/60'/3'): the first three are the node's dev accounts and
 * makers' embedded wallets, the demo merchant's and the payout service fee's (indexer/chain/dev-accounts.ts).
 */
const CUSTOMER_ACCOUNT_INDEX = 3;
/** Non-hardened BIP-32 indexes are 31 bits; two of them give a wallet 62 bits of the hash, so e-mails do not meet. */
const INDEX_MASK = 0x7fff_ffff;

export class LocalCustomerWallets implements CustomerWalletProvider {
  /** m/44'/60'/3': its hardened steps are most of a derivation's cost, so they are taken once. */
  readonly #customers: HDKey;
  readonly #answered = new Map<string, LocalAccount>();
  #failuresLeft = 0;
  #down = false;

  constructor(root: HDKey) {
    this.#customers = root.derive(`m/44'/60'/${CUSTOMER_ACCOUNT_INDEX}'`);
  }

  async walletFor(email: string): Promise<CustomerWallet> {
    if (this.#down) throw new CustomerWalletUnavailable('the local wallet provider is down');
    if (this.#failuresLeft > 0) {
      this.#failuresLeft -= 1;
      throw new CustomerWalletUnavailable('the local wallet provider failed this call on request');
    }
    const hash = createHash('sha256').update(`payout-customer:${email}`).digest();
    const key = this.#customers.deriveChild(hash.readUInt32BE(0) & INDEX_MASK).deriveChild(hash.readUInt32BE(4) & INDEX_MASK);
    const account = privateKeyToAccount(toHex(key.privateKey!));
    this.#answered.set(account.address.toLowerCase(), account);
    return { userId: `local_${hash.subarray(8, 20).toString('hex')}`, address: account.address };
  }

  /**
   * The key of a wallet this instance has answered, to sign as the customer; null for any other
   * address. After a restart, `walletFor` the payout's e-mail again derives the same key.
   */
  account(address: string): LocalAccount | null {
    return this.#answered.get(address.toLowerCase()) ?? null;
  }

  /** The next `count` calls fail with CustomerWalletUnavailable; later ones answer again. */
  failNext(count = 1): void {
    this.#failuresLeft += count;
  }

  /** While down, every call fails with CustomerWalletUnavailable, as during the provider's outage. */
  setDown(down: boolean): void {
    this.#down = down;
  }
}
