/**
 * The local provider's funding side: what a payout's deposit address is (docs/payouts.md,
 * "Funding provider wire form"). It opens one request per payout reference with a fresh deposit
 * address, takes each transfer of the quoted token that arrives there (the simulator's watch
 * hands it the local chain's transfers; Bitcoin moves in a mempool of its own), converts each
 * to USDC out of the solver's inventory, or refunds one too small to route, and tells
 * `activityUrl` whenever a transfer is first seen or changes status.
 *
 * For tests and the local pages: the local customer's wallet sends any funding token's
 * stand-in, Bitcoin is sent and mined on demand, and faults make the provider refuse or fail
 * until cleared. Conversions wait while the simulator holds them.
 */
import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import { bech32 } from '@scure/base';
import type { Logger } from 'pino';
import { parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { FUNDING_AMOUNT_TOO_LOW, FUNDING_ROUTE_UNAVAILABLE } from '../../actors/adapters/conversion/funding-provider.js';
import { evmAddress } from '../../gateway/schemas/common.js';
import { BASE_CHAIN_ID, BASE_USDC_ADDRESS, fundingToken } from '../../machines/payout/funding-catalog.js';
import { fundingFeeBps, FUNDING_MINIMUM, fundingOriginAmount, usdcPerToken } from './funding-prices.js';
import { activityOf, fundingArrival, quoteOf, type FundingRecord, type FundingTransferRecord } from './funding-requests.js';
import type { FundingStandIns, StandIn } from './funding-tokens.js';
import type { ArrivedNative, ArrivedTransfer, LocalSettlement } from './local-settlement.js';
import { SimulatorError } from './simulator-error.js';
import type { KeptFunding, TransferRef } from './simulator-keep.js';

/** The most one funding request converts: 1 million USDC. */
const MAX_AMOUNT = 1_000_000_000_000n;
const BTC_DECIMALS = 8;
/** How long an activity report may take: it is fire and forget, and the payout also checks on a schedule. */
const REPORT_TIMEOUT_MS = 5_000;

/** An answer the provider gives instead of its own until cleared: a 4xx with a code is a refusal, a 5xx an outage. */
export interface FundingFault {
  status: number;
  code?: string;
  message?: string;
}

export interface FundingFaults {
  /** What POST /funding answers. */
  openFunding?: FundingFault | null;
  /** What GET /funding/{requestId} answers. */
  activity?: FundingFault | null;
}

export interface FundingDeskOptions {
  settlement: LocalSettlement;
  standIns: FundingStandIns;
  /** The local chain's id: its USDC is the USDC on Base a request delivers. */
  chainId: number;
  now(): number;
  logger: Logger;
  activityUrl: string | null;
  /** Has the simulator read the chain and convert what is due, soon (its watch runs one at a time). */
  wake(): void;
  /** The desk's records changed: the simulator keeps them (simulator-keep.ts) before it goes on. */
  changed(): void;
}

export interface WalletTransfer {
  depositAddress: `0x${string}`;
  chainId: number;
  /** The catalog's address of the token: all-zero for the chain's native token. */
  tokenAddress: string;
  /** A decimal of the token (`0.05`). */
  amount: string;
}

const address = evmAddress.transform((value) => value as `0x${string}`);
const fundingRequest = z.object({
  reference: z.string().min(1).max(200),
  originChainId: z.number().int(),
  originTokenAddress: z.string().min(1).max(100),
  refundAddress: z.string().min(1).max(100).nullable(),
  recipient: address,
  destinationChainId: z.number().int(),
  destinationTokenAddress: address,
  amount: z
    .string()
    .regex(/^\d{1,30}$/)
    .transform(BigInt),
  tradeType: z.literal('EXACT_OUTPUT'),
  appFees: z.array(z.object({ recipient: address, feeBps: z.number().int().min(0).max(1_000) })).max(4),
});
const decimal = z.string().regex(/^\d{1,24}(?:\.\d{1,18})?$/, 'must be a decimal amount of the token');
const walletTransfer = z.object({ depositAddress: address, chainId: z.number().int(), tokenAddress: z.string().min(1).max(100), amount: decimal });
const bitcoinSend = z.object({ address: z.string().min(1).max(100), amount: z.string().regex(/^\d{1,8}(?:\.\d{1,8})?$/, 'must be a decimal amount of BTC') });
const fault = z.object({ status: z.number().int().min(400).max(599), code: z.string().min(1).max(64).optional(), message: z.string().max(500).optional() });
const faults = z.strictObject({ openFunding: fault.nullable().optional(), activity: fault.nullable().optional() });

export class FundingDesk {
  readonly #byId = new Map<string, FundingRecord>();
  readonly #byReference = new Map<string, FundingRecord>();
  /** By deposit address, lower-case. */
  readonly #byDeposit = new Map<string, FundingRecord>();
  /** Transfers taken and not yet converted or refunded, oldest first. */
  #due: Array<{ record: FundingRecord; transfer: FundingTransferRecord }> = [];
  /** Bitcoin transfers seen and not yet swept. */
  #mempool: Array<{ record: FundingRecord; transfer: FundingTransferRecord }> = [];
  #nativeDeposits = 0;
  #faults: FundingFaults = {};
  /** Where activity is reported; set after start too, since the gateway that takes it starts later. */
  activityUrl: string | null;

  constructor(private readonly options: FundingDeskOptions) {
    this.activityUrl = options.activityUrl;
  }

  /** Whether any request waits for native transfers, so the watch must read each block's transactions. */
  get watchesNative(): boolean {
    return this.#nativeDeposits > 0;
  }

  /** The ERC-20s a funding transfer can arrive in, for the watch to read. */
  get tokenAddresses(): readonly `0x${string}`[] {
    return this.options.standIns.addresses;
  }

  get faults(): FundingFaults {
    return { ...this.#faults };
  }

  /** Replaces every fault: what is left out answers normally again. */
  setFaults(next: FundingFaults): void {
    this.#faults = { ...next };
  }

  standIn(chainId: number, tokenAddress: string): StandIn | null {
    return this.options.standIns.standIn(chainId, tokenAddress);
  }

  /** Everything the desk holds, for the simulator's keep. */
  kept(): KeptFunding {
    const ref = ({ record, transfer }: { record: FundingRecord; transfer: FundingTransferRecord }): TransferRef => ({
      requestId: record.id,
      transferId: transfer.id,
    });
    return { records: [...this.#byId.values()], due: this.#due.map(ref), mempool: this.#mempool.map(ref) };
  }

  /** Takes back what an earlier run kept: its transfers due are converted by the next watch. */
  restore(kept: KeptFunding): void {
    for (const record of kept.records) this.#index(record);
    const held = ({ requestId, transferId }: TransferRef) => {
      const record = this.#record(requestId);
      const transfer = record.transfers.find((candidate) => candidate.id === transferId);
      if (!transfer) throw new Error(`the kept funding request ${requestId} has no transfer ${transferId}`);
      return { record, transfer };
    };
    this.#due = kept.due.map(held);
    this.#mempool = kept.mempool.map(held);
  }

  #index(record: FundingRecord): void {
    this.#byId.set(record.id, record);
    this.#byReference.set(record.reference, record);
    this.#byDeposit.set(record.depositAddress.toLowerCase(), record);
    if (record.standIn.kind === 'native') this.#nativeDeposits++;
  }

  addRoutes(router: Router): void {
    router.post('/funding', (ctx) => {
      const { replay, answer } = this.#open(ctx.request.body);
      ctx.status = replay ? 200 : 201;
      ctx.body = answer;
    });
    router.get('/funding/:requestId', (ctx) => {
      this.#fault(this.#faults.activity);
      ctx.body = activityOf(this.#record(ctx.params.requestId!));
    });
    router.post('/_wallet/transfers', async (ctx) => {
      ctx.body = await this.sendFromWallet(walletTransfer.parse(ctx.request.body));
      ctx.status = 201;
    });
    router.post('/_bitcoin/send', (ctx) => {
      const { address: to, amount } = bitcoinSend.parse(ctx.request.body);
      ctx.body = this.sendBitcoin(to, amount);
      ctx.status = 201;
    });
    router.post('/_bitcoin/mine', (ctx) => {
      ctx.body = { swept: this.mineBitcoin() };
    });
    router.post('/_faults', (ctx) => {
      this.setFaults(faults.parse(ctx.request.body ?? {}));
      ctx.body = this.faults;
    });
  }

  #open(body: unknown): { replay: boolean; answer: ReturnType<typeof quoteOf> } {
    this.#fault(this.#faults.openFunding);
    const request = fundingRequest.parse(body);
    const fingerprint = fingerprintOf(request);
    const known = this.#byReference.get(request.reference);
    if (known) {
      if (known.fingerprint !== fingerprint)
        throw new SimulatorError(409, 'REFERENCE_CONFLICT', `reference ${request.reference} was used for another funding request`);
      return { replay: true, answer: quoteOf(known) };
    }
    const token = fundingToken(request.originChainId, request.originTokenAddress);
    const standIn = this.standIn(request.originChainId, request.originTokenAddress);
    const price = token ? usdcPerToken(token.symbol) : null;
    if (!token || !standIn || price === null)
      throw new SimulatorError(400, FUNDING_ROUTE_UNAVAILABLE, `no route from ${request.originTokenAddress} on chain ${request.originChainId}`);
    if (!this.#deliversUsdcOnBase(request.destinationChainId, request.destinationTokenAddress))
      throw new SimulatorError(400, FUNDING_ROUTE_UNAVAILABLE, `this provider funds USDC on Base (chain ${BASE_CHAIN_ID}) only`);
    const refundProblem = refundAddressProblem(standIn, request.refundAddress);
    if (refundProblem) throw new SimulatorError(400, 'INVALID_REFUND_ADDRESS', refundProblem);
    if (request.amount < FUNDING_MINIMUM)
      throw new SimulatorError(400, FUNDING_AMOUNT_TOO_LOW, `a funding request delivers at least ${FUNDING_MINIMUM} USDC base units`);
    if (request.amount > MAX_AMOUNT) throw new SimulatorError(400, 'AMOUNT_OUT_OF_RANGE', 'a funding request delivers at most 1,000,000 USDC');

    const record: FundingRecord = {
      id: `0x${randomBytes(32).toString('hex')}`,
      reference: request.reference,
      fingerprint,
      originDecimals: token.decimals,
      standIn,
      depositAddress: standIn.kind === 'bitcoin' ? bitcoinDepositAddress() : privateKeyToAccount(generatePrivateKey()).address,
      refundAddress: request.refundAddress,
      recipient: request.recipient,
      appFees: request.appFees,
      originAmount: fundingOriginAmount(request.amount, price, token.decimals, fundingFeeBps(request.originChainId, request.originTokenAddress)),
      destinationAmount: request.amount,
      transfers: [],
    };
    this.#index(record);
    this.options.changed();
    return { replay: false, answer: quoteOf(record) };
  }

  /** The payout's USDC on Base: Circle's address on 8453 as the catalog names it, or the local chain's USDC that stands in for it. */
  #deliversUsdcOnBase(chainId: number, token: string): boolean {
    const usdc = this.options.standIns.usdc.address.toLowerCase();
    return (
      (chainId === BASE_CHAIN_ID && token.toLowerCase() === BASE_USDC_ADDRESS.toLowerCase()) ||
      (chainId === this.options.chainId && token.toLowerCase() === usdc)
    );
  }

  #record(id: string): FundingRecord {
    const record = this.#byId.get(id);
    if (!record) throw new SimulatorError(404, 'REQUEST_NOT_FOUND', `no funding request ${id}`);
    return record;
  }

  #fault(set: FundingFault | null | undefined): void {
    if (set) throw new SimulatorError(set.status, set.code ?? 'SIMULATED_FAULT', set.message ?? `a fault set on the local provider answers ${set.status}`);
  }

  /**
   * A token transfer the chain shows: taken when it is the quoted token arriving at a funding
   * deposit address. A transfer of another token there is not detected, as document 2 says.
   */
  arrivedToken(transfer: ArrivedTransfer): void {
    const record = this.#byDeposit.get(transfer.to.toLowerCase());
    if (record?.standIn.kind === 'erc20' && record.standIn.token.address.toLowerCase() === transfer.token.toLowerCase())
      this.#take(record, `${transfer.transactionHash}:${transfer.logIndex}`, transfer.from, transfer.value, transfer.transactionHash);
  }

  /** A native transfer the chain shows: taken when it arrives at a deposit address quoted in a native token. */
  arrivedNative(transfer: ArrivedNative): void {
    const record = this.#byDeposit.get(transfer.to.toLowerCase());
    if (record?.standIn.kind === 'native') this.#take(record, transfer.transactionHash, transfer.from, transfer.value, transfer.transactionHash);
  }

  /** An EVM transfer is mined when seen: taken at once (swept), converting until the watch converts it. */
  #take(record: FundingRecord, id: string, from: `0x${string}`, amount: bigint, hash: string): void {
    // A block range read twice (a watch retried after a failed read) must not take a transfer twice.
    if (record.transfers.some((transfer) => transfer.id === id)) return;
    const transfer = this.#newTransfer(id, 'converting', true, from, amount, hash);
    record.transfers.push(transfer);
    this.#due.push({ record, transfer });
    this.options.changed();
    this.#report(record);
  }

  #newTransfer(id: string, status: 'seen' | 'converting', swept: boolean, from: `0x${string}` | null, amount: bigint, hash: string): FundingTransferRecord {
    return {
      id,
      status,
      originAmount: amount,
      startedAt: new Date(this.options.now()).toISOString(),
      swept,
      from,
      sourceTransactionHash: hash,
      destinationTransactionHashes: [],
      refundTransactionHash: null,
      payingSince: null,
    };
  }

  /** Puts a Bitcoin transfer of `amount` BTC to a funding deposit address in the mempool: seen, not swept. */
  sendBitcoin(to: string, amount: string): { txid: string } {
    const record = this.#byDeposit.get(to.toLowerCase());
    if (record?.standIn.kind !== 'bitcoin') throw new SimulatorError(404, 'UNKNOWN_ADDRESS', `${to} is not the deposit address of a Bitcoin funding request`);
    const units = parseUnits(amount, BTC_DECIMALS);
    if (units <= 0n) throw new SimulatorError(400, 'AMOUNT_OUT_OF_RANGE', 'a Bitcoin transfer sends more than 0');
    const txid = bitcoinTxid();
    const transfer = this.#newTransfer(`${txid}:0`, 'seen', false, null, units, txid);
    record.transfers.push(transfer);
    this.#mempool.push({ record, transfer });
    this.options.changed();
    this.#report(record);
    return { txid };
  }

  /** Mines a block: every Bitcoin transfer seen is swept and converting, converted by the next watch. Answers how many. */
  mineBitcoin(): number {
    const mined = this.#mempool;
    this.#mempool = [];
    for (const { record, transfer } of mined) {
      transfer.swept = true;
      transfer.status = 'converting';
      this.#due.push({ record, transfer });
      this.#report(record);
    }
    if (mined.length > 0) {
      this.options.changed();
      this.options.wake();
    }
    return mined.length;
  }

  /**
   * Converts (or refunds) every transfer taken so far; the simulator's watch calls it unless
   * held. Each stays due, and kept so, until it is paid: a run killed while paying leaves it
   * due with the block it started at, and the next run pays only what is not on chain since.
   */
  async convertDue(): Promise<void> {
    const { settlement } = this.options;
    while (this.#due.length > 0) {
      const { record, transfer } = this.#due[0]!;
      const next = fundingArrival(record, transfer.originAmount);
      if (transfer.payingSince === null) {
        transfer.payingSince = (await settlement.latestBlock()) + 1n;
        this.options.changed();
      }
      try {
        if (next.kind === 'convert') {
          transfer.destinationTransactionHashes = await settlement.payOnce(this.options.standIns.usdc, next.payouts, transfer.payingSince);
          transfer.status = 'delivered';
        } else {
          transfer.refundTransactionHash = await this.#refund(record, transfer);
          transfer.status = 'refunded';
          this.options.logger.info({ requestId: record.id, transfer: transfer.id, reason: next.reason }, 'the local provider refunded a funding transfer');
        }
      } catch (error) {
        transfer.status = 'failed';
        this.options.logger.warn({ err: error, requestId: record.id, transfer: transfer.id }, 'the local provider could not convert a funding transfer');
      }
      this.#due.shift();
      this.options.changed();
      this.#report(record);
    }
  }

  /** Sends the transfer back in the token sent, to the refund address or else its sender; on Bitcoin a txid stands for the refund. */
  async #refund(record: FundingRecord, transfer: FundingTransferRecord): Promise<string> {
    const { standIn } = record;
    if (standIn.kind === 'bitcoin') return bitcoinTxid();
    const to = (record.refundAddress ?? transfer.from) as `0x${string}`;
    if (standIn.kind === 'native') return this.options.settlement.payNative(to, transfer.originAmount);
    const [hash] = await this.options.settlement.payOnce(standIn.token, [{ to, amount: transfer.originAmount }], transfer.payingSince);
    return hash!;
  }

  /** The local customer's wallet sends the stand-in of a catalog token, minted or topped up to it first. */
  async sendFromWallet(transfer: WalletTransfer): Promise<{ transactionHash: string; from: `0x${string}` }> {
    const token = fundingToken(transfer.chainId, transfer.tokenAddress);
    const standIn = this.standIn(transfer.chainId, transfer.tokenAddress);
    if (!token || !standIn)
      throw new SimulatorError(400, 'UNSUPPORTED_TOKEN', `the local wallet holds no ${transfer.tokenAddress} on chain ${transfer.chainId}`);
    if (standIn.kind === 'bitcoin') throw new SimulatorError(400, 'UNSUPPORTED_CHAIN', 'the local wallet is on EVM chains; send BTC with POST /_bitcoin/send');
    const units = parseUnits(transfer.amount, token.decimals);
    if (units <= 0n || units > 10n ** 12n * 10n ** BigInt(token.decimals))
      throw new SimulatorError(400, 'AMOUNT_OUT_OF_RANGE', 'the local wallet sends more than 0 and at most a trillion');
    const { settlement } = this.options;
    const transactionHash =
      standIn.kind === 'native'
        ? await settlement.customerSendNative(transfer.depositAddress, units)
        : await settlement.customerSend(standIn.token, transfer.depositAddress, units);
    return { transactionHash, from: settlement.customer.address };
  }

  /** Tells activityUrl the request's activity changed; fire and forget, since the payout also checks on a schedule. */
  #report(record: FundingRecord): void {
    const url = this.activityUrl;
    if (!url) return;
    const { logger } = this.options;
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestId: record.id, depositAddress: record.depositAddress }),
      signal: AbortSignal.timeout(REPORT_TIMEOUT_MS),
    })
      .then(async (response) => {
        await response.arrayBuffer();
        if (!response.ok) logger.warn({ status: response.status, requestId: record.id }, 'the funding activity report was refused');
      })
      .catch((error: unknown) => logger.warn({ err: error, requestId: record.id }, 'the funding activity report was not delivered'));
  }
}

