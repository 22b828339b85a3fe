/**
 * The local conversion provider: Relay's part in a crypto payment, on the local chain. It
 * quotes a request with a fresh deposit address, watches the chain for token transfers
 * arriving there, and pays the conversion in USDC out of its solver's inventory (the
 * recipient's share and each app fee in their own transfers); a transfer it cannot take
 * (cancelled, expired, already paid) is refunded to its sender. The local chain stands in
 * for the origin chain (`ORIGIN_CHAIN_ID`, Arbitrum One) as it stands in for Base.
 *
 * It funds payouts too (funding-desk.ts): the same watch hands the desk what arrives at its
 * deposit addresses, and the local chain stands in for every funding chain. And it takes
 * crypto payouts out of Base (bridge-out-desk.ts): the USDC a customer's wallet sends to a
 * bridge's deposit address is delivered, or refunded when a fault asks for it.
 *
 * Its HTTP API is the wire forms HttpConversionProvider and HttpFundingProvider speak
 * (docs/payments.md, docs/payouts.md), plus `POST /_buyer/transfers` and the desk's
 * `/_wallet`, `/_bitcoin` and `/_faults` routes for pages and tests. Given a folder to keep
 * in (the kept local chain's, on `npm start`), it keeps its requests there and a restarted
 * node's simulator goes on with them (simulator-keep.ts); without one they live in memory.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Logger } from 'pino';
import { parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { USDC_DECIMALS } from '../../machines/money.js';
import type { LocalChain } from '../../indexer/chain/index.js';
import { loopbackCors } from '../../enclave/simulator/loopback-cors.js';
import { evmAddress } from '../../gateway/schemas/common.js';
import { arrival, originAmountFor, PROVIDER_FEE_BPS, type SimRequest, type SimToken } from './conversion-requests.js';
import { FundingDesk, type FundingFaults, type WalletTransfer } from './funding-desk.js';
import { BridgeOutDesk, type BridgeOutFaults } from './bridge-out-desk.js';
import { FundingStandIns, type StandIn } from './funding-tokens.js';
import { LocalSettlement } from './local-settlement.js';
import { SimulatorError } from './simulator-error.js';
import { SimulatorKeep, type KeptSimulator, type PendingConversion } from './simulator-keep.js';

/** The origin chain the local chain stands in for: the simulator serves `relay_42161`. */
export const ORIGIN_CHAIN_ID = 42161;
/** The most one request converts: 1 million USDC. */
const MAX_AMOUNT = 1_000_000_000_000n;

export interface ConversionSimulatorOptions {
  chain: LocalChain;
  /** The node's clock, so a request's expiry reads as the node's windows do (a test clock in tests). */
  now(): number;
  logger: Logger;
  /** How often the chain is read for arriving transfers. */
  pollMs?: number;
  /** Where the simulator keeps its requests across restarts: the kept local chain's folder. Requests of a fresh chain start afresh. */
  keptIn?: string;
}

const address = evmAddress.transform((value) => value as `0x${string}`);
const quoteRequest = z.object({
  originChainId: z.number().int(),
  originToken: z.string(),
  destinationChainId: z.number().int(),
  destinationToken: address,
  recipient: address,
  amount: z
    .string()
    .regex(/^\d{1,30}$/)
    .transform(BigInt),
  tradeType: z.literal('EXACT_OUTPUT'),
  appFees: z.array(z.object({ recipient: address, feeBps: z.number().int().min(0).max(1_000) })).max(4),
  expiresAt: z.iso.datetime(),
});
/** The amount as the page shows it: a decimal of the token (`25.025`). */
const transferRequest = z.object({
  depositAddress: address,
  token: z.string(),
  amount: z.string().regex(/^\d{1,24}(?:\.\d{1,18})?$/, 'must be a decimal amount of the token'),
});

export class ConversionSimulator {
  readonly #requests = new Map<string, SimRequest>();
  readonly #byDeposit = new Map<string, SimRequest>();
  /** Conversions taken and not yet paid, by request. */
  readonly #pending = new Map<string, PendingConversion>();
  readonly #keep: SimulatorKeep | null;
  #standIns: FundingStandIns | null = null;
  readonly #settlement: LocalSettlement;
  readonly #tokens: SimToken[];
  #server: Server | null = null;
  #url = '';
  #nextBlock = 0n;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  #watching: Promise<void> = Promise.resolve();
  /** A watch is running: a wake then runs another right after it, never beside it (two would pay one conversion twice). */
  #running = false;
  #wakeAfter = false;
  #funding: FundingDesk | null = null;
  #bridgeOut: BridgeOutDesk | null = null;
  /** Tests hold deliveries to see an attempt whose transfer arrived but is not converted yet. */
  #held = false;

