/**
 * The simulator's hands on the local chain: it reads the token and native transfers that
 * arrive, pays conversions and refunds out of its solver's inventory (a dev account it mints
 * USDC to, as a solver holds inventory on the destination chain; it deploys and owns the
 * stand-ins of other stablecoins, and holds native ETH), and sends as the local customer's
 * wallet when the buyer or wallet API is asked to. Sends of one wallet are queued: a wallet's
 * nonces must go out in order.
 */
import { erc20Abi, getAddress, parseEther, parseEventLogs, type Chain, type Hash, type LocalAccount, type Transport, type WalletClient } from 'viem';
import { anvilTestAccount, mockStablecoinAbi, mockStablecoinBytecode, mockUSDCAbi, type LocalChain } from '../../indexer/chain/index.js';
import type { Payout, SimToken } from './conversion-requests.js';

/** The solver's wallet on the local chain: anvil dev account 9. */
export const LOCAL_SOLVER_INDEX = 9;
/** The local customer's wallet the buyer API sends from: anvil dev account 5. */
export const LOCAL_CUSTOMER_INDEX = 5;
/** What the solver starts with, and is topped up to when short: 10 million USDC. */
const SOLVER_FLOAT = 10_000_000_000_000n;
/** Whole tokens the solver mints itself of each stand-in it deploys, to refund from. */
const STAND_IN_FLOAT = 10_000_000n;
/** Native ETH a wallet keeps beyond what it sends, for gas; below it anvil tops the wallet up. */
const NATIVE_RESERVE = parseEther('1');
const NATIVE_TOP_UP = parseEther('1000');

export interface ArrivedTransfer {
  token: `0x${string}`;
  from: `0x${string}`;
  to: `0x${string}`;
  value: bigint;
  transactionHash: Hash;
  logIndex: number;
}

/** A transaction that moved native ETH to an address. */
export interface ArrivedNative {
  from: `0x${string}`;
  to: `0x${string}`;
  value: bigint;
  transactionHash: Hash;
}

export class LocalSettlement {
  readonly solver: LocalAccount = anvilTestAccount(LOCAL_SOLVER_INDEX);
  readonly customer: LocalAccount = anvilTestAccount(LOCAL_CUSTOMER_INDEX);
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(readonly chain: LocalChain) {}

  /** Tops the solver up to its float: a kept local chain continues with what it had. */
  async start(): Promise<void> {
    const balance = await this.chain.publicClient.readContract({
      address: this.chain.usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [this.solver.address],
    });
    if (balance < SOLVER_FLOAT) await this.#mintUsdc(this.solver.address, SOLVER_FLOAT - balance);
  }

  /** Read afresh: viem caches the block number for a polling interval, and payOnce must see the blocks its transfers were mined in. */
  async latestBlock(): Promise<bigint> {
    return this.chain.publicClient.getBlockNumber({ cacheTime: 0 });
  }

  /** Every transfer of `tokens` mined in the blocks given. */
  async transfers(tokens: readonly `0x${string}`[], fromBlock: bigint, toBlock: bigint): Promise<ArrivedTransfer[]> {
    const logs = await this.chain.publicClient.getLogs({ address: [...tokens], fromBlock, toBlock });
    return parseEventLogs({ abi: erc20Abi, logs, eventName: 'Transfer' }).map((log) => ({
      token: log.address,
      from: log.args.from,
      to: log.args.to,
      value: log.args.value,
      transactionHash: log.transactionHash,
      logIndex: log.logIndex,
    }));
  }

  /** Every transaction that sent native ETH to an address in the blocks given, read block by block. */
  async nativeTransfers(fromBlock: bigint, toBlock: bigint): Promise<ArrivedNative[]> {
    const arrived: ArrivedNative[] = [];
    for (let number = fromBlock; number <= toBlock; number++) {
      const block = await this.chain.publicClient.getBlock({ blockNumber: number, includeTransactions: true });
      for (const transaction of block.transactions) {
        if (transaction.to && transaction.value > 0n)
          arrived.push({ from: transaction.from, to: transaction.to, value: transaction.value, transactionHash: transaction.hash });
      }
    }
    return arrived;
  }

  /** Pays each payout in its own transfer, in order, and answers their hashes once mined. */
  async pay(token: SimToken, payouts: readonly Payout[]): Promise<Hash[]> {
    return this.payOnce(token, payouts, null);
  }

