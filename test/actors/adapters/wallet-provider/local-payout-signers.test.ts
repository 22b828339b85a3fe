/**
 * The local payout signer (actors/adapters/wallet-provider/local-payout-signers.ts) through its
 * public interface, on a local chain: nothing is signed before the signer is attached; once it
 * is, a listing batch is signed and run by a sponsor from the customer's wallet (which holds no
 * ether), a send of exactly 1,000 USDC too, while 1,000.000001 USDC is refused before any
 * signature exists; and after a restart over the same store the attachment holds and the
 * wallet withdraws its listing.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFunctionData, erc20Abi, zeroAddress, type Hex, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  LocalCustomerWallets,
  LocalPayoutSigners,
  PayoutPolicyRefused,
  PayoutSignerNotAttached,
  PayoutWalletNotHeld,
  type EmbeddedWallet,
} from '../../../../actors/adapters/wallet-provider/index.js';
import { EmbeddedStore, type Store } from '../../../../actors/store/index.js';
import { anvilTestAccount, escrowAbi, localWalletRoot, startLocalChain, type LocalChain } from '../../../../indexer/chain/index.js';
import {
  batchTypedData,
  depositAssertionsFunctionsAbi,
  escrowFunctionsAbi,
  executeData,
  usdcFunctionsAbi,
  type BatchCall,
} from '../../../../machines/index.js';
import { PAYOUT_SIGNER_TRANSFER_CAP, type PayoutSignerTargets } from '../../../../machines/payout/index.js';

const ATTACHED_AT = '2030-01-02T03:04:05.000Z';
const EMAIL = 'ada@example.com';
const LISTING = 10_000_000n;
const VENMO = `0x${'a1'.repeat(32)}` as Hex;
const PAYEE = `0x${'b2'.repeat(32)}` as Hex;
const USD = `0x${'c3'.repeat(32)}` as Hex;

/** The customers' stand-in, counting what its keys sign: a refused batch must reach no key. */
class CountingCustomers extends LocalCustomerWallets {
  signatures = 0;

  override account(address: string): LocalAccount | null {
    const account = super.account(address);
    if (!account) return null;
    return {
      ...account,
      signTypedData: async (typedData) => {
        this.signatures += 1;
        return account.signTypedData(typedData);
      },
      signAuthorization: async (request) => {
        this.signatures += 1;
        return account.signAuthorization!(request);
      },
    };
  }
}

let chain: LocalChain;
let targets: PayoutSignerTargets;
let dataDir: string;
let store: Store;
let customers: CountingCustomers;
let signers: LocalPayoutSigners;
let customer: Hex;
let depositId: bigint;
let batches = 0n;
const sponsor = anvilTestAccount(9);

test.before(async () => {
  chain = await startLocalChain();
  targets = { chainId: chain.chainId, usdc: chain.usdc, escrow: chain.escrow, depositAssertions: chain.depositAssertions, batchExecutor: chain.batchExecutor };
  dataDir = await mkdtemp(join(tmpdir(), 'payout-signers-'));
  store = await EmbeddedStore.open({ dataDir });
  customers = new CountingCustomers(localWalletRoot());
  signers = await LocalPayoutSigners.open({ customers, store, targets, now: () => ATTACHED_AT });
  customer = (await signers.walletFor(EMAIL)).address;
  await chain.mintUsdc(customer, LISTING + PAYOUT_SIGNER_TRANSFER_CAP);
});