/** The request as it means: EVM addresses compared in lower case. */
function fingerprintOf(request: z.infer<typeof fundingRequest>): string {
  const evm = (value: string) => (/^0x[0-9a-fA-F]{40}$/.test(value) ? value.toLowerCase() : value);
  return JSON.stringify({
    originChainId: request.originChainId,
    originTokenAddress: evm(request.originTokenAddress),
    refundAddress: request.refundAddress === null ? null : evm(request.refundAddress),
    recipient: request.recipient.toLowerCase(),
    destinationChainId: request.destinationChainId,
    destinationTokenAddress: request.destinationTokenAddress.toLowerCase(),
    amount: request.amount.toString(),
    appFees: request.appFees.map((fee) => ({ recipient: fee.recipient.toLowerCase(), feeBps: fee.feeBps })),
  });
}

const BITCOIN_ADDRESS = /^(?:bc1[02-9ac-hj-np-z]{8,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/;

/** Bitcoin funding must name where a refund goes (its sender cannot be known); EVM funding may, else the sender gets it. */
function refundAddressProblem(standIn: StandIn, refundAddress: string | null): string | null {
  if (standIn.kind === 'bitcoin') {
    if (refundAddress === null) return 'Bitcoin funding needs a refund address';
    return BITCOIN_ADDRESS.test(refundAddress.startsWith('BC1') ? refundAddress.toLowerCase() : refundAddress)
      ? null
      : `${refundAddress} is not a Bitcoin address`;
  }
  return refundAddress === null || /^0x[0-9a-fA-F]{40}$/.test(refundAddress) ? null : `${refundAddress} is not an EVM address`;
}

/** A fresh P2WPKH address: bech32 of 20 random bytes, as a provider's one-off deposit address looks. */
function bitcoinDepositAddress(): string {
  return bech32.encode('bc', [0, ...bech32.toWords(randomBytes(20))]);
}

/** A Bitcoin transaction id: 64 hex digits, no 0x. */
function bitcoinTxid(): string {
  return randomBytes(32).toString('hex');
}
