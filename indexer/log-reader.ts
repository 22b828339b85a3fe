/**
 * How the follower reads a range of the chain's logs. The protocol's contracts are read by
 * address and USDC transfers by the watched addresses in their topics, so a busy token
 * never floods a range or trips a provider's result cap. A range a provider refuses for
 * its size is read again in halves. And a range answered by a backend behind the chain,
 * which returns no logs for blocks it lacks while the hashes came from another backend,
 * is caught before anything of it is taken.
 */
import type { Logger } from 'pino';
import type { Address, Block, Log, PublicClient } from 'viem';
import { transferEvent } from './events.js';
import type { ChainContracts } from './chain-contracts.js';
import { bloomMayContain } from './logs-bloom.js';
import { isRangeRefusal } from './range-refusal.js';

/** Most addresses one log query names in a topic: providers bound a filter's size. */
const ADDRESSES_PER_QUERY = 100;
/** How far under the head a range's blocks are checked against their blooms: deeper blocks every backend has. */
const VERIFY_DEPTH = 64;

/** The RPC answered a range from a backend that has not reached its end: nothing may be taken from it. */
export class LaggingBackendError extends Error {
  override readonly name = 'LaggingBackendError';
}

export class LogReader {
  constructor(
    private readonly client: PublicClient,
    private readonly contracts: ChainContracts,
    private readonly logger: Logger,
  ) {}

  /** The protocol's logs and the watched addresses' transfers from block `from` to `to`. */
  async range(from: number, to: number, watched: readonly Address[]): Promise<Log[]> {
    const { client, contracts } = this;
    const [protocol, transfers] = await Promise.all([
      this.#inPieces(from, to, (range) => client.getLogs({ address: [contracts.escrow, contracts.orchestrator], ...range })),
      this.transfersOf(watched, from, to),
    ]);
    return [...protocol, ...transfers];
  }

  /**
   * The USDC transfers from or to `addresses` in the range, chosen by the RPC through the
   * Transfer topics. A transfer between two of them comes twice; the follower keeps one.
   */
  async transfersOf(addresses: readonly Address[], from: number, to: number): Promise<Log[]> {
    const { client, contracts } = this;
    const logs: Log[] = [];
    for (let i = 0; i < addresses.length; i += ADDRESSES_PER_QUERY) {
      const group = addresses.slice(i, i + ADDRESSES_PER_QUERY);
      const [sent, received] = await Promise.all([
        this.#inPieces(from, to, (range) => client.getLogs({ address: contracts.usdc, event: transferEvent[0], args: { from: group }, ...range })),
        this.#inPieces(from, to, (range) => client.getLogs({ address: contracts.usdc, event: transferEvent[0], args: { to: group }, ...range })),
      ]);
      logs.push(...sent, ...received);
    }
    return logs;
  }

  /**
   * For each block of the range within VERIFY_DEPTH of `head` whose logs bloom may hold a
   * log of the escrow or the orchestrator and for which the range returned none, asks for
   * the block's logs by its hash (EIP-234), which a backend without the block refuses
   * rather than answers empty. Logs there mean the range answer was short: throws
   * LaggingBackendError, and the follower takes nothing of it.
   */
  async checkAgainstBlooms(from: number, last: Block, logs: Log[], head: number): Promise<void> {
    const { client, contracts } = this;
    const to = Number(last.number);
    const protocol = [contracts.escrow, contracts.orchestrator];
    const ours = new Set(protocol.map((address) => address.toLowerCase()));
    const returned = new Set(logs.filter((log) => ours.has(log.address.toLowerCase())).map((log) => Number(log.blockNumber)));
    for (let number = Math.max(from, head - VERIFY_DEPTH + 1); number <= to; number++) {
      if (returned.has(number)) continue;
      const block = number === to ? last : await client.getBlock({ blockNumber: BigInt(number) });
      if (!protocol.some((address) => bloomMayContain(block.logsBloom!, address))) continue;
      const held = await client.getLogs({ blockHash: block.hash!, address: protocol });
      if (held.length > 0) {
        throw new LaggingBackendError(
          `the range up to block ${to} came back without the ${held.length} protocol logs of block ${number}: an RPC backend behind the chain answered it`,
        );
      }
    }
  }

  /** Runs `query` over blocks `from` to `to`; a range the provider refuses for its size is read in halves, down to single blocks. */
  async #inPieces<T>(from: number, to: number, query: (range: { fromBlock: bigint; toBlock: bigint }) => Promise<T[]>): Promise<T[]> {
    try {
      return await query({ fromBlock: BigInt(from), toBlock: BigInt(to) });
    } catch (error) {
      if (from >= to || !isRangeRefusal(error)) throw error;
      const middle = Math.floor((from + to) / 2);
      this.logger.debug({ from, to }, 'provider refused the range; reading it in halves');
      return [...(await this.#inPieces(from, middle, query)), ...(await this.#inPieces(middle + 1, to, query))];
    }
  }
}
