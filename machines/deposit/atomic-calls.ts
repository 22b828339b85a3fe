/**
 * The rules of an atomic deposit creation's calldata (document 3, atomic-create): each call the
 * maker prepared is decoded against the one protocol function its slot allows, on the one
 * contract that function lives on. Anything else is unsafe: the batch runs as the maker's own
 * wallet, so a call this module lets through is a call the platform submits in their name.
 *
 * The maker cannot know the deposit id before the batch runs, so every call after
 * `createDeposit` names deposit 0, a placeholder the platform replaces with the id it reserved.
 */
import { decodeFunctionData, encodeFunctionData, getAddress, isAddressEqual, type Abi, type Hex } from 'viem';
import { usdcFunctionsAbi, batchExecutorFunctionsAbi, depositAssertionsFunctionsAbi, escrowFunctionsAbi } from './protocol-functions.js';

/** Where the protocol lives on the chain the platform submits to. */
export interface ProtocolTargets {
  chainId: number;
  usdc: Hex;
  escrow: Hex;
  depositAssertions: Hex;
}

/** The body's `calls`, as document 3 names them. */
export interface AtomicCalls {
  approve?: Hex;
  createDeposit: Hex;
  setRateManager?: Hex;
  configureDeposit?: Hex;
  configureDeposits?: Hex[];
  setDisputeProtectionEnabled?: Hex;
  setDisputeProtectionEnabledCalls?: Hex[];
}

/** One checked call of the maker's, in batch order; `takesDepositId` calls get the reserved id inserted. */
export interface SetupCall {
  /** Where it came from in the body, for errors and the inspector: `calls.configureDeposits[1]`. */
  field: string;
  functionName: string;
  target: Hex;
  data: Hex;
  takesDepositId: boolean;
}

export interface BatchCall {
  target: Hex;
  value: bigint;
  data: Hex;
}

export interface CallsRefusal {
  /** INVALID_CALLDATA: not a call of the slot's function at all; UNSAFE_CALLDATA: decodes, but does what the slot must not. */
  code: 'INVALID_CALLDATA' | 'UNSAFE_CALLDATA';
  field: string;
  message: string;
}

export interface CheckedCalls {
  calls: SetupCall[];
  /** USDC base units the deposit takes from the wallet. */
  amount: bigint;
}

/**
 * The escrow functions that configure a deposit the depositor owns, each taking the deposit id
 * first: what `configureDeposit` and `configureDeposits` may hold. Withdrawing, adding funds and
 * anything touching intents are not configuration.
 */
const CONFIGURATION_FUNCTIONS = new Set([
  'setPaymentMethod',
  'setCurrencyMinRate',
  'setRateBounds',
  'setIntentAmountRange',
  'setPrivate',
  'setSellerAutomatedRelease',
]);

type Slot = {
  field: string;
  abi: Abi;
  target: (targets: ProtocolTargets) => Hex;
  allows: (functionName: string) => boolean;
  describe: string;
};

const escrowSlot = (field: string, allows: (name: string) => boolean, describe: string): Slot => ({
  field,
  abi: escrowFunctionsAbi,
  target: (targets) => targets.escrow,
  allows,
  describe,
});

const SLOTS = {
  approve: {
    field: 'calls.approve',
    abi: usdcFunctionsAbi,
    target: (targets) => targets.usdc,
    allows: (name) => name === 'approve',
    describe: 'USDC approve(escrow, amount)',
  },
  createDeposit: escrowSlot('calls.createDeposit', (name) => name === 'createDeposit', "the escrow's createDeposit"),
  setRateManager: escrowSlot('calls.setRateManager', (name) => name === 'setRateManager', "the escrow's setRateManager"),
  configureDeposit: escrowSlot(
    'calls.configureDeposit',
    (name) => CONFIGURATION_FUNCTIONS.has(name),
    `one of the escrow's ${[...CONFIGURATION_FUNCTIONS].join(', ')}`,
  ),
  setDisputeProtectionEnabled: escrowSlot(
    'calls.setDisputeProtectionEnabled',
    (name) => name === 'setDisputeProtectionEnabled',
    "the escrow's setDisputeProtectionEnabled",
  ),
} satisfies Record<string, Slot>;

