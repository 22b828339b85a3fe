/**
 * The payout-only policy the payout signer is attached under (document 2, "Customer checkout
 * behaviour that is fixed"): the only batches the customer's wallet signs for the platform. The
 * wallet provider enforces it, so a bug or a compromise on our side cannot make the signer move
 * the customer's USDC anywhere but into the customer's own escrow listing, back out of it, or to
 * an address in sends of at most 1,000 USDC.
 *
 * Each call is judged on what the chain would run: its value, its target, its function (by
 * selector, against the protocol ABIs) and its arguments, and its calldata must be exactly the
 * encoding of what it decodes to, so no decoder can read it otherwise than this one did.
 */
import { decodeFunctionData, encodeFunctionData, toFunctionSelector, zeroAddress, type Abi, type AbiFunction, type Hex } from 'viem';
import {
  BATCH_EXECUTOR_DOMAIN,
  BATCH_TYPES,
  depositAssertionsFunctionsAbi,
  escrowFunctionsAbi,
  usdcFunctionsAbi,
  type BatchCall,
  type BatchTypedData,
  type ProtocolTargets,
} from '../deposit/index.js';

/** 1,000 USDC in base units: the most one transfer the signer signs may send (document 2, Limits: signer transfer cap). */
export const PAYOUT_SIGNER_TRANSFER_CAP = 1_000_000_000n;

/** Where the protocol lives, and the code the customer's wallet delegates to so a sponsor can run its batches. */
export type PayoutSignerTargets = ProtocolTargets & { batchExecutor: Hex };

export type CallRefusalCode =
  | 'VALUE_NOT_ALLOWED'
  | 'TARGET_NOT_ALLOWED'
  | 'FUNCTION_NOT_ALLOWED'
  | 'CALLDATA_INVALID'
  | 'ARGUMENT_NOT_ALLOWED'
  | 'TRANSFER_ABOVE_CAP';

/** A call of the batch the policy refuses: the first one, by its place in the batch. */
export interface CallRefusal {
  index: number;
  code: CallRefusalCode;
  reason: string;
}

/** A refusal of what is signed as a whole: a batch under another domain, or a delegation to other code. */
export interface SigningRefusal {
  index: null;
  code: 'DOMAIN_NOT_ALLOWED' | 'DELEGATION_NOT_ALLOWED';
  reason: string;
}

export type PolicyRefusal = CallRefusal | SigningRefusal;

type Refusal = Omit<CallRefusal, 'index'>;
type Rule = (args: readonly unknown[], targets: PayoutSignerTargets) => Refusal | null;

const same = (a: unknown, b: string): boolean => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
const allowed: Rule = () => null;
const argument = (reason: string): Refusal => ({ code: 'ARGUMENT_NOT_ALLOWED', reason });

/** USDC sent to one of these is gone: none of them can send it back to the customer. */
const unspendable = (targets: PayoutSignerTargets): Array<[string, Hex]> => [
  ['the zero address', zeroAddress],
  ['the USDC contract', targets.usdc],
  ['the escrow', targets.escrow],
  ['the deposit assertions contract', targets.depositAssertions],
  ['the batch executor', targets.batchExecutor],
];

const USDC_RULES: Record<string, Rule> = {
  // The escrow pulls what createDeposit and addFunds take; any amount, since what it pulls
  // lands in the customer's own deposit. No other spender: an allowance is a send without a cap.
  approve: ([spender], targets) =>
    same(spender, targets.escrow) ? null : argument(`approve names spender ${String(spender)}; the only spender is the escrow ${targets.escrow}`),
  // The customer's send to an address: up to the cap, never to a contract that would keep it.
  transfer: ([to, amount], targets) => {
    const kept = unspendable(targets).find(([, address]) => same(to, address));
    if (kept) return argument(`transfer sends to ${kept[0]} ${String(to)}, which never gives it back`);
    if ((amount as bigint) > PAYOUT_SIGNER_TRANSFER_CAP) {
      return {
        code: 'TRANSFER_ABOVE_CAP',
        reason: `transfer sends ${String(amount)} base units; the most one transfer may send is ${PAYOUT_SIGNER_TRANSFER_CAP}`,
      };
    }
    return null;
  },
};

/**
 * What a payout listing does in the escrow, and nothing more. A listing is createDeposit of
 * USDC, then per payment method setPaymentMethod (the customer's payee) and setCurrencyMinRate
 * (the currency and its price floor); adding the merchant group to a Venmo or PayPal listing is
 * setPrivate, which makes the listing whitelist-gated so the gating service signs intents only
 * for the takers the group allows. A relist fits the listing to what is left
 * (setIntentAmountRange, setCurrencyMinRate again) or tops it up (addFunds); withdrawDeposit
 * returns everything unlocked to the wallet. Every one of these acts on a deposit the wallet
 * owns, and the escrow itself refuses them on anyone else's.
 *
 * Left out on purpose: setRateManager and setRateBounds (a rate manager could lower the floor of
 * the customer's listing; the checkout sets its price itself), setDisputeProtectionEnabled and
 * setSellerAutomatedRelease (makers' options a payout does not use), updateMinConversionRate
 * (only a rate manager may call it).
 */
