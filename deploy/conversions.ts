/**
 * The crypto rails, payout funding and crypto payouts' bridges of a node, by configuration: the conversion provider at
 * CONVERSION_PROVIDER_URL (with CONVERSION_PROVIDER_KEY when set), or, on the local chain, the
 * local simulator the node starts; and the reader that checks each delivery on the settlement
 * chain before a payment settles on it. A node with neither takes no live crypto attempt (its
 * sandbox still does) and funds no payout.
 */
import { erc20Abi, parseEventLogs, type Hash, type PublicClient } from 'viem';
import type { Logger } from 'pino';
import type { Clock, Config, Store } from '../actors/index.js';
import { HttpConversionProvider } from '../actors/adapters/conversion/http-conversion-provider.js';
import { HttpFundingProvider } from '../actors/adapters/conversion/http-funding-provider.js';
import { HttpPayoutBridge } from '../actors/adapters/conversion/http-payout-bridge.js';
import type { PayoutBridgeProvider } from '../actors/adapters/conversion/payout-bridge.js';
import type { FundingProvider } from '../actors/adapters/conversion/funding-provider.js';
import { DeliveryClaims, type ConversionProvider, type Delivery, type DeliveryReader } from '../actors/payments/index.js';
import type { PaymentChain, PaymentHex as Hex } from '../machines/payment/index.js';
import { ConversionSimulator } from './conversion-simulator/index.js';
import type { IndexedChain } from './chain.js';

export interface ConversionSide {
  provider: ConversionProvider | null;
  /** Where payouts get their deposit addresses: the same provider's funding side. */
  funding: FundingProvider | null;
  /** How crypto payouts leave Base for other networks and tokens; null without a provider or a chain. */
  bridges: PayoutBridgeProvider | null;
  /** The settlement chain's USDC, what deliveries are made in; null without a chain. */
  usdc: Hex | null;
  /** The local simulator, when the node runs it: the node points its `activityUrl` at the gateway once that listens. */
  simulator: ConversionSimulator | null;
  /** Which payment each delivery settled, so one delivery never settles two. */
  claims: DeliveryClaims;
  stop(): Promise<void>;
}

/**
 * `keptIn` is the kept local chain's folder: the local simulator keeps its requests there, so
 * a restarted node's payouts and payments find their provider's records again.
 */
export async function conversionSide(
  config: Config,
  chain: IndexedChain | null,
  store: Store,
  clock: Clock,
  logger: Logger,
  keptIn?: string,
): Promise<ConversionSide> {
  const usdc = chain?.contracts.usdc ?? null;
  const claims = await DeliveryClaims.open(store);
  const timeoutMs = config.CONVERSION_TIMEOUT_MS;
  const origin = chain ? { chainId: chain.contracts.chainId, usdc: chain.contracts.usdc } : null;
  if (config.CONVERSION_PROVIDER_URL) {
    const url = config.CONVERSION_PROVIDER_URL;
    const apiKey = config.CONVERSION_PROVIDER_KEY === undefined ? {} : { apiKey: config.CONVERSION_PROVIDER_KEY };
    return {
      provider: new HttpConversionProvider({ url, timeoutMs }),
      funding: new HttpFundingProvider({ url, timeoutMs, ...apiKey }),
      bridges: origin ? new HttpPayoutBridge({ url, timeoutMs, ...apiKey, origin }) : null,
      usdc,
      simulator: null,
      claims,
      stop: async () => {},
    };
  }
  if (!chain?.localChain) return { provider: null, funding: null, bridges: null, usdc, simulator: null, claims, stop: async () => {} };
  const simulator = await ConversionSimulator.start({ chain: chain.localChain, now: () => clock.now(), logger, ...(keptIn === undefined ? {} : { keptIn }) });
  logger.info({ url: simulator.url, customerWallet: simulator.customer }, 'local conversion provider started');
  // Spoken to over HTTP like any provider, so the wire form is what the embedded default runs too.
  return {
    provider: new HttpConversionProvider({ url: simulator.url, timeoutMs }),
    funding: new HttpFundingProvider({ url: simulator.url, timeoutMs }),
    bridges: new HttpPayoutBridge({ url: simulator.url, timeoutMs, origin: origin! }),
    usdc,
    simulator,
    claims,
    stop: () => simulator.stop(),
  };
}

/** Reads deliveries from their receipts: USDC Transfer logs to the recipient and to the fee recipient. */
export class ViemDeliveries implements DeliveryReader {
  constructor(
    private readonly client: PublicClient,
    private readonly usdc: Hex,
  ) {}

  async delivered(_chain: PaymentChain, transactionHashes: readonly string[], recipient: Hex, feeRecipient: Hex | null): Promise<Delivery | null> {
    let netUsdc = 0n;
    let feeUsdc = 0n;
    let transactionHash: Hex | null = null;
    for (const hash of transactionHashes) {
      const receipt = await this.client.getTransactionReceipt({ hash: hash as Hash }).catch(() => null);
      if (receipt?.status !== 'success') return null;
      const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' }).filter(
        (log) => log.address.toLowerCase() === this.usdc.toLowerCase(),
      );
      for (const transfer of transfers) {
        if (same(transfer.args.to, recipient)) {
          netUsdc += transfer.args.value;
          transactionHash ??= hash as Hex;
        } else if (feeRecipient && same(transfer.args.to, feeRecipient)) feeUsdc += transfer.args.value;
      }
    }
    return transactionHash === null ? null : { transactionHash, netUsdc, feeUsdc };
  }
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
