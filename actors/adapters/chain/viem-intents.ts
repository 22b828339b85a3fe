/**
 * The node's IntentPort over the protocol's orchestrator: the gating service's
 * approval signed for each intent the payment flow signals (indexer/chain/gating.ts),
 * the calls the relayer sends, and the intent a mined signal created, read from its
 * receipt (the orchestrator's IntentSignaled, and the escrow's FundsLocked for the
 * expiry). Payment methods and currencies go on chain as keccak256 of their ids, as
 * deposits name them and attestations do. Extensions read the orchestrator's intent guardian
 * and extension fee, which an orchestrator deployed before extensions (a local chain kept
 * since) lacks: its calls revert, and the port answers that nothing there can be extended.
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  erc20Abi,
  isAddressEqual,
  keccak256,
  parseEventLogs,
  toBytes,
  zeroAddress,
  type Address,
  type Hex,
  type LocalAccount,
  type PublicClient,
} from 'viem';
import type { ChainCallData, ExtensionReadiness, IntentExtensionCode, IntentOnChain, IntentPort, IntentTerms, SignalledIntent } from './intent-port.js';
import { extensionRevertCode } from './intent-extension.js';
import type { PaymentChain } from '../../../machines/payment/index.js';
import { escrowAbi, orchestratorAbi, signIntentGating } from '../../../indexer/chain/index.js';
import { approvalTerms, LocalExpiries, type ExpiryClaims } from './gating-expiries.js';

/** How long a gating approval stays good: it is spent by the signal the relayer sends at once. */
const APPROVAL_SECONDS = 600n;
/** Basis points as the orchestrator's 1e18 fraction of the released amount. */
const BPS_TO_PRECISE = 10n ** 14n;

export interface ViemIntentsOptions {
  client: PublicClient;
  wallets: readonly Hex[];
  gatingSigner: LocalAccount;
  /** Receives the platform's fee; the zero address when there is none. */
  feeRecipient: Address | null;
  /** Where approvals' expiries are kept apart (gating-expiries.ts); in this process unless set, which a cluster must not use. */
  expiries?: ExpiryClaims;
}

export class ViemIntents implements IntentPort {
  readonly wallets: readonly Hex[];
  /** Keeps approvals of equal terms apart by their expiry (gating-expiries.ts). */
  readonly #expiries: ExpiryClaims;

  constructor(private readonly options: ViemIntentsOptions) {
    this.wallets = options.wallets;
    this.#expiries = options.expiries ?? new LocalExpiries();
  }

