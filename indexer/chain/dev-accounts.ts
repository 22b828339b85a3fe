/**
 * Anvil's ten funded dev accounts, derived from the mnemonic every anvil prints and
 * funds: public test accounts, worth something only on a local chain. They are
 * derived rather than listed so no private key is ever written in the repository.
 */
import { pbkdf2Sync } from 'node:crypto';
import { HDKey, hdKeyToAccount, mnemonicToAccount, type HDAccount } from 'viem/accounts';

const ANVIL_PUBLIC_TEST_MNEMONIC = 'test test test test test test test test test test test junk';
const ANVIL_DEV_ACCOUNTS = 10;
const derived = new Map<number, HDAccount>();
let root: HDKey | undefined;

/** Dev account `index` (0 to 9) as a viem local account that signs in-process. */
export function anvilTestAccount(index: number): HDAccount {
  if (!Number.isInteger(index) || index < 0 || index >= ANVIL_DEV_ACCOUNTS) {
    throw new RangeError(`anvil has dev accounts 0 to ${ANVIL_DEV_ACCOUNTS - 1}, not ${index}`);
  }
  return derivedAccount(index);
}

/**
 * The local wallet provider's embedded wallet `index`: the same mnemonic past the ten dev
 * accounts anvil funds and the node uses for itself, so no embedded wallet is also a relayer,
 * witness or seeded maker.
 */
export function localEmbeddedAccount(index: number): HDAccount {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`no local embedded wallet ${index}`);
  return derivedAccount(ANVIL_DEV_ACCOUNTS + index);
}

/**
 * The demo merchant's wallet, where its live orders deliver USDC on a local chain. Anvil's ten
 * dev accounts all sign or hold for the node (deployer 0, witness 1, seeded makers 2 to 4, the
 * conversion provider's customer 5 and solver 9, gating 6, relayer 7, platform fee 8) and the
 * embedded wallets follow them on the same path, so it is the same public mnemonic's second
 * BIP-44 account (m/44'/60'/1'/0/0): a balance nothing else moves, which a wallet holding the
 * mnemonic can spend.
 */
export const LOCAL_DEMO_MERCHANT_ACCOUNT_INDEX = 1;

export function localDemoMerchantAccount(): HDAccount {
  return mnemonicToAccount(ANVIL_PUBLIC_TEST_MNEMONIC, { accountIndex: LOCAL_DEMO_MERCHANT_ACCOUNT_INDEX });
}

/**
 * Where the service's payout fee is delivered on a local chain (PAYOUT_SERVICE_FEE_WALLET unset): the
 * public mnemonic's third BIP-44 account (m/44'/60'/2'/0/0), for the same reason as the demo merchant's.
 * Its fourth (m/44'/60'/3'/…) holds the local wallet provider's payout customers
 * (actors/adapters/wallet-provider/local-customer-wallets.ts).
 */
const LOCAL_PAYOUT_SERVICE_FEE_ACCOUNT_INDEX = 2;

export function localPayoutServiceFeeAccount(): HDAccount {
  return hdKeyToAccount(localWalletRoot(), { accountIndex: LOCAL_PAYOUT_SERVICE_FEE_ACCOUNT_INDEX });
}

/** The public mnemonic's HD root, for stand-ins that derive keys of their own under it (the local customer wallets). */
export function localWalletRoot(): HDKey {
  // BIP-39's seed of a mnemonic without a passphrase, as viem's mnemonicToAccount derives it.
  root ??= HDKey.fromMasterSeed(pbkdf2Sync(ANVIL_PUBLIC_TEST_MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512'));
  return root;
}

function derivedAccount(addressIndex: number): HDAccount {
  let account = derived.get(addressIndex);
  if (!account) {
    account = mnemonicToAccount(ANVIL_PUBLIC_TEST_MNEMONIC, { addressIndex });
    derived.set(addressIndex, account);
  }
  return account;
}

/** Deploys the local contracts and so owns them: mints USDC, registers witnesses. */
export const LOCAL_DEPLOYER_INDEX = 0;
/** Signs payment attestations on a local chain when no other witness is given. */
export const LOCAL_WITNESS_INDEX = 1;
/** Signs the gating approvals of intents on a local chain when no other gating service is given. */
export const LOCAL_GATING_SERVICE_INDEX = 6;
/** Sends the node's transactions on a local chain when no relayer key is configured (deploy/relayer.ts). */
export const LOCAL_RELAYER_INDEX = 7;
/**
 * Extends intents on a local chain, paying the extension fee: the relayer's own wallet, because the
 * guardian must send each extension itself and the node sends only from its relayer's wallets.
 */
export const LOCAL_INTENT_GUARDIAN_INDEX = LOCAL_RELAYER_INDEX;
