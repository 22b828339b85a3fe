/**
 * The simulator's hands on the local chain: it reads the token transfers that arrive, pays
 * conversions and refunds out of its solver's inventory (a dev account it mints USDC to, as
 * a solver holds inventory on the destination chain), and sends as the local customer's
 * wallet when the buyer API is asked to. Sends of one wallet are queued: a wallet's nonces
 * must go out in order.
 */
import { erc20Abi, parseEventLogs, type Hash, type LocalAccount } from 'viem';
import { anvilTestAccount, type LocalChain } from '../../indexer/chain/index.js';
import type { Payout, SimToken } from './conversion-requests.js';

/** The solver's wallet on the local chain: anvil dev account 9. */
export const LOCAL_SOLVER_INDEX = 9;
/** The local customer's wallet the buyer API sends from: anvil dev account 5. */
export const LOCAL_CUSTOMER_INDEX = 5;
/** What the solver starts with, and is topped up to when short: 10 million USDC. */
const SOLVER_FLOAT = 10_000_000_000_000n;

export interface ArrivedTransfer {
  token: `0x${string}`;
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
    if (balance < SOLVER_FLOAT) await this.chain.mintUsdc(this.solver.address, SOLVER_FLOAT - balance);
  }

  async latestBlock(): Promise<bigint> {
    return this.chain.publicClient.getBlockNumber();
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
    }));
  }

  /** Pays each payout in its own transfer, in order, and answers their hashes once mined. */
  async pay(token: SimToken, payouts: readonly Payout[]): Promise<Hash[]> {
    const hashes: Hash[] = [];
    for (const payout of payouts) hashes.push(await this.#send(this.solver, token, payout.to, payout.amount));
    return hashes;
  }

  /** The local customer pays `amount` of `token` to `to`, minted to it first: a stand-in for a customer's own wallet. */
  async customerSend(token: SimToken, to: `0x${string}`, amount: bigint): Promise<Hash> {
    if (token.address.toLowerCase() === this.chain.usdc.toLowerCase()) await this.chain.mintUsdc(this.customer.address, amount);
    return this.#send(this.customer, token, to, amount);
  }

  #send(from: LocalAccount, token: SimToken, to: `0x${string}`, amount: bigint): Promise<Hash> {
    const previous = this.#queues.get(from.address) ?? Promise.resolve();
    const sent = previous
      .catch(() => {})
      .then(async () => {
        const hash = await this.chain.walletFor(from).writeContract({ address: token.address, abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
        await this.chain.confirm(hash);
        return hash;
      });
    this.#queues.set(from.address, sent);
    return sent;
  }
}
