/**
 * The local provider's bridges out of Base: what a crypto payout to another network or token is
 * (docs/payout-checkout.md, "Crypto through the provider"). It previews and binds exact-input
 * quotes at its fixed prices less its fee, opens each bound request with a fresh deposit address
 * on the local chain (which stands in for Base), and takes the USDC the simulator's watch sees
 * arriving there. Then it delivers: where the local chain has a stand-in of the destination
 * token (the funding catalog's stablecoins and native tokens) it really sends it to the
 * recipient there; for a network the local chain cannot stand in for (Solana, Tron, Bitcoin,
 * Zcash, or a token without a stand-in) it records a delivery whose hash is derived from the
 * request, as a provider's report of a chain nobody here reads. Or, when a fault asked for it,
 * it refunds the USDC less a fee to the request's refund target, for real on the local chain.
 *
 * Faults for tests and the local pages: a quote fault answers every preview and binding instead
 * until cleared; an outcome fault decides what requests bound while it is set do.
 */
import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import { keccak256, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { DESTINATION_NETWORKS } from '../../machines/payout/destination-catalog.js';
import { PAYOUT_AMOUNT_TOO_LOW, PAYOUT_ROUTE_UNAVAILABLE } from '../../actors/adapters/conversion/payout-bridge.js';
import { PROVIDER_FEE_BPS } from './conversion-requests.js';
import { FUNDING_MINIMUM, usdcPerToken } from './funding-prices.js';
import type { FundingStandIns } from './funding-tokens.js';
import type { ArrivedTransfer, LocalSettlement } from './local-settlement.js';
import { SimulatorError } from './simulator-error.js';

const BPS = 10_000n;
/** The most one bridge takes: 1 million USDC. */
const MAX_USDC = 1_000_000_000_000n;
const ZCASH_CHAIN_ID = 133701;

export type BridgeOutStatus = 'waiting' | 'pending' | 'success' | 'refund';

export interface BridgeOutRecord {
  id: string;
  provider: 'ROUTEA' | 'ROUTEB';
  depositAddress: `0x${string}`;
  usdcAmount: bigint;
  destinationChainId: number;
  destinationTokenAddress: string;
  recipient: string;
  estimatedAmount: bigint;
  refundTo: `0x${string}`;
  /** What it does once the USDC arrived, as the faults said when it was bound. */
  outcome: { kind: 'deliver' } | { kind: 'refund'; feeUsdc: bigint };
  status: BridgeOutStatus;
  receivedUsdc: bigint;
  deliveredAmount: bigint | null;
  destinationTransactionHash: string | null;
  refundTransactionHash: string | null;
  /** The block its paying started at, once it has: a restart pays only what it finds unpaid since. */
  payingSince: bigint | null;
}

export interface BridgeOutFaults {
  quote?: { status: number; code?: string; message?: string } | null;
  /** What requests bound from now do: refund the USDC less `feeUsdc` (base units) instead of delivering. */
  refund?: { feeUsdc: string } | null;
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const route = z.object({
  originChainId: z.number().int(),
  originTokenAddress: address,
  amount: z
    .string()
    .regex(/^\d{1,30}$/)
    .transform(BigInt),
  destinationChainId: z.number().int(),
  destinationTokenAddress: z.string().min(1).max(100),
  recipient: z.string().min(1).max(100),
  tradeType: z.literal('EXACT_INPUT'),
});
const binding = route.extend({ refundTo: address.transform((value) => value as `0x${string}`) });
const faults = z.strictObject({
  quote: z
    .object({ status: z.number().int().min(400).max(599), code: z.string().min(1).max(64).optional(), message: z.string().max(500).optional() })
    .nullable()
    .optional(),
  refund: z
    .object({ feeUsdc: z.string().regex(/^\d{1,18}$/) })
    .nullable()
    .optional(),
});

export interface BridgeOutDeskOptions {
  settlement: LocalSettlement;
  standIns: FundingStandIns;
  /** The local chain's id and USDC: the Base every bridge leaves from. */
  chainId: number;
  logger: Logger;
  /** The desk's records changed: the simulator keeps them before it goes on. */
  changed(): void;
}

export class BridgeOutDesk {
  readonly #byId = new Map<string, BridgeOutRecord>();
  readonly #byDeposit = new Map<string, BridgeOutRecord>();
  #faults: BridgeOutFaults = {};

  constructor(private readonly options: BridgeOutDeskOptions) {}

  kept(): BridgeOutRecord[] {
    return [...this.#byId.values()];
  }

  restore(records: readonly BridgeOutRecord[]): void {
    for (const record of records) this.#index(record);
  }

  setFaults(next: BridgeOutFaults): void {
    this.#faults = { ...next };
  }

  addRoutes(router: Router): void {
    router.post('/payout-bridge/preview', (ctx) => {
      const request = this.#priced(route.parse(ctx.request.body));
      ctx.body = { provider: request.provider, estimatedAmount: request.estimatedAmount.toString() };
    });
    router.post('/payout-bridge/requests', (ctx) => {
      ctx.status = 201;
      ctx.body = this.#bind(binding.parse(ctx.request.body));
    });
    router.get('/payout-bridge/requests/:id', (ctx) => {
      const record = this.#byId.get(ctx.params.id!);
      if (!record) throw new SimulatorError(404, 'REQUEST_NOT_FOUND', `no bridge request ${ctx.params.id}`);
      ctx.body = stateOf(record);
    });
    router.post('/_faults/payout-bridge', (ctx) => {
      this.setFaults(faults.parse(ctx.request.body ?? {}));
      ctx.body = this.#faults;
    });
  }

  /** USDC arriving at a bridge's deposit address on the local chain: once all of it is there, the bridge is the desk's to pay. */
  arrivedUsdc(transfer: ArrivedTransfer): boolean {
    const record = this.#byDeposit.get(transfer.to.toLowerCase());
    if (record?.status !== 'waiting') return false;
    record.receivedUsdc += transfer.value;
    if (record.receivedUsdc >= record.usdcAmount) record.status = 'pending';
    return true;
  }

  /** Delivers or refunds every bridge whose USDC arrived; the simulator's watch calls it unless held. */
  async payDue(): Promise<void> {
    const { settlement, standIns } = this.options;
    for (const record of this.#byId.values()) {
      if (record.status !== 'pending') continue;
      if (record.payingSince === null) {
        record.payingSince = (await settlement.latestBlock()) + 1n;
        this.options.changed();
      }
      if (record.outcome.kind === 'refund') {
        const amount = record.receivedUsdc > record.outcome.feeUsdc ? record.receivedUsdc - record.outcome.feeUsdc : 0n;
        const [hash] = await settlement.payOnce(standIns.usdc, [{ to: record.refundTo, amount }], record.payingSince);
        record.refundTransactionHash = hash!;
        record.status = 'refund';
        this.options.logger.info({ requestId: record.id, amount: amount.toString() }, 'the local provider refunded a payout bridge');
      } else {
        record.destinationTransactionHash = await this.#deliver(record);
        record.deliveredAmount = record.estimatedAmount;
        record.status = 'success';
      }
      this.options.changed();
    }
  }

  async #deliver(record: BridgeOutRecord): Promise<string> {
    const { settlement, standIns } = this.options;
    const standIn = standIns.standIn(record.destinationChainId, record.destinationTokenAddress);
    const to = record.recipient as `0x${string}`;
    if (standIn?.kind === 'erc20') return (await settlement.payOnce(standIn.token, [{ to, amount: record.estimatedAmount }], record.payingSince))[0]!;
    if (standIn?.kind === 'native') return settlement.payNative(to, record.estimatedAmount);
    return keccak256(toHex(`local bridge delivery ${record.id}`));
  }

  #fault(): void {
    const set = this.#faults.quote;
    if (set) throw new SimulatorError(set.status, set.code ?? 'SIMULATED_FAULT', set.message ?? `a fault set on the local provider answers ${set.status}`);
  }

  /** The route priced: its provider and what it delivers, at the fixed price less the fee, rounded down. */
  #priced(request: z.infer<typeof route>): { provider: 'ROUTEA' | 'ROUTEB'; estimatedAmount: bigint } {
    this.#fault();
    if (request.originChainId !== this.options.chainId || request.originTokenAddress.toLowerCase() !== this.options.standIns.usdc.address.toLowerCase())
      throw new SimulatorError(400, 'UNSUPPORTED_ORIGIN', `payout bridges leave from USDC on chain ${this.options.chainId} only`);
    const token = DESTINATION_NETWORKS.find((network) => network.chainId === request.destinationChainId)?.tokens.find(
      (candidate) => candidate.address.toLowerCase() === request.destinationTokenAddress.toLowerCase(),
    );
    const price = token ? usdcPerToken(token.symbol) : null;
    if (!token || price === null)
      throw new SimulatorError(400, PAYOUT_ROUTE_UNAVAILABLE, `no route to ${request.destinationTokenAddress} on chain ${request.destinationChainId}`);
    if (request.amount > MAX_USDC) throw new SimulatorError(400, 'AMOUNT_OUT_OF_RANGE', 'a bridge takes at most 1,000,000 USDC');
    if (request.amount < FUNDING_MINIMUM) throw new SimulatorError(400, PAYOUT_AMOUNT_TOO_LOW, `a bridge takes at least ${FUNDING_MINIMUM} USDC base units`);
    const net = (request.amount * (BPS - BigInt(PROVIDER_FEE_BPS))) / BPS;
    return {
      provider: request.destinationChainId === ZCASH_CHAIN_ID ? 'ROUTEB' : 'ROUTEA',
      estimatedAmount: (net * 10n ** BigInt(token.decimals)) / price,
    };
  }

  #bind(request: z.infer<typeof binding>) {
    const { provider, estimatedAmount } = this.#priced(request);
    const refund = this.#faults.refund;
    const record: BridgeOutRecord = {
      id: `0x${randomBytes(32).toString('hex')}`,
      provider,
      depositAddress: privateKeyToAccount(generatePrivateKey()).address,
      usdcAmount: request.amount,
      destinationChainId: request.destinationChainId,
      destinationTokenAddress: request.destinationTokenAddress,
      recipient: request.recipient,
      estimatedAmount,
      refundTo: request.refundTo,
      outcome: refund ? { kind: 'refund', feeUsdc: BigInt(refund.feeUsdc) } : { kind: 'deliver' },
      status: 'waiting',
      receivedUsdc: 0n,
      deliveredAmount: null,
      destinationTransactionHash: null,
      refundTransactionHash: null,
      payingSince: null,
    };
    this.#index(record);
    this.options.changed();
    return {
      requestId: record.id,
      provider,
      depositAddress: record.depositAddress,
      usdcAmount: record.usdcAmount.toString(),
      estimatedAmount: estimatedAmount.toString(),
    };
  }

  #index(record: BridgeOutRecord): void {
    this.#byId.set(record.id, record);
    this.#byDeposit.set(record.depositAddress.toLowerCase(), record);
  }
}

function stateOf(record: BridgeOutRecord) {
  return {
    requestId: record.id,
    status: record.status,
    deliveredAmount: record.deliveredAmount?.toString() ?? null,
    destinationTransactionHash: record.destinationTransactionHash,
    refundTransactionHash: record.refundTransactionHash,
  };
}
