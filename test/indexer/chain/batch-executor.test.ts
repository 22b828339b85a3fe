import test from 'ava';
import { readFileSync } from 'node:fs';
import { decodeErrorResult, encodeFunctionData, keccak256, toHex, encodeAbiParameters, hexToBigInt, type Hex, type LocalAccount } from 'viem';
import { revertDataOf } from '../../../actors/relayer/revert-reason.js';
import { batchTypedData, executeData, type BatchCall } from '../../../machines/index.js';
import { anvilTestAccount, batchExecutorAbi, localEmbeddedAccount, mockUSDCAbi, startLocalChain, type LocalChain } from '../../../indexer/chain/index.js';

let local: LocalChain;
const wallet = localEmbeddedAccount(4);
const sponsor = anvilTestAccount(9);

test.before(async () => {
  local = await startLocalChain();
  // Delegate once, with an empty batch, so the checks below meet the executor's code at the wallet.
  const authorization = await wallet.signAuthorization!({ contractAddress: local.batchExecutor, chainId: local.chainId, nonce: 0 });
  const hash = await local
    .walletFor(sponsor)
    .sendTransaction({ to: wallet.address, data: await signedExecute([], 1n, await deadline(), wallet), authorizationList: [authorization] });
  await local.confirm(hash);
});
test.after.always(() => local?.stop());

async function deadline(offset = 3600n): Promise<bigint> {
  return (await local.publicClient.getBlock()).timestamp + offset;
}

async function signedExecute(calls: BatchCall[], nonce: bigint, until: bigint, signer: LocalAccount): Promise<Hex> {
  return executeData(calls, nonce, until, await signer.signTypedData(batchTypedData(wallet.address, local.chainId, calls, nonce, until)));
}

/** The executor's error a call of `data` at the wallet reverts with, or null when it runs. */
async function revertOf(data: Hex): Promise<string | null> {
  try {
    await local.publicClient.call({ account: sponsor.address, to: wallet.address, data });
    return null;
  } catch (error) {
    const raw = revertDataOf(error);
    if (!raw) throw error;
    return decodeErrorResult({ abi: batchExecutorAbi, data: raw }).errorName;
  }
}

test('the executor’s storage lives at the ERC-7201 location of its namespace', (t) => {
  const location = hexToBigInt(keccak256(encodeAbiParameters([{ type: 'uint256' }], [hexToBigInt(keccak256(toHex('peer.BatchExecutor'))) - 1n]))) & ~0xffn;
  const source = readFileSync(new URL('../../../indexer/chain/contracts/BatchExecutor.sol', import.meta.url), 'utf8');
  t.true(source.includes(`STORAGE_LOCATION = 0x${location.toString(16).padStart(64, '0')};`));
});

test('a batch the wallet signed runs as the wallet; signed by anyone else, replayed or expired, it reverts', async (t) => {
  const calls: BatchCall[] = [
    { target: local.usdc, value: 0n, data: encodeFunctionData({ abi: mockUSDCAbi, functionName: 'approve', args: [sponsor.address, 5n] }) },
  ];
  const forged = await signedExecute(calls, 2n, await deadline(), anvilTestAccount(5));
  t.is(await revertOf(forged), 'NotSignedByAccount', 'a signature of another key');

  const expired = await signedExecute(calls, 3n, (await deadline(0n)) - 1n, wallet);
  t.is(await revertOf(expired), 'BatchExpired', 'past its deadline');

  const good = await signedExecute(calls, 4n, await deadline(), wallet);
  t.is(await revertOf(good), null, 'signed by the wallet, in time');
  await local.confirm(await local.walletFor(sponsor).sendTransaction({ to: wallet.address, data: good }));
  t.is(
    await local.publicClient.readContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'allowance', args: [wallet.address, sponsor.address] }),
    5n,
    'the call ran as the wallet',
  );
  t.is(await revertOf(good), 'NonceUsed', 'the same batch again: its nonce is spent');
  t.true(await local.publicClient.readContract({ address: wallet.address, abi: batchExecutorAbi, functionName: 'nonceUsed', args: [4n] }));
});
