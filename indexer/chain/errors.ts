/**
 * Every custom error our contracts can revert with. A revert inside the escrow or the verifier
 * surfaces through the orchestrator's call, whose own ABI does not list it; give this to viem
 * beside a contract's ABI and a revert decodes to its name and arguments.
 */
import { batchExecutorAbi, depositAssertionsAbi, escrowAbi, mockUSDCAbi, orchestratorAbi, unifiedPaymentVerifierAbi } from './artifacts/index.js';

const contractAbis = [...batchExecutorAbi, ...depositAssertionsAbi, ...escrowAbi, ...mockUSDCAbi, ...orchestratorAbi, ...unifiedPaymentVerifierAbi];
type ErrorItem = Extract<(typeof contractAbis)[number], { type: 'error' }>;

export const protocolErrorsAbi: readonly ErrorItem[] = contractAbis.filter((item): item is ErrorItem => item.type === 'error');