const ESCROW_RULES: Record<string, Rule> = {
  // Only USDC, and no delegate or guardian: a delegate may change the payee of the customer's
  // listing (where buyers send their fiat), so the wallet stays the listing's only manager.
  createDeposit: ([token, , , delegate, intentGuardian], targets) => {
    if (!same(token, targets.usdc)) return argument(`createDeposit deposits token ${String(token)}; the only token is USDC ${targets.usdc}`);
    if (!same(delegate, zeroAddress)) return argument(`createDeposit names delegate ${String(delegate)}; a payout listing has none`);
    if (!same(intentGuardian, zeroAddress)) return argument(`createDeposit names intent guardian ${String(intentGuardian)}; a payout listing has none`);
    return null;
  },
  addFunds: allowed,
  withdrawDeposit: allowed,
  setPaymentMethod: allowed,
  setCurrencyMinRate: allowed,
  setIntentAmountRange: allowed,
  setPrivate: allowed,
};

/** The pre and post assertions an atomic batch opens and closes with: views, which move nothing. */
const ASSERTION_RULES: Record<string, Rule> = {
  assertNextDepositId: allowed,
  assertDepositor: allowed,
};

interface Contract {
  name: string;
  address: (targets: PayoutSignerTargets) => Hex;
  abi: Abi;
  /** Every function of the ABI by selector, so a refusal names a known function it refuses. */
  functions: Map<string, string>;
  rules: Record<string, Rule>;
}

const contract = (name: string, address: (targets: PayoutSignerTargets) => Hex, abi: Abi, rules: Record<string, Rule>): Contract => ({
  name,
  address,
  abi,
  functions: new Map(abi.filter((item): item is AbiFunction => item.type === 'function').map((item) => [toFunctionSelector(item), item.name])),
  rules,
});

const CONTRACTS: readonly Contract[] = [
  contract('USDC', (targets) => targets.usdc, usdcFunctionsAbi, USDC_RULES),
  contract('the escrow', (targets) => targets.escrow, escrowFunctionsAbi, ESCROW_RULES),
  contract('the deposit assertions contract', (targets) => targets.depositAssertions, depositAssertionsFunctionsAbi, ASSERTION_RULES),
];

/** The first call of `calls` the policy refuses, or null when it allows them all. */
export function policyRefusal(calls: readonly BatchCall[], targets: PayoutSignerTargets): CallRefusal | null {
  for (const [index, call] of calls.entries()) {
    const refusal = callRefusal(call, targets);
    if (refusal) return { index, ...refusal };
  }
  return null;
}

function callRefusal(call: BatchCall, targets: PayoutSignerTargets): Refusal | null {
  // Gas is sponsored and the policy sends USDC only: a call never carries the wallet's ether.
  if (call.value !== 0n) return { code: 'VALUE_NOT_ALLOWED', reason: `the call sends ${call.value} wei; a payout call sends none` };
  const target = CONTRACTS.find((known) => same(call.target, known.address(targets)));
  if (!target) return { code: 'TARGET_NOT_ALLOWED', reason: `${call.target} is none of USDC, the escrow and the deposit assertions contract` };
  const selector = call.data.slice(0, 10).toLowerCase();
  const name = target.functions.get(selector);
  if (!name || !Object.hasOwn(target.rules, name)) {
    const allowedNames = Object.keys(target.rules).join(', ');
    return { code: 'FUNCTION_NOT_ALLOWED', reason: `${name ?? `selector ${selector}`} is not allowed on ${target.name}; only ${allowedNames}` };
  }
  let args: readonly unknown[];
  try {
    args = decodeFunctionData({ abi: target.abi, data: call.data }).args ?? [];
  } catch {
    return { code: 'CALLDATA_INVALID', reason: `the calldata of ${name} does not decode` };
  }
  const canonical = encodeFunctionData({ abi: target.abi, functionName: name, args } as never);
  if (canonical.toLowerCase() !== call.data.toLowerCase()) {
    return { code: 'CALLDATA_INVALID', reason: `the calldata of ${name} is not the plain encoding of its arguments` };
  }
  return target.rules[name]!(args, targets);
}

/**
 * Whether the wallet at `wallet` may sign `typedData`: a batch for its own account on the
 * policy's chain (the executor's domain, naming the wallet as verifying contract), whose calls
 * the policy allows.
 */
export function batchRefusal(typedData: BatchTypedData, wallet: Hex, targets: PayoutSignerTargets): PolicyRefusal | null {
  const { domain } = typedData;
  const batchOfThisWallet =
    domain.name === BATCH_EXECUTOR_DOMAIN.name &&
    domain.version === BATCH_EXECUTOR_DOMAIN.version &&
    domain.chainId === targets.chainId &&
    same(domain.verifyingContract, wallet) &&
    typedData.primaryType === 'Batch' &&
    JSON.stringify(typedData.types) === JSON.stringify(BATCH_TYPES);
  if (!batchOfThisWallet) {
    return {
      index: null,
      code: 'DOMAIN_NOT_ALLOWED',
      reason: `the signer signs only the batch executor's Batch for ${wallet} on chain ${targets.chainId}`,
    };
  }
  return policyRefusal(typedData.message.calls, targets);
}

/**
 * Whether the wallet may delegate its code to `contractAddress` (EIP-7702): only to the batch
 * executor, on the policy's chain. Other code would run as the wallet with no policy at all, and a
 * chain id of 0 would let the delegation be replayed on every chain.
 */
export function delegationRefusal(request: { contractAddress: Hex; chainId: number }, targets: PayoutSignerTargets): SigningRefusal | null {
  if (same(request.contractAddress, targets.batchExecutor) && request.chainId === targets.chainId) return null;
  return {
    index: null,
    code: 'DELEGATION_NOT_ALLOWED',
    reason: `the signer delegates only to the batch executor ${targets.batchExecutor} on chain ${targets.chainId}, not to ${request.contractAddress} on chain ${request.chainId}`,
  };
}