/** Checks every call of the body and puts them in the order the batch runs them. */
export function checkAtomicCalls(calls: AtomicCalls, targets: ProtocolTargets): CheckedCalls | CallsRefusal {
  const order: Array<[Slot, Hex, string]> = [];
  if (calls.approve) order.push([SLOTS.approve, calls.approve, SLOTS.approve.field]);
  order.push([SLOTS.createDeposit, calls.createDeposit, SLOTS.createDeposit.field]);
  if (calls.setRateManager) order.push([SLOTS.setRateManager, calls.setRateManager, SLOTS.setRateManager.field]);
  if (calls.configureDeposit) order.push([SLOTS.configureDeposit, calls.configureDeposit, SLOTS.configureDeposit.field]);
  (calls.configureDeposits ?? []).forEach((data, index) => order.push([SLOTS.configureDeposit, data, `calls.configureDeposits[${index}]`]));
  if (calls.setDisputeProtectionEnabled)
    order.push([SLOTS.setDisputeProtectionEnabled, calls.setDisputeProtectionEnabled, SLOTS.setDisputeProtectionEnabled.field]);
  (calls.setDisputeProtectionEnabledCalls ?? []).forEach((data, index) =>
    order.push([SLOTS.setDisputeProtectionEnabled, data, `calls.setDisputeProtectionEnabledCalls[${index}]`]),
  );

  const checked: SetupCall[] = [];
  let amount = 0n;
  let approved: bigint | null = null;
  for (const [slot, data, field] of order) {
    let decoded: { functionName: string; args: readonly unknown[] };
    try {
      decoded = decodeFunctionData({ abi: slot.abi, data: data.toLowerCase() as Hex }) as { functionName: string; args: readonly unknown[] };
    } catch {
      return { code: 'INVALID_CALLDATA', field, message: `${field} is not a call this platform knows; it must be ${slot.describe}` };
    }
    if (!slot.allows(decoded.functionName)) {
      return { code: 'UNSAFE_CALLDATA', field, message: `${field} calls ${decoded.functionName}; it may only be ${slot.describe}` };
    }
    const refusal = checkArguments(decoded, field, targets);
    if (refusal) return refusal;
    if (decoded.functionName === 'approve') approved = decoded.args[1] as bigint;
    if (decoded.functionName === 'createDeposit') amount = decoded.args[1] as bigint;
    // Re-encoded from what was decoded, so trailing bytes a decoder ignores never reach the chain.
    const canonical = encodeFunctionData({ abi: slot.abi, functionName: decoded.functionName, args: decoded.args } as never) as Hex;
    checked.push({
      field,
      functionName: decoded.functionName,
      target: getAddress(slot.target(targets)),
      data: canonical,
      takesDepositId: decoded.functionName !== 'approve' && decoded.functionName !== 'createDeposit',
    });
  }
  if (approved !== null && approved < amount) {
    return { code: 'UNSAFE_CALLDATA', field: SLOTS.approve.field, message: `calls.approve allows ${approved} base units but createDeposit takes ${amount}` };
  }
  return { calls: checked, amount };
}

function checkArguments(decoded: { functionName: string; args: readonly unknown[] }, field: string, targets: ProtocolTargets): CallsRefusal | null {
  const { functionName, args } = decoded;
  if (functionName === 'approve') {
    return isAddressEqual(args[0] as Hex, targets.escrow)
      ? null
      : { code: 'UNSAFE_CALLDATA', field, message: `${field} approves ${args[0] as string}; the only spender allowed is the escrow ${targets.escrow}` };
  }
  if (functionName === 'createDeposit') {
    if (!isAddressEqual(args[0] as Hex, targets.usdc)) {
      return { code: 'UNSAFE_CALLDATA', field, message: `${field} deposits token ${args[0] as string}; the only token is USDC ${targets.usdc}` };
    }
    return (args[1] as bigint) > 0n ? null : { code: 'INVALID_CALLDATA', field, message: `${field} deposits nothing; the amount must be above 0` };
  }
  if (args[0] !== 0n) {
    return {
      code: 'INVALID_CALLDATA',
      field,
      message: `${field} names deposit ${String(args[0])}; name deposit 0, which the platform replaces with the id it reserves`,
    };
  }
  return null;
}

/**
 * The batch the wallet signs: the pre-assertion that the escrow's next deposit is the reserved
 * one, the maker's calls with that id inserted, and the post-assertion that the wallet now
 * holds that deposit. Either assertion failing reverts the whole batch.
 */
export function atomicBatch(calls: readonly SetupCall[], depositId: bigint, wallet: Hex, targets: ProtocolTargets): BatchCall[] {
  const assertion = (data: Hex): BatchCall => ({ target: getAddress(targets.depositAssertions), value: 0n, data });
  return [
    assertion(encodeFunctionData({ abi: depositAssertionsFunctionsAbi, functionName: 'assertNextDepositId', args: [targets.escrow, depositId] })),
    ...calls.map((call) => ({ target: call.target, value: 0n, data: call.takesDepositId ? withDepositId(call.data, depositId) : call.data })),
    assertion(encodeFunctionData({ abi: depositAssertionsFunctionsAbi, functionName: 'assertDepositor', args: [targets.escrow, depositId, wallet] })),
  ];
}

/** The call with its first argument, the deposit id, set: it is the first 32-byte word after the selector. */
export function withDepositId(data: Hex, depositId: bigint): Hex {
  return `${data.slice(0, 10)}${depositId.toString(16).padStart(64, '0')}${data.slice(74)}` as Hex;
}

/** The call that runs a signed batch: the executor's `execute`, sent to the wallet itself. */
export function executeData(calls: BatchCall[], nonce: bigint, deadline: bigint, signature: Hex): Hex {
  return encodeFunctionData({ abi: batchExecutorFunctionsAbi, functionName: 'execute', args: [calls, nonce, deadline, signature] });
}

/** The deposit id a batch was built for: the argument of its pre-assertion, its first call. */
export function reservedIdOf(execute: Hex): bigint {
  const { args } = decodeFunctionData({ abi: batchExecutorFunctionsAbi, data: execute });
  const { args: assertion } = decodeFunctionData({ abi: depositAssertionsFunctionsAbi, data: args[0][0]!.data });
  return assertion[1] as bigint;
}
