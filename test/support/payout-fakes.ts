/**
 * Stand-ins for the payout providers, in memory, for tests that drive payouts through HTTP
 * on a node without a chain: a funding provider whose deposit addresses receive the transfers
 * a test scripts, the chain's receipts of those deliveries, and a wallet provider. Each can
 * fail on demand. The real local stand-ins (deploy/conversion-simulator/, the local customer
 * wallets) are exercised by the tests on the local chain.
 */
import { createHash } from 'node:crypto';
import { ConversionRefused, type Delivery, type DeliveryReader } from '../../actors/adapters/conversion/conversion-provider.js';
import {
  FundingProviderUnavailable,
  type FundingActivity,
  type FundingProvider,
  type FundingQuote,
  type FundingRequest,
  type FundingTransfer,
} from '../../actors/adapters/conversion/funding-provider.js';
import { CustomerWalletUnavailable, type CustomerWallet, type CustomerWalletProvider } from '../../actors/adapters/wallet-provider/customer-wallets.js';
import { fundingToken } from '../../machines/payout/funding-catalog.js';
import type { WalletBalances } from '../../actors/payouts/payout-effects.js';

const hex = (text: string, bytes: number) =>
  `0x${createHash('sha256')
    .update(text)
    .digest('hex')
    .slice(0, bytes * 2)}`;

interface FakeRequest {
  request: FundingRequest;
  quote: FundingQuote;
  transfers: FundingTransfer[];
}

export class FakeFunding implements FundingProvider, DeliveryReader {
  readonly requests = new Map<string, FakeRequest>();
  readonly #deliveries = new Map<string, Delivery>();
  quoteFault: Error | null = null;
  activityFault: Error | null = null;
  /** Resolves a held openFunding: tests hold one to see a create still running. */
  hold: Promise<void> | null = null;
  #seq = 0;

  async openFunding(request: FundingRequest): Promise<FundingQuote> {
    if (this.hold) await this.hold;
    if (this.quoteFault) throw this.quoteFault;
    const known = [...this.requests.values()].find((entry) => entry.request.reference === request.reference);
    if (known) return known.quote;
    const token = fundingToken(request.originChainId, request.originTokenAddress)!;
    // One to one in USD for stablecoins, and the origin token's decimals: what the worked numbers need.
    const scale = 10n ** BigInt(token.decimals - 6 > 0 ? token.decimals - 6 : 0);
    const quote: FundingQuote = {
      requestId: `req_${request.reference}`,
      depositAddress: hex(`deposit:${request.reference}`, 20),
      originAmount: request.amount * scale,
      originDecimals: token.decimals,
      destinationAmount: request.amount,
    };
    this.requests.set(quote.requestId, { request, quote, transfers: [] });
    return quote;
  }

  async activity(requestId: string): Promise<FundingActivity> {
    if (this.activityFault) throw this.activityFault;
    const entry = this.requests.get(requestId);
    if (!entry) throw new FundingProviderUnavailable(`no request ${requestId}`);
    return { requestId, depositAddress: entry.quote.depositAddress, transfers: entry.transfers.map((transfer) => ({ ...transfer })) };
  }

  async delivered(_chain: unknown, hashes: readonly string[], recipient: `0x${string}`): Promise<Delivery | null> {
    for (const hash of hashes) {
      const delivery = this.#deliveries.get(`${hash}:${recipient.toLowerCase()}`);
      if (delivery) return delivery;
    }
    return null;
  }

  /** The only request, or the one of `requestId`. */
  entry(requestId?: string): FakeRequest {
    const entry = requestId ? this.requests.get(requestId) : [...this.requests.values()].at(-1);
    if (!entry) throw new Error('no funding request yet');
    return entry;
  }

  /** A transfer arrives at the deposit address, seen at `startedAt`, converting until `deliver`. */
  send(originAmount: bigint, startedAt: string, requestId?: string): string {
    const entry = this.entry(requestId);
    const id = `tx${++this.#seq}`;
    entry.transfers.push({
      id,
      status: 'converting',
      originAmount,
      startedAt,
      swept: true,
      sourceTransactionHash: hex(`source:${id}`, 32),
      destinationTransactionHashes: [],
      refundTransactionHash: null,
    });
    return id;
  }

  /** The conversion of `transferId` delivers `netUsdc` to the customer's wallet. */
  deliver(transferId: string, netUsdc: bigint, requestId?: string): void {
    const entry = this.entry(requestId);
    const transfer = entry.transfers.find((candidate) => candidate.id === transferId)!;
    const hash = hex(`delivery:${transferId}:${entry.quote.requestId}`, 32);
    transfer.status = 'delivered';
    transfer.destinationTransactionHashes = [hash];
    this.#deliveries.set(`${hash}:${entry.request.recipient.toLowerCase()}`, { transactionHash: hash as `0x${string}`, netUsdc, feeUsdc: 0n });
  }

  refund(transferId: string, requestId?: string): void {
    const transfer = this.entry(requestId).transfers.find((candidate) => candidate.id === transferId)!;
    transfer.status = 'refunded';
    transfer.refundTransactionHash = hex(`refund:${transferId}`, 32);
  }

  refuseQuotes(code: string | null): void {
    this.quoteFault =
      code === null ? null : code === 'OUTAGE' ? new FundingProviderUnavailable('the provider is down') : new ConversionRefused(code, `refused: ${code}`);
  }
}

export class FakeWallets implements CustomerWalletProvider {
  failing = false;
  readonly asked: string[] = [];

  async walletFor(email: string): Promise<CustomerWallet> {
    this.asked.push(email);
    if (this.failing) throw new CustomerWalletUnavailable('the wallet provider is down');
    return { userId: `user_${email}`, address: hex(`wallet:${email}`, 20) as `0x${string}` };
  }
}

/** The demo merchant's payout settings of document 2's worked numbers: every method, 100 bps to a merchant wallet, 200 bps to the service. */
export const WORKED_PAYOUT_SETTINGS = {
  methods: ['venmo', 'cashapp', 'paypal', 'zelle', 'revolut', 'chime', 'routea_8453'],
  merchantFeeBps: 100,
  merchantWalletAddress: '0x2222222222222222222222222222222222222222',
  serviceFeeBps: 200,
  fundingTokens: null,
  payoutStep: '100',
};

export const SERVICE_WALLET = '0x3333333333333333333333333333333333333333';
export const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

export function payoutBody(overrides: Record<string, unknown> = {}) {
  return {
    customerEmail: 'Ana@Example.com',
    payout: { amount: '100', chainId: 8453, tokenAddress: USDC_ON_BASE },
    funding: { chainId: 8453, tokenAddress: USDC_ON_BASE },
    ...overrides,
  };
}

/** What customers' wallets hold, as the wallet check reads it: the funded USDC unless a test spends it. */
export class FakeBalances implements WalletBalances {
  readonly #held = new Map<string, bigint>();
  #default = 1_000_000_000_000n;

  async usdcOf(address: `0x${string}`): Promise<bigint> {
    return this.#held.get(address.toLowerCase()) ?? this.#default;
  }

  set(address: string, usdc: bigint): void {
    this.#held.set(address.toLowerCase(), usdc);
  }
}