  /**
   * Pays what the solver has not paid yet since block `since`: a payout that a transfer of
   * the solver's from that block already matches (recipient and amount, each transfer
   * matching once) answers that transfer's hash instead of paying again. A conversion killed
   * between its transfers and its record is finished, not paid twice.
   */
  async payOnce(token: SimToken, payouts: readonly Payout[], since: bigint | null): Promise<Hash[]> {
    const latest = since === null ? null : await this.latestBlock();
    const paid =
      since === null || latest === null || latest < since
        ? []
        : (await this.transfers([token.address], since, latest)).filter((transfer) => same(transfer.from, this.solver.address));
    const hashes: Hash[] = [];
    for (const payout of payouts) {
      const done = paid.findIndex((transfer) => same(transfer.to, payout.to) && transfer.value === payout.amount);
      if (done >= 0) hashes.push(paid.splice(done, 1)[0]!.transactionHash);
      else hashes.push(await this.#send(this.solver, token, payout.to, payout.amount));
    }
    return hashes;
  }

  /** Refunds native ETH from the solver, topped up by anvil when short. */
  async payNative(to: `0x${string}`, amount: bigint): Promise<Hash> {
    return this.#queued(this.solver, async (wallet) => {
      await this.#topUpNative(this.solver.address, amount);
      return wallet.sendTransaction({ to, value: amount });
    });
  }

  /**
   * Deploys a stand-in for another stablecoin, owned by the solver, and mints the solver a
   * float of it to refund from.
   */
  async deployStandIn(name: string, symbol: string, decimals: number): Promise<SimToken> {
    const hash = await this.#queued(this.solver, (wallet) =>
      wallet.deployContract({ abi: mockStablecoinAbi, bytecode: mockStablecoinBytecode, args: [name, symbol, decimals, this.solver.address] }),
    );
    const { contractAddress } = await this.chain.publicClient.getTransactionReceipt({ hash });
    if (!contractAddress) throw new Error(`deploying the ${symbol} stand-in created no contract`);
    const token: SimToken = { symbol, address: getAddress(contractAddress), decimals };
    await this.#mintStandIn(token, this.solver.address, STAND_IN_FLOAT * 10n ** BigInt(decimals));
    return token;
  }

  /** The local customer pays `amount` of `token` (USDC or a stand-in) to `to`, minted to it first: a stand-in for a customer's own wallet. */
  async customerSend(token: SimToken, to: `0x${string}`, amount: bigint): Promise<Hash> {
    if (token.address.toLowerCase() === this.chain.usdc.toLowerCase()) await this.#mintUsdc(this.customer.address, amount);
    else await this.#mintStandIn(token, this.customer.address, amount);
    return this.#send(this.customer, token, to, amount);
  }

  /** The local customer sends native ETH, topped up by anvil first when short. */
  async customerSendNative(to: `0x${string}`, amount: bigint): Promise<Hash> {
    return this.#queued(this.customer, async (wallet) => {
      await this.#topUpNative(this.customer.address, amount);
      return wallet.sendTransaction({ to, value: amount });
    });
  }

  /** Mints as the deployer, USDC's owner, in the deployer's queue: two mints side by side would take one nonce. */
  #mintUsdc(to: `0x${string}`, amount: bigint): Promise<Hash> {
    return this.#queued(this.chain.deployer, (wallet) =>
      wallet.writeContract({ address: this.chain.usdc, abi: mockUSDCAbi, functionName: 'mint', args: [to, amount] }),
    );
  }

  #mintStandIn(token: SimToken, to: `0x${string}`, amount: bigint): Promise<Hash> {
    return this.#queued(this.solver, (wallet) =>
      wallet.writeContract({ address: token.address, abi: mockStablecoinAbi, functionName: 'mint', args: [to, amount] }),
    );
  }

  async #topUpNative(address: `0x${string}`, amount: bigint): Promise<void> {
    const balance = await this.chain.publicClient.getBalance({ address });
    if (balance < amount + NATIVE_RESERVE) await this.chain.testClient.setBalance({ address, value: balance + amount + NATIVE_TOP_UP });
  }

  #send(from: LocalAccount, token: SimToken, to: `0x${string}`, amount: bigint): Promise<Hash> {
    return this.#queued(from, (wallet) => wallet.writeContract({ address: token.address, abi: erc20Abi, functionName: 'transfer', args: [to, amount] }));
  }

  /** Runs `write` after the wallet's earlier sends, and answers its transaction once mined. */
  #queued(from: LocalAccount, write: (wallet: WalletClient<Transport, Chain, LocalAccount>) => Promise<Hash>): Promise<Hash> {
    const previous = this.#queues.get(from.address) ?? Promise.resolve();
    const sent = previous
      .catch(() => {})
      .then(async () => {
        const hash = await write(this.chain.walletFor(from));
        await this.chain.confirm(hash);
        return hash;
      });
    this.#queues.set(from.address, sent);
    return sent;
  }
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
