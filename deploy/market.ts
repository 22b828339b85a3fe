/**
 * The node's market side (document 3): the public orderbook over the liquidity book, with
 * the attestation service's seller credentials for automated release. Its deposits are
 * reported under the catalog's identity of the chain they are on: Base and its USDC for a
 * local chain, which stands in for Base as it does for payments.
 */
import type { Logger } from 'pino';
import type { Clock, Config } from '../actors/index.js';
import { makerRecordsByPayee, type LiquidityBook } from '../actors/market/index.js';
import type { RateSource } from '../actors/adapters/rates/rate-source.js';
import type { ActorSystem } from '../actors/runtime/actor-system.js';
import { Orderbook } from '../gateway/market/orderbook.js';
import type { EnclaveClient } from '../actors/adapters/enclave/index.js';
import type { SellerCredential } from '../machines/market/orderbook-rows.js';
import { BASE_CHAIN_ID, chainById, findToken } from '../machines/catalog/index.js';
import { orchestratorAbi } from '../indexer/chain/index.js';
import type { IndexedChain } from './chain.js';

export interface MarketSideOptions {
  config: Config;
  chain: IndexedChain;
  liquidity: LiquidityBook;
  rates: RateSource;
  clock: Clock;
  logger: Logger;
  /** Where the makers' seller credentials are kept; without it no row's automated release is available. */
  enclave: EnclaveClient | null;
  system: ActorSystem;
}

export async function orderbookOf(options: MarketSideOptions): Promise<Orderbook> {
  const { config, chain } = options;
  const { contracts, client } = chain;
  const chainId = chain.localChain ? Number(BASE_CHAIN_ID) : contracts.chainId;
  const catalogChain = chainById(String(chainId));
  const token = (catalogChain && findToken(catalogChain, 'USDC')?.address) ?? contracts.usdc;
  const feeBps = Number(await client.readContract({ address: contracts.orchestrator, abi: orchestratorAbi, functionName: 'protocolFeeBps' }));
  return new Orderbook(
    {
      liquidity: options.liquidity,
      rates: options.rates,
      sellerCredentials: () => sellerCredentials(options),
      makers: () => makerRecordsByPayee(options.system),
      now: () => options.clock.now(),
      logger: options.logger,
    },
    {
      chainId,
      token,
      escrow: contracts.escrow,
      feeBps,
      cacheMs: config.ORDERBOOK_CACHE_MS,
      thresholds: { dustUsdc: config.ORDERBOOK_DUST_USDC, extremeSpreadBps: BigInt(config.ORDERBOOK_EXTREME_SPREAD_BPS) },
    },
  );
}

/** The attestation service's active credentials; none while it cannot be asked, since no release could happen then either. */
async function sellerCredentials({ enclave, logger }: MarketSideOptions): Promise<ReadonlyMap<string, SellerCredential>> {
  if (!enclave) return new Map();
  try {
    return await enclave.sellerCredentials();
  } catch (error) {
    logger.warn({ err: error }, 'the attestation service did not list its seller credentials: no automated release is shown available');
    return new Map();
  }
}