  constructor(private readonly options: ConversionSimulatorOptions) {
    this.#settlement = new LocalSettlement(options.chain);
    this.#tokens = [{ symbol: 'USDC', address: options.chain.usdc, decimals: USDC_DECIMALS }];
    this.#keep = options.keptIn === undefined ? null : new SimulatorKeep(options.keptIn);
  }

  get url(): string {
    return this.#url;
  }

  get customer(): `0x${string}` {
    return this.#settlement.customer.address;
  }

  static async start(options: ConversionSimulatorOptions): Promise<ConversionSimulator> {
    const simulator = new ConversionSimulator(options);
    await simulator.#start();
    return simulator;
  }

  /** Holds conversions (transfers are seen: a request goes pending, a funding transfer converting) until released with hold(false). */
  hold(held: boolean): void {
    this.#held = held;
    if (!held) this.#wake();
  }

  /** Where funding activity is reported: POST { requestId, depositAddress } when a transfer is first seen or changes status. */
  get activityUrl(): string | null {
    return this.#desk.activityUrl;
  }

  set activityUrl(url: string | null) {
    this.#desk.activityUrl = url;
  }

  /** Puts a transfer of `amount` (a decimal of BTC) to a Bitcoin funding deposit address in the simulated mempool. */
  sendBitcoin(address: string, amount: string): { txid: string } {
    return this.#desk.sendBitcoin(address, amount);
  }

  /** Sweeps every Bitcoin transfer in the mempool (swept, converting), to be converted by the next watch; answers how many. */
  mineBitcoin(): number {
    return this.#desk.mineBitcoin();
  }

  /** What payout bridges do until cleared (replaces every earlier bridge fault): a quote fault, or refunds instead of deliveries. */
  setBridgeFaults(faults: BridgeOutFaults): void {
    this.#bridgeOut!.setFaults(faults);
  }

  /** What the funding routes answer instead of their own until cleared (replaces every earlier fault). */
  setFundingFaults(faults: FundingFaults): void {
    this.#desk.setFaults(faults);
  }

  clearFundingFaults(): void {
    this.#desk.setFaults({});
  }

  /** What stands in on the local chain for the catalog token at `tokenAddress` on `chainId`; null for a token the catalog lacks. */
  fundingStandIn(chainId: number, tokenAddress: string): StandIn | null {
    return this.#desk.standIn(chainId, tokenAddress);
  }

  /** The local customer's wallet sends the stand-in of a catalog token to a deposit address (POST /_wallet/transfers). */
  sendFromWallet(transfer: WalletTransfer): Promise<{ transactionHash: string; from: `0x${string}` }> {
    return this.#desk.sendFromWallet(transfer);
  }

  get #desk(): FundingDesk {
    if (!this.#funding) throw new Error('the conversion simulator has not started');
    return this.#funding;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#watching;
    if (!this.#server) return;
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server!.close(() => resolve()));
  }

