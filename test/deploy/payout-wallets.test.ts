/**
 * Payout customers' wallets on a node: the local stand-in, whose keys come from a public
 * mnemonic, only on the local chain or when asked for; any other node refuses to make one,
 * so no customer is paid into a wallet anyone could spend from.
 */
import test from 'ava';
import { CustomerWalletUnavailable } from '../../actors/adapters/wallet-provider/customer-wallets.js';
import { LocalCustomerWallets } from '../../actors/adapters/wallet-provider/local-customer-wallets.js';
import { customerWalletsOf } from '../../deploy/payouts.js';

test('a node on a chain of its own (CHAIN_RPC_URL) makes no customer wallet from the public mnemonic', async (t) => {
  const wallets = customerWalletsOf({ LOCAL_EMBEDDED_WALLETS: false }, { localChain: null });
  t.false(wallets instanceof LocalCustomerWallets);
  await t.throwsAsync(wallets.walletFor('ana@example.com'), { instanceOf: CustomerWalletUnavailable });
  await t.throwsAsync(customerWalletsOf({ LOCAL_EMBEDDED_WALLETS: false }, null).walletFor('ana@example.com'), { instanceOf: CustomerWalletUnavailable });
});

test('the local chain, or LOCAL_EMBEDDED_WALLETS, gets the local stand-in', async (t) => {
  t.true(customerWalletsOf({ LOCAL_EMBEDDED_WALLETS: false }, { localChain: {} }) instanceof LocalCustomerWallets);
  const asked = customerWalletsOf({ LOCAL_EMBEDDED_WALLETS: true }, { localChain: null });
  t.regex((await asked.walletFor('ana@example.com')).address, /^0x[0-9a-fA-F]{40}$/);
});
