/**
 * The local stand-in for the wallet provider's payout signer, over the local customer wallets.
 * Like the real provider it enforces the payout-only policy itself: a batch the policy refuses,
 * or any batch before the signer is attached, is never signed, whatever the platform asks.
 *
 * A customer's key is derived from the e-mail (local-customer-wallets.ts), and a wallet's
 * address alone does not give it back. So the stand-in keeps, as the real provider keeps in its
 * own database, each wallet it made with its owner's e-mail and the time the signer was attached
 * (collection `local_payout_signers`): a restarted node, or another node over the same store,
 * still knows which wallets it holds and which are attached, and derives the key again from the
 * e-mail. Payout creation therefore asks this stand-in for a customer's wallet (`walletFor`),
 * which records the wallet as it answers it; `attach` and `wallet` then need only the address,
 * as with the real provider.
 */
import type { LocalAccount } from 'viem';
import { DuplicateKeyError } from '../../errors.js';
import type { Collection, Store } from '../../store/store.js';
import type { Hex } from '../../../machines/index.js';
import { batchRefusal, delegationRefusal, type PayoutSignerTargets } from '../../../machines/payout/index.js';
import type { CustomerWallet, CustomerWalletProvider } from './customer-wallets.js';
import type { EmbeddedWallet, EmbeddedWalletProvider } from './embedded-wallets.js';
import type { LocalCustomerWallets } from './local-customer-wallets.js';
import { PayoutPolicyRefused, PayoutSignerNotAttached, PayoutWalletNotHeld, type PayoutSignerProvider } from './payout-signers.js';

type HeldWalletDoc = {
  /** The wallet's address, lower-case. */
  _id: string;
  address: Hex;
  email: string;
  attachedAt: string | null;
};

export interface LocalPayoutSignersOptions {
  customers: LocalCustomerWallets;
  store: Store;
  targets: PayoutSignerTargets;
  now: () => string;
}

export class LocalPayoutSigners implements CustomerWalletProvider, PayoutSignerProvider, EmbeddedWalletProvider {
  private constructor(
    private readonly customers: LocalCustomerWallets,
    private readonly held: Collection<HeldWalletDoc>,
    private readonly targets: PayoutSignerTargets,
    private readonly now: () => string,
  ) {}

  static async open(options: LocalPayoutSignersOptions): Promise<LocalPayoutSigners> {
    const held = await options.store.collection<HeldWalletDoc>({ name: 'local_payout_signers', indexes: [] });
    return new LocalPayoutSigners(options.customers, held, options.targets, options.now);
  }

  /** The customer's wallet for `email`, as LocalCustomerWallets answers it, recorded as held. */
  async walletFor(email: string): Promise<CustomerWallet> {
    const wallet = await this.customers.walletFor(email);
    try {
      await this.held.insertOne({ _id: wallet.address.toLowerCase(), address: wallet.address, email, attachedAt: null });
    } catch (error) {
      // Made before: the same e-mail always derives the same wallet, so the record already says this.
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    return wallet;
  }

  async attach(walletAddress: Hex): Promise<{ attachedAt: string }> {
    const _id = walletAddress.toLowerCase();
    const found = await this.held.findOne({ _id });
    if (!found) throw new PayoutWalletNotHeld(walletAddress);
    if (found.attachedAt !== null) return { attachedAt: found.attachedAt };
    const attachedAt = this.now();
    if (await this.held.updateOne({ _id, attachedAt: null }, { $set: { attachedAt } })) return { attachedAt };
    // Another attach won the write: its time is the attachment's.
    return { attachedAt: (await this.held.findOne({ _id }))!.attachedAt! };
  }

  async attached(walletAddress: Hex): Promise<boolean> {
    return ((await this.held.findOne({ _id: walletAddress.toLowerCase() }))?.attachedAt ?? null) !== null;
  }

  async wallet(address: Hex): Promise<EmbeddedWallet | null> {
    const found = await this.held.findOne({ _id: address.toLowerCase() });
    if (!found) return null;
    const { targets } = this;
    return {
      address: found.address,
      signAuthorization: async (request) => {
        await this.#requireAttached(found);
        const refusal = delegationRefusal(request, targets);
        if (refusal) throw new PayoutPolicyRefused(found.address, refusal);
        const key = await this.#key(found);
        const signed = await key.signAuthorization!({ contractAddress: request.contractAddress, chainId: request.chainId, nonce: request.nonce });
        return { address: signed.address, chainId: signed.chainId, nonce: signed.nonce, r: signed.r, s: signed.s, yParity: signed.yParity ?? 0 };
      },
      signBatch: async (typedData) => {
        // Checked and signed as one copy, so what the policy read is what the key signs.
        const batch = structuredClone(typedData);
        await this.#requireAttached(found);
        const refusal = batchRefusal(batch, found.address, targets);
        if (refusal) throw new PayoutPolicyRefused(found.address, refusal);
        return (await this.#key(found)).signTypedData(batch);
      },
    };
  }

  /** Read from the store at each signing, so an attachment made through another instance or before a restart counts at once. */
  async #requireAttached(held: HeldWalletDoc): Promise<void> {
    if (!(await this.attached(held.address))) throw new PayoutSignerNotAttached(held.address);
  }

  /** After a restart the customers' stand-in has answered nothing yet: the key is derived again from the recorded e-mail. */
  async #key(held: HeldWalletDoc): Promise<LocalAccount> {
    const known = this.customers.account(held.address);
    if (known) return known;
    await this.customers.walletFor(held.email);
    const derived = this.customers.account(held.address);
    // Only when the node's wallet root changed under a kept store: the e-mail's wallet is another one now.
    if (!derived) throw new PayoutWalletNotHeld(held.address);
    return derived;
  }
}
