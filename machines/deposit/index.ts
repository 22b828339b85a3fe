/**
 * machines/deposit: a maker's atomic deposit creation (document 3, atomic-create): the rules
 * its calldata must meet, the batch and signature built from it, and the machine that holds
 * the request from submission to a confirmed deposit.
 */
export { atomicBatch, checkAtomicCalls, executeData, reservedIdOf, withDepositId } from './atomic-calls.js';
export type { AtomicCalls, BatchCall, CallsRefusal, CheckedCalls, ProtocolTargets, SetupCall } from './atomic-calls.js';
export { BATCH_EXECUTOR_DOMAIN, BATCH_TYPES, batchNonce, batchTypedData } from './batch-signature.js';
export type { BatchTypedData } from './batch-signature.js';
export type { DepositContext, DepositEvent, DepositFailure, DepositFailureCode, DepositRequest } from './deposit-types.js';
export { batchTransactionId, depositMachine, depositStatusOf, MAX_SUBMISSIONS } from './deposit-machine.js';
export type { DepositStatus } from './deposit-machine.js';
export { batchExecutorFunctionsAbi, depositAssertionsFunctionsAbi, escrowFunctionsAbi, usdcFunctionsAbi } from './protocol-functions.js';
