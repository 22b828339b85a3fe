/**
 * Intents on the local chain as the node's payment flow signals them: the gating service's
 * signature over the terms and the caller (indexer/chain/gating.ts), then signalIntent with the
 * protocol's SignalIntentParams. Also the maker's side: accepting a currency at a floor rate.
 */
import { zeroAddress, type Address, type Hash, type Hex, type LocalAccount } from 'viem';
import {
  LOCAL_GATING_SERVICE_INDEX,
  anvilTestAccount,
  escrowAbi,
  orchestratorAbi,
  protocolErrorsAbi,
  signIntentGating,
  type GatedIntent,
  type LocalChain,
} from '../../indexer/chain/index.js';

/** What a test chooses of an intent; the rest of GatedIntent is filled in (no referrer by default). */
export type IntentTerms = Pick<GatedIntent, 'depositId' | 'amount' | 'to' | 'paymentMethod' | 'fiatCurrency' | 'conversionRate'> &
  Partial<Pick<GatedIntent, 'referrer' | 'referrerFee'>>;

export interface SignalOptions {
  /** Who signs the approval; the local gating service by default. */
  gatingSigner?: LocalAccount;
  /** Unix seconds; ten minutes past the chain's latest block by default. */
  signatureExpiration?: bigint;
  /** The address the approval names as caller; the sender by default. */
  approvedOwner?: Address;
  escrow?: Address;
  postIntentHook?: Address;
}

/** Each approval is good for one intent, so two approvals of equal terms differ in their expiry. */
let approvals = 0n;

/** The SignalIntentParams `sender` sends for `terms`, approved by the gating service. */
export async function gatedParams(local: LocalChain, sender: Address, terms: IntentTerms, options: SignalOptions = {}) {
  const signatureExpiration = options.signatureExpiration ?? (await local.publicClient.getBlock()).timestamp + 600n + approvals++;
  const intent = {
    escrow: options.escrow ?? local.escrow,
    depositId: terms.depositId,
    amount: terms.amount,
    to: terms.to,
    paymentMethod: terms.paymentMethod,
    fiatCurrency: terms.fiatCurrency,
    conversionRate: terms.conversionRate,
    referrer: terms.referrer ?? zeroAddress,
    referrerFee: terms.referrerFee ?? 0n,
    signatureExpiration,
  };
  const gatingServiceSignature = await signIntentGating(
    options.gatingSigner ?? anvilTestAccount(LOCAL_GATING_SERVICE_INDEX),
    { chainId: local.chainId, orchestrator: local.orchestrator },
    { ...intent, owner: options.approvedOwner ?? sender },
  );
  return { ...intent, gatingServiceSignature, postIntentHook: options.postIntentHook ?? zeroAddress, data: '0x' as Hex };
}

/** Sends signalIntent as `taker`; resolves with the transaction hash (a revert rejects, with the orchestrator's errors decodable). */
export async function signalOn(local: LocalChain, taker: LocalAccount, terms: IntentTerms, options: SignalOptions = {}): Promise<Hash> {
  const params = await gatedParams(local, taker.address, terms, options);
  return local.walletFor(taker).writeContract({
    address: local.orchestrator,
    abi: [...orchestratorAbi, ...protocolErrorsAbi],
    functionName: 'signalIntent',
    args: [params],
  });
}

/** The maker accepts `currency` on `paymentMethod` at `minRate` (1e18) or better. */
export async function acceptCurrency(local: LocalChain, maker: LocalAccount, depositId: bigint, paymentMethod: Hex, currency: Hex, minRate: bigint) {
  return local.confirm(
    await local.walletFor(maker).writeContract({
      address: local.escrow,
      abi: escrowAbi,
      functionName: 'setCurrencyMinRate',
      args: [depositId, paymentMethod, currency, minRate],
    }),
  );
}
