/**
 * Deploys the local chain's contracts (MockUSDC, the verifier, the escrow, the orchestrator, and
 * the batch executor and deposit assertions of atomic deposit creation),
 * wires them to each other, registers the witness whose attestations release funds and names
 * the gating service whose signatures let intents in. With an intent guardian it also sets up
 * extensions: a token of their own (so no fee ever moves anyone's USDC), a small fee the
 * deployer receives, and the guardian funded for many extensions and approving the orchestrator.
 */
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  maxUint256,
  type Address,
  type Hash,
  type LocalAccount,
  type TransactionReceipt,
  zeroAddress,
} from 'viem';
import {
  batchExecutorAbi,
  batchExecutorBytecode,
  depositAssertionsAbi,
  depositAssertionsBytecode,
  escrowAbi,
  escrowBytecode,
  mockStablecoinAbi,
  mockStablecoinBytecode,
  mockUSDCAbi,
  mockUSDCBytecode,
  orchestratorAbi,
  orchestratorBytecode,
  unifiedPaymentVerifierAbi,
  unifiedPaymentVerifierBytecode,
} from './artifacts/index.js';
import { LOOPBACK_POLLING_MS, rpcChain } from './rpc.js';

/** How long a signalled intent holds its funds before anyone may cancel it. */
export const DEFAULT_INTENT_EXPIRATION_SECONDS = 24n * 60n * 60n;
/** USDC base units: a rest of 0.01 USDC or less left in a deposit after a payment is swept as dust. */
export const LOCAL_DUST_THRESHOLD = 10_000n;
/** What the intent guardian pays per extension on a local chain: 0.01 of the 6-decimal extension token. */
export const LOCAL_EXTENSION_FEE = 10_000n;
/** What the local guardian is minted of the extension token: 100,000 extensions' worth. */
export const LOCAL_EXTENSION_TOKEN_MINTED = 1_000_000_000n;

export interface DeployOptions {
  /** Pays for the deployment and owns the contracts (mints USDC, manages witnesses). */
  deployer: LocalAccount;
  /** The attestation service's signing address. */
  witness: Address;
  /** The key whose EIP-712 signature lets an intent be signalled (gating.ts): the node's. */
  gatingService: Address;
  intentExpirationSeconds?: bigint;
  /** Extends intents (it approves the extension token itself, so its key is needed); unset, no intent can be extended. */
  intentGuardian?: LocalAccount;
  /** Records chargebacks that makers' stakes compensate (docs/chargebacks.md); unset, nobody may. */
  disputeArbiter?: Address;
}

/** Where the protocol lives on a chain: what the indexer watches and the actors call. */
export interface ChainDeployment {
  chainId: number;
  usdc: Address;
  escrow: Address;
  orchestrator: Address;
  verifier: Address;
  /** The code embedded wallets delegate to (EIP-7702) so a sponsor can submit their signed batches. */
  batchExecutor: Address;
  /** The pre and post assertions of an atomic deposit creation. */
  depositAssertions: Address;
  /** The block of the first deployment: nothing of ours happened before it. */
  deployBlock: bigint;
}

