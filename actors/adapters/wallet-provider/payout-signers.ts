/**
 * The wallet provider's payout signer (document 2, "Customer checkout behaviour that is
 * fixed"): once the customer signs in, the platform's signer is attached to the customer's
 * wallet, and from then on the provider signs for that wallet what the platform asks, but only
 * batches the payout-only policy allows (machines/payout/payout-signer-policy.ts). The policy is
 * the provider's to enforce: a refused batch is never signed, whatever our code asked.
 */
import type { Hex } from '../../../machines/index.js';
import type { PolicyRefusal } from '../../../machines/payout/index.js';
import { PlatformError } from '../../errors/platform-error.js';
import type { EmbeddedWallet } from './embedded-wallets.js';

export interface PayoutSignerProvider {
  /** Attaches the signer to the wallet; attaching again answers the first attachment's time. */
  attach(walletAddress: Hex): Promise<{ attachedAt: string }>;
  attached(walletAddress: Hex): Promise<boolean>;
  /**
   * The customer's wallet as the signer sees it, or null when the provider holds none there. Its
   * signing throws PayoutSignerNotAttached until the signer is attached, and PayoutPolicyRefused
   * for anything outside the policy.
   */
  wallet(address: Hex): Promise<EmbeddedWallet | null>;
}

/** The signer is not attached to the wallet (yet): nothing was signed. Actions that send answer CASHOUT_SIGNER_NOT_ATTACHED. */
export class PayoutSignerNotAttached extends PlatformError {
  override readonly name = 'PayoutSignerNotAttached';
  readonly code = 'CASHOUT_SIGNER_NOT_ATTACHED';

  constructor(readonly wallet: Hex) {
    super(`the payout signer is not attached to wallet ${wallet}`);
  }
}

/** The provider refused to sign what the payout-only policy does not allow: nothing was signed, and asking again is refused again. */
export class PayoutPolicyRefused extends PlatformError {
  override readonly name = 'PayoutPolicyRefused';
  readonly code = 'PAYOUT_POLICY_REFUSED';

  constructor(
    readonly wallet: Hex,
    readonly refusal: PolicyRefusal,
  ) {
    super(`the payout signer refused to sign for ${wallet}: ${refusal.index === null ? '' : `call ${refusal.index}: `}${refusal.reason} (${refusal.code})`);
  }
}

/** The provider holds no wallet at the address the signer was to be attached to. */
export class PayoutWalletNotHeld extends PlatformError {
  override readonly name = 'PayoutWalletNotHeld';
  readonly code = 'PAYOUT_WALLET_NOT_HELD';

  constructor(readonly wallet: Hex) {
    super(`the wallet provider holds no payout customer's wallet at ${wallet}`);
  }
}
