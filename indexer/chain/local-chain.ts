/**
 * A local chain for the embedded node and the tests: anvil on loopback with our contracts
 * deployed by anvil's dev account 0, plus the few helpers a test needs to act on it.
 */
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
import { mockUSDCAbi } from './artifacts/index.js';
import { deployContracts, type ChainDeployment } from './deploy.js';
import { LOCAL_DEPLOYER_INDEX, LOCAL_GATING_SERVICE_INDEX, LOCAL_WITNESS_INDEX, anvilTestAccount } from './dev-accounts.js';
import { LOOPBACK_POLLING_MS, rpcChain } from './rpc.js';

export interface LocalChainOptions extends AnvilOptions {
  /** The attestation service's signing address; default anvil dev account 1. */
  witness?: Address;
  /** The gating service's signing address; default anvil dev account 6 (LOCAL_GATING_SERVICE_INDEX). */
  gatingService?: Address;
  intentExpirationSeconds?: bigint;
}

export interface LocalChain extends ChainDeployment {
  rpcUrl: string;
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  /** anvil's own methods: move time, mine blocks. */
  testClient: TestClient<'anvil', Transport, Chain>;
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
  const anvil = await startAnvil(options);
  try {
    const deployer = anvilTestAccount(LOCAL_DEPLOYER_INDEX);
    const deployment = await deployContracts(anvil.rpcUrl, {
      deployer,
      witness: options.witness ?? anvilTestAccount(LOCAL_WITNESS_INDEX).address,
      gatingService: options.gatingService ?? anvilTestAccount(LOCAL_GATING_SERVICE_INDEX).address,
      ...(options.intentExpirationSeconds === undefined ? {} : { intentExpirationSeconds: options.intentExpirationSeconds }),
    });
    const chain = rpcChain(anvil.rpcUrl, anvil.chainId);
    const transport = http(anvil.rpcUrl);
    const publicClient = createPublicClient({ chain, transport, pollingInterval: LOOPBACK_POLLING_MS });
    const testClient = createTestClient({ mode: 'anvil', chain, transport });
    const walletFor = (account: LocalAccount): WalletClient<Transport, Chain, LocalAccount> =>
      createWalletClient({ account, chain, transport });
    const confirm = async (hash: Hash): Promise<TransactionReceipt> => {
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
      return receipt;
    };
    return {
      ...deployment,
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