test.after.always(async () => {
  await store?.close();
  await chain?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const usdcOf = (owner: Hex) => chain.publicClient.readContract({ address: chain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
const call = (
  target: Hex,
  abi: typeof escrowFunctionsAbi | typeof usdcFunctionsAbi | typeof depositAssertionsFunctionsAbi,
  functionName: string,
  args: readonly unknown[],
): BatchCall => ({
  target,
  value: 0n,
  data: encodeFunctionData({ abi, functionName, args } as never),
});
const transfer = (to: Hex, amount: bigint) => call(chain.usdc, usdcFunctionsAbi, 'transfer', [to, amount]);

/** Signs `calls` as the wallet, as deposit-effects does, and lets a sponsor run them: the wallet pays no gas. */
async function run(wallet: EmbeddedWallet, calls: BatchCall[]): Promise<void> {
  batches += 1n;
  const deadline = (await chain.publicClient.getBlock()).timestamp + 600n;
  const signature = await wallet.signBatch(batchTypedData(wallet.address, chain.chainId, calls, batches, deadline));
  const code = await chain.publicClient.getCode({ address: wallet.address });
  const delegation = code?.startsWith('0xef0100')
    ? {}
    : {
        authorizationList: [
          await wallet.signAuthorization({
            contractAddress: chain.batchExecutor,
            chainId: chain.chainId,
            nonce: await chain.publicClient.getTransactionCount({ address: wallet.address }),
          }),
        ],
      };
  await chain.confirm(
    await chain.walletFor(sponsor).sendTransaction({ to: wallet.address, data: executeData(calls, batches, deadline, signature), ...delegation }),
  );
}

async function refused(t: ExecutionContext, signing: Promise<unknown>, code: string, index: number | null): Promise<void> {
  const error = await t.throwsAsync(signing, { instanceOf: PayoutPolicyRefused });
  t.is(error?.code, 'PAYOUT_POLICY_REFUSED');
  t.like(error?.refusal, { code, index });
}

test.serial('a wallet the provider did not make: no wallet, and no signer to attach', async (t) => {
  const stranger = privateKeyToAccount(generatePrivateKey()).address;
  t.is(await signers.wallet(stranger), null);
  t.false(await signers.attached(stranger));
  const error = await t.throwsAsync(signers.attach(stranger), { instanceOf: PayoutWalletNotHeld });
  t.is(error?.code, 'PAYOUT_WALLET_NOT_HELD');
});

test.serial('before the signer is attached the wallet signs nothing, not even a batch the policy allows', async (t) => {
  const wallet = await signers.wallet(customer);
  t.is(wallet?.address, customer);
  t.false(await signers.attached(customer));
  const error = await t.throwsAsync(wallet!.signBatch(batchTypedData(customer, chain.chainId, [transfer(sponsor.address, 1n)], 1n, 2n)), {
    instanceOf: PayoutSignerNotAttached,
  });
  t.is(error?.code, 'CASHOUT_SIGNER_NOT_ATTACHED');
  await t.throwsAsync(wallet!.signAuthorization({ contractAddress: chain.batchExecutor, chainId: chain.chainId, nonce: 0 }), {
    instanceOf: PayoutSignerNotAttached,
  });
  t.is(customers.signatures, 0);
});

test.serial('attached, the wallet lists 10 USDC in the escrow in one sponsored batch; the attachment’s time is the first one', async (t) => {
  t.deepEqual(await signers.attach(customer), { attachedAt: ATTACHED_AT });
  t.true(await signers.attached(customer));
  const later = await LocalPayoutSigners.open({ customers, store, targets, now: () => '2030-01-03T00:00:00.000Z' });
  t.deepEqual(await later.attach(customer), { attachedAt: ATTACHED_AT }, 'attaching again answers the first attachment');

  const wallet = (await signers.wallet(customer))!;
  depositId = (await chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'depositCount' })) + 1n;
  await run(wallet, [
    call(chain.depositAssertions, depositAssertionsFunctionsAbi, 'assertNextDepositId', [chain.escrow, depositId]),
    call(chain.usdc, usdcFunctionsAbi, 'approve', [chain.escrow, LISTING]),
    call(chain.escrow, escrowFunctionsAbi, 'createDeposit', [chain.usdc, LISTING, { min: 1_000_000n, max: LISTING }, zeroAddress, zeroAddress]),
    call(chain.escrow, escrowFunctionsAbi, 'setPaymentMethod', [depositId, VENMO, PAYEE]),
    call(chain.escrow, escrowFunctionsAbi, 'setCurrencyMinRate', [depositId, VENMO, USD, 10n ** 18n]),
    call(chain.escrow, escrowFunctionsAbi, 'setPrivate', [depositId, true]),
    call(chain.depositAssertions, depositAssertionsFunctionsAbi, 'assertDepositor', [chain.escrow, depositId, customer]),
  ]);
  t.is(customers.signatures, 2, 'the delegation and the batch');
  const deposit = await chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [depositId] });
  t.like(deposit, { depositor: customer, token: chain.usdc, available: LISTING, isPrivate: true });
  t.is(await usdcOf(customer), PAYOUT_SIGNER_TRANSFER_CAP);
  t.is(await chain.publicClient.getBalance({ address: customer }), 0n, 'the sponsor paid the gas');
});

test.serial('the wallet sends exactly 1,000 USDC; 1,000.000001 USDC and a delegation to other code are refused before any key signs', async (t) => {
  const wallet = (await signers.wallet(customer))!;
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const signed = customers.signatures;
  await refused(
    t,
    wallet.signBatch(batchTypedData(customer, chain.chainId, [transfer(recipient, PAYOUT_SIGNER_TRANSFER_CAP + 1n)], 90n, 2n ** 40n)),
    'TRANSFER_ABOVE_CAP',
    0,
  );
  await refused(
    t,
    wallet.signBatch(
      batchTypedData(customer, chain.chainId, [transfer(recipient, 1n), call(chain.usdc, usdcFunctionsAbi, 'approve', [recipient, 1n])], 91n, 2n ** 40n),
    ),
    'ARGUMENT_NOT_ALLOWED',
    1,
  );
  await refused(t, wallet.signBatch(batchTypedData(customer, 1, [transfer(recipient, 1n)], 92n, 2n ** 40n)), 'DOMAIN_NOT_ALLOWED', null);
  await refused(t, wallet.signAuthorization({ contractAddress: chain.escrow, chainId: chain.chainId, nonce: 5 }), 'DELEGATION_NOT_ALLOWED', null);
  t.is(customers.signatures, signed, 'no key was asked to sign');

  await run(wallet, [transfer(recipient, PAYOUT_SIGNER_TRANSFER_CAP)]);
  t.is(await usdcOf(recipient), PAYOUT_SIGNER_TRANSFER_CAP);
  t.is(await usdcOf(customer), 0n);
});

test.serial('after a restart over the same store the signer is still attached, and the wallet withdraws its listing', async (t) => {
  await store.close();
  store = await EmbeddedStore.open({ dataDir });
  const restarted = await LocalPayoutSigners.open({
    customers: new LocalCustomerWallets(localWalletRoot()),
    store,
    targets,
    now: () => '2030-02-01T00:00:00.000Z',
  });
  t.true(await restarted.attached(customer));
  t.deepEqual(await restarted.attach(customer), { attachedAt: ATTACHED_AT });
  const wallet = await restarted.wallet(customer);
  t.is(wallet?.address, customer, 'the restarted stand-in knows the wallet it made before, though its customers answered nothing yet');
  await run(wallet!, [call(chain.escrow, escrowFunctionsAbi, 'withdrawDeposit', [depositId])]);
  t.is(await usdcOf(customer), LISTING);
  t.is(await chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'depositCount' }), depositId);
  await t.throwsAsync(
    chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [depositId] }),
    undefined,
    'the deposit closed',
  );
});
