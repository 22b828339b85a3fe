/**
 * The local stand-in for payout customers' wallets (actors/adapters/wallet-provider/local-customer-wallets.ts):
 * one wallet per e-mail, the same on every instance over the same root, a key that signs as it, and
 * failures on demand.
 */
import test from 'ava';
import { recoverMessageAddress } from 'viem';
import { CustomerWalletUnavailable, LocalCustomerWallets } from '../../../../actors/adapters/wallet-provider/index.js';
import {
  anvilTestAccount,
  localDemoMerchantAccount,
  localEmbeddedAccount,
  localPayoutServiceFeeAccount,
  localWalletRoot,
} from '../../../../indexer/chain/dev-accounts.js';

test('the same e-mail gets the same wallet, from this instance and from another over the same root', async (t) => {
  const wallets = new LocalCustomerWallets(localWalletRoot());
  const first = await wallets.walletFor('ada@example.com');
  t.regex(first.address, /^0x[0-9a-fA-F]{40}$/);
  t.regex(first.userId, /^local_[0-9a-f]{24}$/);
  t.deepEqual(await wallets.walletFor('ada@example.com'), first);
  t.deepEqual(await new LocalCustomerWallets(localWalletRoot()).walletFor('ada@example.com'), first, 'a restarted node or another node answers alike');
});

test('different e-mails get different wallets and owners, none of them a key the node uses for itself', async (t) => {
  const wallets = new LocalCustomerWallets(localWalletRoot());
  const emails = Array.from({ length: 50 }, (_, index) => `customer${index}@example.com`);
  const answered = await Promise.all(emails.map((email) => wallets.walletFor(email)));
  t.is(new Set(answered.map((wallet) => wallet.address)).size, emails.length);
  t.is(new Set(answered.map((wallet) => wallet.userId)).size, emails.length);
  const nodeKeys = new Set(
    [
      ...Array.from({ length: 10 }, (_, index) => anvilTestAccount(index)),
      ...Array.from({ length: 10 }, (_, index) => localEmbeddedAccount(index)),
      localDemoMerchantAccount(),
      localPayoutServiceFeeAccount(),
    ].map((account) => account.address),
  );
  t.false(
    answered.some((wallet) => nodeKeys.has(wallet.address)),
    'no customer wallet is a dev account, an embedded wallet, the demo merchant or the service fee wallet',
  );
  t.not((await wallets.walletFor('Ada@example.com')).address, (await wallets.walletFor('ada@example.com')).address, 'the caller lower-cases');
});

test('the key of an answered wallet signs as that wallet; an address it never answered has none', async (t) => {
  const wallets = new LocalCustomerWallets(localWalletRoot());
  const wallet = await wallets.walletFor('grace@example.com');
  const account = wallets.account(wallet.address.toLowerCase());
  t.truthy(account);
  t.is(account!.address, wallet.address);
  const signature = await account!.signMessage({ message: 'payout signer' });
  t.is(await recoverMessageAddress({ message: 'payout signer', signature }), wallet.address);
  t.is(wallets.account(localDemoMerchantAccount().address), null);
});

test('failNext fails that many calls with CustomerWalletUnavailable, then the same wallet is answered', async (t) => {
  const wallets = new LocalCustomerWallets(localWalletRoot());
  const expected = await wallets.walletFor('alan@example.com');
  wallets.failNext(2);
  for (let call = 0; call < 2; call += 1) {
    const error = await t.throwsAsync(wallets.walletFor('alan@example.com'), { instanceOf: CustomerWalletUnavailable });
    t.is(error.code, 'CUSTOMER_WALLET_UNAVAILABLE');
  }
  t.deepEqual(await wallets.walletFor('alan@example.com'), expected);
});

test('while down every call fails; back up, calls answer again', async (t) => {
  const wallets = new LocalCustomerWallets(localWalletRoot());
  wallets.setDown(true);
  await t.throwsAsync(wallets.walletFor('alan@example.com'), { instanceOf: CustomerWalletUnavailable });
  await t.throwsAsync(wallets.walletFor('barbara@example.com'), { instanceOf: CustomerWalletUnavailable });
  wallets.setDown(false);
  t.regex((await wallets.walletFor('alan@example.com')).address, /^0x/);
});