export async function deployContracts(rpcUrl: string, options: DeployOptions): Promise<ChainDeployment> {
  const probe = createPublicClient({ transport: http(rpcUrl) });
  const chain = rpcChain(rpcUrl, await probe.getChainId());
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: LOOPBACK_POLLING_MS });
  const wallet = createWalletClient({ account: options.deployer, chain, transport: http(rpcUrl) });
  const owner = options.deployer.address;

  const confirm = async (hash: Hash, what: string): Promise<TransactionReceipt> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${what} reverted (transaction ${hash})`);
    return receipt;
  };
  const deployed = async (name: string, hash: Hash): Promise<Deployed> => {
    const receipt = await confirm(hash, `deploying ${name}`);
    if (receipt.contractAddress == null) throw new Error(`deploying ${name} created no contract`);
    return { address: getAddress(receipt.contractAddress), blockNumber: receipt.blockNumber };
  };

  const usdc = await deployed('MockUSDC', await wallet.deployContract({ abi: mockUSDCAbi, bytecode: mockUSDCBytecode, args: [owner] }));
  const verifier = await deployed(
    'UnifiedPaymentVerifier',
    await wallet.deployContract({ abi: unifiedPaymentVerifierAbi, bytecode: unifiedPaymentVerifierBytecode, args: [owner] }),
  );
  const escrow = await deployed('Escrow', await wallet.deployContract({ abi: escrowAbi, bytecode: escrowBytecode, args: [owner] }));
  const orchestrator = await deployed(
    'Orchestrator',
    await wallet.deployContract({
      abi: orchestratorAbi,
      bytecode: orchestratorBytecode,
      args: [owner, escrow.address, verifier.address, options.intentExpirationSeconds ?? DEFAULT_INTENT_EXPIRATION_SECONDS, options.gatingService],
    }),
  );

  const batchExecutor = await deployed('BatchExecutor', await wallet.deployContract({ abi: batchExecutorAbi, bytecode: batchExecutorBytecode }));
  const depositAssertions = await deployed(
    'DepositAssertions',
    await wallet.deployContract({ abi: depositAssertionsAbi, bytecode: depositAssertionsBytecode }),
  );

  await confirm(
    await wallet.writeContract({
      address: escrow.address,
      abi: escrowAbi,
      functionName: 'setOrchestrator',
      args: [orchestrator.address],
    }),
    'Escrow.setOrchestrator',
  );
  // The protocol's escrow sweeps rests too small for any intent; the local chain sweeps up to 0.01 USDC to its owner.
  await confirm(
    await wallet.writeContract({ address: escrow.address, abi: escrowAbi, functionName: 'setDust', args: [LOCAL_DUST_THRESHOLD, owner] }),
    'Escrow.setDust',
  );
  // Makers stake USDC behind their deposits; compensation goes to the owner, who makes the reversed payment good.
  await confirm(
    await wallet.writeContract({
      address: escrow.address,
      abi: escrowAbi,
      functionName: 'setChargebackSettings',
      args: [usdc.address, options.disputeArbiter ?? zeroAddress, owner],
    }),
    'Escrow.setChargebackSettings',
  );
  await confirm(
    await wallet.writeContract({
      address: verifier.address,
      abi: unifiedPaymentVerifierAbi,
      functionName: 'setOrchestrator',
      args: [orchestrator.address],
    }),
    'UnifiedPaymentVerifier.setOrchestrator',
  );
  await confirm(
    await wallet.writeContract({
      address: verifier.address,
      abi: unifiedPaymentVerifierAbi,
      functionName: 'setWitness',
      args: [options.witness, true],
    }),
    'UnifiedPaymentVerifier.setWitness',
  );
  if (options.intentGuardian) {
    const guardian = options.intentGuardian;
    const token = await deployed(
      'MockStablecoin (extension token)',
      await wallet.deployContract({ abi: mockStablecoinAbi, bytecode: mockStablecoinBytecode, args: ['Local Intent Extension Token', 'LIXT', 6, owner] }),
    );
    await confirm(
      await wallet.writeContract({ address: orchestrator.address, abi: orchestratorAbi, functionName: 'setIntentGuardian', args: [guardian.address] }),
      'Orchestrator.setIntentGuardian',
    );
    await confirm(
      await wallet.writeContract({
        address: orchestrator.address,
        abi: orchestratorAbi,
        functionName: 'setExtensionFee',
        args: [token.address, LOCAL_EXTENSION_FEE, owner],
      }),
      'Orchestrator.setExtensionFee',
    );
    await confirm(
      await wallet.writeContract({
        address: token.address,
        abi: mockStablecoinAbi,
        functionName: 'mint',
        args: [guardian.address, LOCAL_EXTENSION_TOKEN_MINTED],
      }),
      'the extension token mint',
    );
    const guardianWallet = createWalletClient({ account: guardian, chain, transport: http(rpcUrl) });
    await confirm(
      await guardianWallet.writeContract({ address: token.address, abi: mockStablecoinAbi, functionName: 'approve', args: [orchestrator.address, maxUint256] }),
      "the guardian's approval of the extension token",
    );
  }

  return {
    chainId: chain.id,
    usdc: usdc.address,
    escrow: escrow.address,
    orchestrator: orchestrator.address,
    verifier: verifier.address,
    batchExecutor: batchExecutor.address,
    depositAssertions: depositAssertions.address,
    deployBlock: usdc.blockNumber,
  };
}

interface Deployed {
  address: Address;
  blockNumber: bigint;
}
