/**
 * The payment flow of a node, by configuration. Live payments need the chain the
 * node sends on, its relayer, a gating key to approve intents (GATING_PRIVATE_KEY, or
 * anvil's dev account on the local chain) and the attestation service; a node without
 * them serves sandbox payments only, and its payment effects reach nothing outside
 * (actors/payments/payment-effects.ts). The chain-facts reader and the attestation
 * client start after the actors do, so the effects find them when they run, not when
 * the kind is registered. Crypto rails need the conversion side beside them
 * (deploy/conversions.ts): the provider that quotes and converts, and the chain its
 * deliveries are read from.
 */
import type { Logger } from 'pino';
import { privateKeyToAccount } from 'viem/accounts';
import type { Address, Hex, LocalAccount } from 'viem';
import type { Config, Store } from '../actors/index.js';
import type { ChainFacts } from '../actors/chain/chain-facts.js';
import type { EnclaveClient } from '../actors/adapters/enclave/index.js';
import { paymentKind } from '../actors/kinds/index.js';
import { paymentEffects, type PaymentEffectDependencies } from '../actors/payments/index.js';
import type { CryptoSettings } from '../gateway/checkout/quotes.js';
import { Relayer } from '../actors/relayer/index.js';
import { withEffects, type ActorKind } from '../actors/runtime/actor-kind.js';
import type { ActorSystem } from '../actors/runtime/actor-system.js';
import type { FeeSchedule, PaymentChain } from '../machines/payment/index.js';
import { BASE_CHAIN_ID } from '../machines/catalog/index.js';
import { LOCAL_GATING_SERVICE_INDEX, anvilTestAccount, orchestratorAbi } from '../indexer/chain/index.js';
import type { IndexedChain } from './chain.js';
import type { RelayerSide } from './relayer.js';
import { ViemIntents } from '../actors/adapters/chain/viem-intents.js';
import { LocalExpiries, StoredExpiries } from '../actors/adapters/chain/gating-expiries.js';
import { ViemDeliveries, type ConversionSide } from './conversions.js';

/** Receives the platform's fee on the local chain when no recipient is configured: a public anvil dev account. */
export const LOCAL_FEE_RECIPIENT_INDEX = 8;

export interface PaymentSide {
  kind: ActorKind;
  /** Where live payments signal and fulfil; null when this node takes sandbox payments only. */
  chain: PaymentChain | null;
  /** What the quotes price with: the orchestrator's protocol fee, read from the chain, and the platform's. */
  fees: FeeSchedule;
  /** The catalog chain live payments pay out on: the chain's own id, or Base for a local chain, which stands in for it. */
  destinationChainId: string | null;
  /** What live crypto attempts are quoted and converted with; null when this node takes none. */
  crypto: CryptoSettings | null;
  /** Who the chain pays the platform's fee to, as the intents' referrer; null when no fee is taken (and in the sandbox). */
  referrer: Hex | null;
}

export interface LateParts {
  chainFacts(): ChainFacts | null;
  enclave(): EnclaveClient | null;
}

export async function paymentSide(
  config: Config,
  chain: IndexedChain | null,
  relaying: RelayerSide | null,
  conversions: ConversionSide,
  system: ActorSystem,
  store: Store,
  late: LateParts,
  logger: Logger,
): Promise<PaymentSide> {
  const gatingSigner = gatingSignerOf(config, chain);
  const sandboxOnly = (reason: string): PaymentSide => {
    logger.info({ reason }, 'this node takes sandbox payments only');
    return {
      kind: withEffects(paymentKind, paymentEffects(null)),
      chain: null,
      fees: { protocolFeeBps: 0, platformFeeBps: config.PLATFORM_FEE_BPS },
      destinationChainId: null,
      crypto: null,
      referrer: null,
    };
  };
  if (!chain || !relaying) return sandboxOnly('no chain to send on');
  if (!gatingSigner) return sandboxOnly('no GATING_PRIVATE_KEY to approve intents with');
  if (!config.ENCLAVE_ENABLED) return sandboxOnly('no attestation service (ENCLAVE_ENABLED=false)');

  const { contracts, client } = chain;
  const protocolFeeBps = Number(await client.readContract({ address: contracts.orchestrator, abi: orchestratorAbi, functionName: 'protocolFeeBps' }));
  const feeRecipient: Address | null = config.PLATFORM_FEE_RECIPIENT
    ? (config.PLATFORM_FEE_RECIPIENT as Address)
    : chain.localChain
      ? anvilTestAccount(LOCAL_FEE_RECIPIENT_INDEX).address
      : null;
  if (!feeRecipient && config.PLATFORM_FEE_BPS > 0) logger.warn('no PLATFORM_FEE_RECIPIENT: payments take no platform fee');
  // Nodes of a cluster sign approvals for the same wallets: their expiries are kept apart in the shared store.
  const expiries = config.NATS_URL ? await StoredExpiries.open(store, () => Date.now()) : new LocalExpiries();
  const intents = new ViemIntents({ client, wallets: relaying.chain.wallets as Hex[], gatingSigner, feeRecipient, expiries });
  const deps: PaymentEffectDependencies = {
    relayer: new Relayer(system),
    intents,
    watch: async (subject, owner) => {
      const facts = late.chainFacts();
      if (!facts) throw new Error('the chain-facts reader has not started');
      await facts.subscribe(subject, owner);
    },
    get enclave() {
      const enclave = late.enclave();
      if (!enclave) throw new Error('the attestation client has not connected');
      return enclave;
    },
    conversions: conversions.provider,
    deliveries: new ViemDeliveries(client, contracts.usdc),
    claims: conversions.claims,
  };
  const paymentChain: PaymentChain = { chainId: contracts.chainId, escrow: contracts.escrow, orchestrator: contracts.orchestrator };
  logger.info(
    { chainId: contracts.chainId, protocolFeeBps, platformFeeBps: config.PLATFORM_FEE_BPS, gatingService: gatingSigner.address },
    'live payments signal and fulfil on this chain',
  );
  return {
    kind: withEffects(paymentKind, paymentEffects(deps)),
    chain: paymentChain,
    fees: { protocolFeeBps, platformFeeBps: feeRecipient ? config.PLATFORM_FEE_BPS : 0 },
    destinationChainId: chain.localChain ? BASE_CHAIN_ID : String(contracts.chainId),
    referrer: feeRecipient && config.PLATFORM_FEE_BPS > 0 ? feeRecipient : null,
    crypto: conversions.provider
      ? {
          provider: conversions.provider,
          settlementChainId: contracts.chainId,
          usdc: contracts.usdc,
          feeRecipient: feeRecipient && config.PLATFORM_FEE_BPS > 0 ? feeRecipient : null,
        }
      : null,
  };
}

function gatingSignerOf(config: Config, chain: IndexedChain | null): LocalAccount | null {
  if (config.GATING_PRIVATE_KEY) return privateKeyToAccount(config.GATING_PRIVATE_KEY as Hex);
  return chain?.localChain ? anvilTestAccount(LOCAL_GATING_SERVICE_INDEX) : null;
}
