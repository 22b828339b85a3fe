/**
 * A local chain for the embedded node and the tests: anvil on loopback with our contracts
 * deployed by anvil's dev account 0, plus the few helpers a test needs to act on it. Kept in
 * a folder (`keptIn`), it is continued by the next start instead of deployed anew.
 */
import { mkdir } from 'node:fs/promises';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  type Address,
  type Chain,
  type Hash,
  type LocalAccount,
  type PublicClient,
  type TestClient,
  type Transport,
  type TransactionReceipt,
  type WalletClient,
} from 'viem';
import { startAnvil, type AnvilOptions } from './anvil.js';
import { mockUSDCAbi, unifiedPaymentVerifierAbi } from './artifacts/index.js';
import { deployContracts, type ChainDeployment } from './deploy.js';
import { keepDeployment, keptChainFiles, keptDeployment } from './kept-chain.js';
import {
  LOCAL_DEPLOYER_INDEX,
  LOCAL_GATING_SERVICE_INDEX,
  LOCAL_INTENT_GUARDIAN_INDEX,
  LOCAL_RELAYER_INDEX,
  LOCAL_WITNESS_INDEX,
  anvilTestAccount,
} from './dev-accounts.js';
import { LOOPBACK_POLLING_MS, rpcChain } from './rpc.js';

export interface LocalChainOptions extends AnvilOptions {
  /** The attestation service's signing address; default anvil dev account 1. */
  witness?: Address;
  /** The gating service's signing address; default anvil dev account 6 (LOCAL_GATING_SERVICE_INDEX). */
  gatingService?: Address;
  intentExpirationSeconds?: bigint;
  /**
   * Extends intents: anvil dev account 7 (LOCAL_INTENT_GUARDIAN_INDEX, the relayer's) by default;
   * null deploys without one, as a chain from before extensions was.
   */
  intentGuardian?: LocalAccount | null;
  /** A folder the chain is kept in between runs (kept-chain.ts); unset, it lives as long as anvil. */
  keptIn?: string;
}

export interface LocalChain extends ChainDeployment {
  rpcUrl: string;
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  /** anvil's own methods: move time, mine blocks. */
  testClient: TestClient<'anvil', Transport, Chain>;
  /** Whether this run continued a chain kept by an earlier one, rather than deploying a fresh one. */
  restored: boolean;
  /** The deployer: owns the contracts. */
  deployer: LocalAccount;
  walletFor(account: LocalAccount): WalletClient<Transport, Chain, LocalAccount>;
  /** Waits for a transaction and throws unless it succeeded. */
  confirm(hash: Hash): Promise<TransactionReceipt>;
  /** Mints USDC base units to `to`, as the owner. */
  mintUsdc(to: Address, amount: bigint): Promise<TransactionReceipt>;
  /** Moves the chain's clock forward and mines a block stamped with the new time. */
  advanceTime(seconds: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalChain(options: LocalChainOptions = {}): Promise<LocalChain> {
  const files = options.keptIn === undefined ? null : keptChainFiles(options.keptIn);
  const kept = files ? await keptDeployment(files) : null;
  if (files) await mkdir(files.folder, { recursive: true });
  const anvil = await startAnvil({ ...options, ...(files ? { stateFile: files.state } : {}) });
  try {
    const deployer = anvilTestAccount(LOCAL_DEPLOYER_INDEX);
    const witness = options.witness ?? anvilTestAccount(LOCAL_WITNESS_INDEX).address;
    const chain = rpcChain(anvil.rpcUrl, anvil.chainId);
    const transport = http(anvil.rpcUrl);
    const publicClient = createPublicClient({ chain, transport, pollingInterval: LOOPBACK_POLLING_MS });
    const testClient = createTestClient({ mode: 'anvil', chain, transport });
    const walletFor = (account: LocalAccount): WalletClient<Transport, Chain, LocalAccount> => createWalletClient({ account, chain, transport });
    const confirm = async (hash: Hash): Promise<TransactionReceipt> => {
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
      return receipt;
    };
    let deployment: ChainDeployment;
    if (kept) {
      deployment = kept;
      if (kept.chainId !== anvil.chainId) throw new Error(`${files!.deployment} is of chain ${kept.chainId}, not ${anvil.chainId}`);
      if (!(await publicClient.getCode({ address: kept.escrow })))
        throw new Error(`the chain kept in ${files!.state} has no escrow at ${kept.escrow}, where ${files!.deployment} says it is`);
      // The attestation service may sign with a new key this run (its key lives only as long as its process unless wrapped).
      const registered = await publicClient.readContract({
        address: kept.verifier,
        abi: unifiedPaymentVerifierAbi,
        functionName: 'isWitness',
        args: [witness],
      });
      if (!registered) {
        await confirm(
          await walletFor(deployer).writeContract({
            address: kept.verifier,
            abi: unifiedPaymentVerifierAbi,
            functionName: 'setWitness',
            args: [witness, true],
          }),
        );
      }
    } else {
      deployment = await deployContracts(anvil.rpcUrl, {
        deployer,
        witness,
        gatingService: options.gatingService ?? anvilTestAccount(LOCAL_GATING_SERVICE_INDEX).address,
        ...(options.intentExpirationSeconds === undefined ? {} : { intentExpirationSeconds: options.intentExpirationSeconds }),
        ...(options.intentGuardian === null ? {} : { intentGuardian: options.intentGuardian ?? anvilTestAccount(LOCAL_INTENT_GUARDIAN_INDEX) }),
        // The node's relayer is the local dispute arbiter: the staff trigger sends through it (docs/chargebacks.md).
        disputeArbiter: anvilTestAccount(LOCAL_RELAYER_INDEX).address,
      });
      if (files) await keepDeployment(files, deployment);
    }
    return {
      ...deployment,
      restored: kept !== null,
      rpcUrl: anvil.rpcUrl,
      chain,
      publicClient,
      testClient,
      deployer,
      walletFor,
      confirm,
      mintUsdc: async (to, amount) =>
        confirm(
          await walletFor(deployer).writeContract({
            address: deployment.usdc,
            abi: mockUSDCAbi,
            functionName: 'mint',
            args: [to, amount],
          }),
        ),
      advanceTime: async (seconds) => {
        await testClient.increaseTime({ seconds });
        await testClient.mine({ blocks: 1 });
      },
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
