/** The local chain's accounts (indexer/chain/dev-accounts.ts): the HD root stand-ins derive under is the public mnemonic's. */
import test from 'ava';
import { hdKeyToAccount } from 'viem/accounts';
import { anvilTestAccount, localDemoMerchantAccount, localPayoutServiceFeeAccount, localWalletRoot } from '../../../indexer/chain/dev-accounts.js';

test('the local wallet root derives the accounts the mnemonic does, and the payout service fee wallet is an account of its own', (t) => {
  t.is(hdKeyToAccount(localWalletRoot(), { accountIndex: 1 }).address, localDemoMerchantAccount().address);
  t.is(hdKeyToAccount(localWalletRoot(), { addressIndex: 3 }).address, anvilTestAccount(3).address);
  const serviceFee = localPayoutServiceFeeAccount().address;
  t.is(serviceFee, hdKeyToAccount(localWalletRoot(), { accountIndex: 2 }).address);
  t.false(Array.from({ length: 10 }, (_, index) => anvilTestAccount(index).address).includes(serviceFee));
  t.not(serviceFee, localDemoMerchantAccount().address);
});