  async signalCall(chain: PaymentChain, owner: Hex, terms: IntentTerms): Promise<ChainCallData> {
    const { timestamp } = await this.options.client.getBlock();
    const feeRecipient = terms.platformFeeBps > 0 ? this.options.feeRecipient : null;
    const approved = {
      escrow: chain.escrow,
      depositId: terms.depositId,
      amount: terms.amount,
      to: terms.to,
      paymentMethod: keccak256(toBytes(terms.paymentMethod)),
      fiatCurrency: keccak256(toBytes(terms.fiatCurrency)),
      conversionRate: terms.conversionRate,
      referrer: feeRecipient ?? zeroAddress,
      referrerFee: feeRecipient ? BigInt(terms.platformFeeBps) * BPS_TO_PRECISE : 0n,
    };
    const key = approvalTerms({ chainId: chain.chainId, orchestrator: chain.orchestrator, owner, ...approved });
    const intent = { ...approved, signatureExpiration: await this.#expiries.claim(key, timestamp + APPROVAL_SECONDS) };
    const gatingServiceSignature = await signIntentGating(
      this.options.gatingSigner,
      { chainId: chain.chainId, orchestrator: chain.orchestrator },
      { ...intent, owner },
    );
    const data = encodeFunctionData({
      abi: orchestratorAbi,
      functionName: 'signalIntent',
      args: [{ ...intent, gatingServiceSignature, postIntentHook: zeroAddress, data: '0x' }],
    });
    return { to: chain.orchestrator, data };
  }

  async signalledIntent(transactionHash: Hex): Promise<SignalledIntent> {
    const receipt = await this.options.client.getTransactionReceipt({ hash: transactionHash });
    const [signalled] = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentSignaled' });
    if (!signalled) throw new Error(`transaction ${transactionHash} signalled no intent`);
    const { intentHash } = signalled.args;
    // IntentSignaled is the protocol's event and carries no expiry; the escrow's lock of the same intent does.
    const [locked] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'FundsLocked', args: { intentHash } });
    if (!locked) throw new Error(`transaction ${transactionHash} signalled intent ${intentHash} but locked no funds for it`);
    return { intentHash, signalTimestamp: Number(signalled.args.timestamp), expiryTime: Number(locked.args.expiryTime) };
  }

  async intentExpiry(chain: PaymentChain, intentHash: Hex): Promise<number> {
    const intent = await this.options.client.readContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName: 'getIntent', args: [intentHash] });
    return Number(intent.expiryTime);
  }

  fulfilCall(chain: PaymentChain, intentHash: Hex, paymentProof: Hex): ChainCallData {
    return {
      to: chain.orchestrator,
      data: encodeFunctionData({
        abi: orchestratorAbi,
        functionName: 'fulfillIntent',
        args: [{ paymentProof, intentHash, verificationData: '0x', postIntentHookData: '0x' }],
      }),
    };
  }

  cancelCall(chain: PaymentChain, intentHash: Hex): ChainCallData {
    return { to: chain.orchestrator, data: encodeFunctionData({ abi: orchestratorAbi, functionName: 'cancelIntent', args: [intentHash] }) };
  }

  async intentOnChain(chain: PaymentChain, intentHash: Hex): Promise<IntentOnChain | null> {
    const { client } = this.options;
    const intent = await orNullWhenReverted(() =>
      client.readContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName: 'getIntent', args: [intentHash] }),
    );
    if (!intent) return null;
    const guardian = await orNullWhenReverted(() =>
      client.readContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName: 'intentGuardianOf', args: [intentHash] }),
    );
    return {
      timestamp: Number(intent.timestamp),
      expiryTime: Number(intent.expiryTime),
      guardian: guardian && !isAddressEqual(guardian, zeroAddress) ? guardian : null,
    };
  }

  async extensionReadiness(chain: PaymentChain, intent: IntentOnChain): Promise<ExtensionReadiness> {
    const { guardian } = intent;
    const from = guardian ? (this.wallets.find((wallet) => isAddressEqual(wallet, guardian)) ?? null) : null;
    const none: ExtensionReadiness = { from, token: null, fee: 0n, balance: 0n, allowance: 0n };
    if (!guardian) return none;
    const { client } = this.options;
    const [token, fee] = await Promise.all([
      orNullWhenReverted(() => client.readContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName: 'extensionToken' })),
      orNullWhenReverted(() => client.readContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName: 'extensionFee' })),
    ]);
    if (!token || isAddressEqual(token, zeroAddress) || !fee) return none;
    const [balance, allowance] = await Promise.all([
      client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [guardian] }),
      client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [guardian, chain.orchestrator] }),
    ]);
    return { from, token, fee, balance, allowance };
  }

  extendCall(chain: PaymentChain, intentHash: Hex, additionalSeconds: number): ChainCallData {
    return {
      to: chain.orchestrator,
      data: encodeFunctionData({ abi: orchestratorAbi, functionName: 'extendIntentExpiry', args: [intentHash, BigInt(additionalSeconds)] }),
    };
  }

  extensionRevertCode(revertData: Hex | null): IntentExtensionCode {
    return extensionRevertCode(revertData);
  }
}

/** A read the chain refused (the intent has ended, or the orchestrator has no such function) is null; the node failing to answer still throws. */
async function orNullWhenReverted<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof BaseError && error.walk((cause) => cause instanceof ContractFunctionRevertedError)) return null;
    throw error;
  }
}