  async #start(): Promise<void> {
    await this.#settlement.start();
    const { chain } = this.options;
    const kept = chain.restored ? (this.#keep?.read(chain.chainId) ?? null) : null;
    this.#standIns = await FundingStandIns.deploy(this.#settlement, kept?.standIns);
    this.#funding = new FundingDesk({
      settlement: this.#settlement,
      standIns: this.#standIns,
      chainId: chain.chainId,
      now: this.options.now,
      logger: this.options.logger,
      activityUrl: null,
      wake: () => this.#wake(),
      changed: () => this.#changed(),
    });
    this.#bridgeOut = new BridgeOutDesk({
      settlement: this.#settlement,
      standIns: this.#standIns,
      chainId: chain.chainId,
      logger: this.options.logger,
      changed: () => this.#changed(),
    });
    if (kept) this.#restore(kept);
    else this.#nextBlock = (await this.#settlement.latestBlock()) + 1n;
    this.#changed();
    const app = new Koa();
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        if (error instanceof SimulatorError) {
          ctx.status = error.status;
          ctx.body = { code: error.code, message: error.message };
        } else if (error instanceof z.ZodError) {
          ctx.status = 400;
          ctx.body = { code: 'INVALID_REQUEST', message: z.prettifyError(error) };
        } else throw error;
      }
    });
    app.use(loopbackCors());
    app.use(bodyParser({ enableTypes: ['json'] }));
    app.use(this.#routes().routes());
    this.#server = createServer(app.callback());
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    this.#schedule(0);
  }

  #restore(kept: KeptSimulator): void {
    for (const request of kept.requests) {
      this.#requests.set(request.id, request);
      this.#byDeposit.set(request.depositAddress.toLowerCase(), request);
    }
    for (const [id, pending] of kept.pending) this.#pending.set(id, pending);
    this.#desk.restore(kept.funding);
    this.#bridgeOut!.restore(kept.bridgeOut ?? []);
    this.#nextBlock = kept.nextBlock;
    this.options.logger.info(
      { requests: kept.requests.length, fundingRequests: kept.funding.records.length, fromBlock: kept.nextBlock.toString() },
      'the local conversion provider goes on with what it kept',
    );
  }

  /** Writes what the simulator holds to its keep, if it has one, before anything else happens. */
  #changed(): void {
    if (!this.#keep || !this.#funding) return;
    this.#keep.write({
      chainId: this.options.chain.chainId,
      nextBlock: this.#nextBlock,
      standIns: this.#standIns?.kept ?? {},
      requests: [...this.#requests.values()],
      pending: [...this.#pending],
      funding: this.#funding.kept(),
      bridgeOut: this.#bridgeOut?.kept() ?? [],
    });
  }

  #routes(): Router {
    const router = new Router();
    router.post('/quote', (ctx) => {
      ctx.body = this.#quote(quoteRequest.parse(ctx.request.body));
    });
    router.get('/requests/:id', (ctx) => {
      ctx.body = stateOf(this.#request(ctx.params.id!));
    });
    router.post('/requests/:id/cancel', (ctx) => {
      const request = this.#request(ctx.params.id!);
      if (request.status === 'waiting') {
        request.cancelled = true;
        request.status = 'failure';
        request.message = 'the request was cancelled before any transfer arrived';
        this.#changed();
      }
      ctx.body = stateOf(request);
    });
    router.post('/_buyer/transfers', async (ctx) => {
      const { depositAddress, token, amount } = transferRequest.parse(ctx.request.body);
      const known = this.#tokens.find((candidate) => candidate.symbol === token);
      if (!known) throw new SimulatorError(400, 'UNSUPPORTED_TOKEN', `the local wallet holds ${this.#tokens.map((t) => t.symbol).join(', ')}, not ${token}`);
      ctx.status = 201;
      const units = parseUnits(amount, known.decimals);
      if (units <= 0n || units > 10n ** 12n * 10n ** BigInt(known.decimals))
        throw new SimulatorError(400, 'AMOUNT_OUT_OF_RANGE', 'the local wallet sends more than 0 and at most a trillion');
      ctx.body = { transactionHash: await this.#settlement.customerSend(known, depositAddress, units), from: this.customer };
    });
    this.#desk.addRoutes(router);
    this.#bridgeOut!.addRoutes(router);
    return router;
  }

  #quote(request: z.infer<typeof quoteRequest>) {
    if (request.originChainId !== ORIGIN_CHAIN_ID)
      throw new SimulatorError(400, 'UNSUPPORTED_CHAIN', `this provider converts from chain ${ORIGIN_CHAIN_ID}, not ${request.originChainId}`);
    const token = this.#tokens.find((candidate) => candidate.symbol === request.originToken);
    if (!token)
      throw new SimulatorError(
        400,
        'UNSUPPORTED_TOKEN',
        `chain ${ORIGIN_CHAIN_ID} pays in ${this.#tokens.map((t) => t.symbol).join(', ')}, not ${request.originToken}`,
      );
    if (request.destinationChainId !== this.options.chain.chainId || request.destinationToken.toLowerCase() !== this.options.chain.usdc.toLowerCase()) {
      throw new SimulatorError(
        400,
        'UNSUPPORTED_DESTINATION',
        `this provider delivers USDC (${this.options.chain.usdc}) on chain ${this.options.chain.chainId} only`,
      );
    }
    if (request.amount <= 0n || request.amount > MAX_AMOUNT)
      throw new SimulatorError(400, 'AMOUNT_OUT_OF_RANGE', 'a request converts more than 0 and at most 1,000,000 USDC');
    const depositAddress = privateKeyToAccount(generatePrivateKey()).address;
    const simRequest: SimRequest = {
      id: `0x${randomBytes(32).toString('hex')}`,
      depositAddress,
      token,
      originAmount: originAmountFor(request.amount, PROVIDER_FEE_BPS, token, USDC_DECIMALS),
      destinationAmount: request.amount,
      recipient: request.recipient,
      appFees: request.appFees,
      expiresAtMs: Date.parse(request.expiresAt),
      status: 'waiting',
      cancelled: false,
      received: null,
      sourceTransactionHash: null,
      destinationTransactionHashes: [],
      message: null,
    };
    this.#requests.set(simRequest.id, simRequest);
    this.#byDeposit.set(depositAddress.toLowerCase(), simRequest);
    this.#changed();
    return {
      requestId: simRequest.id,
      depositAddress,
      originToken: token.symbol,
      originTokenAddress: token.address,
      originDecimals: token.decimals,
      originAmount: simRequest.originAmount.toString(),
      destinationAmount: request.amount.toString(),
      expiresAt: request.expiresAt,
    };
  }

  #request(id: string): SimRequest {
    const request = this.#requests.get(id);
    if (!request) throw new SimulatorError(404, 'REQUEST_NOT_FOUND', `no request ${id}`);
    return request;
  }

  /** Watches at once, or right after the watch under way. */
  #wake(): void {
    if (this.#running) this.#wakeAfter = true;
    else this.#schedule(0);
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#running = true;
      this.#watching = this.#watch()
        .catch((error: unknown) => this.options.logger.warn({ err: error }, 'the conversion simulator could not read the chain; reading again'))
        .finally(() => {
          this.#running = false;
          const again = this.#wakeAfter;
          this.#wakeAfter = false;
          this.#schedule(again ? 0 : (this.options.pollMs ?? 100));
        });
    }, ms);
  }

  /**
   * Reads the transfers mined since the last read and records what each calls for, keeps
   * that with the next block to read, then pays: refunds at once, conversions unless held.
   * Each payment stays pending, and kept so, until it is paid (LocalSettlement.payOnce).
   */
  async #watch(): Promise<void> {
    const latest = await this.#settlement.latestBlock();
    if (latest >= this.#nextBlock) {
      const tokens = new Set([...this.#tokens.map((token) => token.address), ...this.#desk.tokenAddresses]);
      const transfers = await this.#settlement.transfers([...tokens], this.#nextBlock, latest);
      // Kept only when a request took a transfer: a range read again after a restart takes nothing twice (the desk keeps its own).
      let taken = false;
      if (this.#desk.watchesNative) for (const transfer of await this.#settlement.nativeTransfers(this.#nextBlock, latest)) this.#desk.arrivedNative(transfer);
      for (const transfer of transfers) {
        this.#desk.arrivedToken(transfer);
        if (same(transfer.token, this.options.chain.usdc) && this.#bridgeOut!.arrivedUsdc(transfer)) taken = true;
        const request = this.#byDeposit.get(transfer.to.toLowerCase());
        if (!request || transfer.token.toLowerCase() !== request.token.address.toLowerCase()) continue;
        const next = arrival(request, transfer.value, this.options.now());
        if (next.kind === 'refund') {
          // A request nobody paid yet reads as refunded; one that was paid keeps its status, and only the extra goes back.
          if (request.status === 'waiting' || (request.status === 'failure' && request.received === null)) {
            request.status = 'refund';
            request.received = transfer.value;
            request.sourceTransactionHash = transfer.transactionHash;
            request.message = `refunded: ${next.reason}`;
          }
          const refund: PendingConversion = { requestId: request.id, kind: 'refund', payouts: [{ to: transfer.from, amount: transfer.value }], since: null };
          this.#pending.set(`${request.id}/refund/${transfer.transactionHash}/${transfer.logIndex}`, refund);
          taken = true;
          continue;
        }
        request.status = 'pending';
        request.received = transfer.value;
        request.sourceTransactionHash = transfer.transactionHash;
        this.#pending.set(request.id, { requestId: request.id, kind: 'convert', payouts: next.payouts, since: null });
        taken = true;
      }
      this.#nextBlock = latest + 1n;
      if (taken) this.#changed();
    }
    for (const [key, pending] of this.#pending) {
      if (this.#held && pending.kind === 'convert') continue;
      const request = this.#requests.get(pending.requestId)!;
      if (pending.since === null) {
        pending.since = (await this.#settlement.latestBlock()) + 1n;
        this.#changed();
      }
      try {
        const hashes = await this.#settlement.payOnce(request.token, pending.payouts, pending.since);
        if (pending.kind === 'convert') {
          request.destinationTransactionHashes = hashes;
          request.status = 'success';
        }
      } catch (error) {
        if (pending.kind === 'refund') throw error;
        request.status = 'failure';
        request.message = `the conversion could not be delivered: ${(error as Error).message}`;
      }
      this.#pending.delete(key);
      this.#changed();
    }
    if (!this.#held) {
      await this.#desk.convertDue();
      await this.#bridgeOut!.payDue();
    }
  }
}

function stateOf(request: SimRequest) {
  return {
    requestId: request.id,
    status: request.status,
    originAmountReceived: request.received === null ? null : request.received.toString(),
    sourceTransactionHash: request.sourceTransactionHash,
    destinationTransactionHashes: request.destinationTransactionHashes,
    message: request.message,
  };
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
