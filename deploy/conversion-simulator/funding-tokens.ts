/**
 * What stands in for each funding token of the catalog (machines/payout/funding-catalog.ts) on
 * the local chain, which stands in for every funding chain:
 *
 * - every six-decimal USDC is the local USDC (MockUSDC);
 * - every other stablecoin is a MockStablecoin the solver deploys at start, one per symbol and
 *   decimals (USDT, PYUSD, and BNB Chain's 18-decimal USDC and USDT), so amounts read in the
 *   catalog's decimals;
 * - every native token (ETH, BNB, POL, HYPE) is the local chain's native ETH, priced as the
 *   token it stands in for;
 * - BTC on Bitcoin moves in the simulator's own mempool (no Bitcoin node).
 *
 * Stand-ins are deployed once per chain: a kept chain's are found again where the simulator's
 * keep (simulator-keep.ts) says they are, so funding requests kept with them still match.
 */
import { FUNDING_CHAINS, fundingToken, NATIVE_TOKEN_ADDRESS, type FundingToken } from '../../machines/payout/funding-catalog.js';
import { USDC_DECIMALS } from '../../machines/money.js';
import type { SimToken } from './conversion-requests.js';
import type { LocalSettlement } from './local-settlement.js';

export type StandIn = { kind: 'erc20'; token: SimToken } | { kind: 'native' } | { kind: 'bitcoin' };

/** The stand-ins' ERC-20 names: the real tokens'. */
const TOKEN_NAMES: Readonly<Record<string, string>> = { USDC: 'USD Coin', USDT: 'Tether USD', PYUSD: 'PayPal USD' };

const keyOf = (token: FundingToken) => `${token.symbol}/${token.decimals}`;

export class FundingStandIns {
  private constructor(
    readonly usdc: SimToken,
    /** The deployed stand-ins by symbol and decimals (`USDT/6`). */
    private readonly deployed: ReadonlyMap<string, SimToken>,
  ) {}

  /**
   * A stand-in for each catalog stablecoin the local USDC cannot stand in for: the one at the
   * address `kept` names when the chain has a contract there, else a new one.
   */
  static async deploy(settlement: LocalSettlement, kept: Readonly<Record<string, `0x${string}`>> = {}): Promise<FundingStandIns> {
    const usdc: SimToken = { symbol: 'USDC', address: settlement.chain.usdc, decimals: USDC_DECIMALS };
    const deployed = new Map<string, SimToken>();
    for (const chain of FUNDING_CHAINS) {
      for (const token of chain.tokens) {
        const key = keyOf(token);
        if (!token.stable || (token.symbol === 'USDC' && token.decimals === USDC_DECIMALS) || deployed.has(key)) continue;
        const address = kept[key];
        const found = address !== undefined && (await settlement.chain.publicClient.getCode({ address })) ? address : null;
        deployed.set(
          key,
          found
            ? { symbol: token.symbol, address: found, decimals: token.decimals }
            : await settlement.deployStandIn(TOKEN_NAMES[token.symbol] ?? token.symbol, token.symbol, token.decimals),
        );
      }
    }
    return new FundingStandIns(usdc, deployed);
  }

  /** Where each stand-in is, by `SYMBOL/decimals`, for the simulator's keep. */
  get kept(): Record<string, `0x${string}`> {
    return Object.fromEntries([...this.deployed].map(([key, token]) => [key, token.address]));
  }

  /** What stands in for the catalog token at `address` on `chainId`, or null for a token the catalog does not have. */
  standIn(chainId: number, address: string): StandIn | null {
    const chain = FUNDING_CHAINS.find((candidate) => candidate.id === chainId);
    const token = fundingToken(chainId, address);
    if (!chain || !token) return null;
    if (chain.kind === 'bitcoin') return { kind: 'bitcoin' };
    if (token.address === NATIVE_TOKEN_ADDRESS) return { kind: 'native' };
    if (token.symbol === 'USDC' && token.decimals === USDC_DECIMALS) return { kind: 'erc20', token: this.usdc };
    const deployed = token.stable ? this.deployed.get(keyOf(token)) : undefined;
    return deployed ? { kind: 'erc20', token: deployed } : null;
  }

  /** Every ERC-20 a funding transfer can arrive in: the local USDC and the stand-ins. */
  get addresses(): `0x${string}`[] {
    return [this.usdc.address, ...[...this.deployed.values()].map((token) => token.address)];
  }
}
