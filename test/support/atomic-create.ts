/**
 * Building an atomic-create request as a maker's client would: calldata for the local chain's
 * USDC and escrow, every call after createDeposit naming deposit 0, and a maker signed in with
 * one of the local wallet provider's embedded wallets.
 */
import { randomUUID } from 'node:crypto';
import { encodeFunctionData, type Address, type Hex } from 'viem';
import { idHash } from '../../machines/index.js';
import { escrowAbi, localEmbeddedAccount, mockUSDCAbi, type LocalChain } from '../../indexer/chain/index.js';
import type { TestGateway } from './gateway.js';
import { signIn } from './maker-sign-in.js';

const ZERO = '0x0000000000000000000000000000000000000000';

export const approveCall = (local: LocalChain, amount: bigint, spender: Address = local.escrow): Hex =>
  encodeFunctionData({ abi: mockUSDCAbi, functionName: 'approve', args: [spender, amount] });

export const createDepositCall = (local: LocalChain, amount: bigint, token: Address = local.usdc): Hex =>
  encodeFunctionData({ abi: escrowAbi, functionName: 'createDeposit', args: [token, amount, { min: 1_000_000n, max: amount }, ZERO, ZERO] });

export const paymentMethodCall = (platform: string, payee: string, depositId = 0n): Hex =>
  encodeFunctionData({ abi: escrowAbi, functionName: 'setPaymentMethod', args: [depositId, idHash(platform), idHash(payee)] });

export const minRateCall = (platform: string, currency: string, rate: bigint): Hex =>
  encodeFunctionData({ abi: escrowAbi, functionName: 'setCurrencyMinRate', args: [0n, idHash(platform), idHash(currency), rate] });

export const disputeProtectionCall = (enabled: boolean): Hex =>
  encodeFunctionData({ abi: escrowAbi, functionName: 'setDisputeProtectionEnabled', args: [0n, enabled] });

/** A complete request: approve, create, accept one platform in one currency, dispute protection on. */
export function depositRequest(local: LocalChain, amount: bigint, requestId: string = randomUUID()) {
  return {
    requestId,
    calls: {
      approve: approveCall(local, amount),
      createDeposit: createDepositCall(local, amount),
      configureDeposit: paymentMethodCall('venmo', '@maker-atomic'),
      configureDeposits: [minRateCall('venmo', 'USD', 1_010_000_000_000_000_000n)],
      setDisputeProtectionEnabled: disputeProtectionCall(true),
    },
  };
}

/** Signs in the local wallet provider's embedded wallet `index` (funded with 10,000 USDC when the node started). */
export async function signInEmbedded(gateway: TestGateway, index = 0) {
  return signIn(gateway, localEmbeddedAccount(index));
}

export function atomicCreate(gateway: TestGateway, headers: Record<string, string>, body: unknown) {
  return gateway.request('POST', '/v2/deposits/atomic-create', { headers, body });
}

export function atomicCreateStatus(gateway: TestGateway, headers: Record<string, string>, requestId: string) {
  return gateway.request('GET', `/v2/deposits/atomic-create/${requestId}`, { headers });
}
