/**
 * A payment as the gateway will create it, for tests that drive the payment actor
 * directly: the maker's deposit on the node's local chain (Venmo, USD), the order's
 * attempt priced and quoted against it, and the buyer's side in the platform simulator.
 */
import { keccak256, toBytes, type Hex } from 'viem';
import { acceptCurrency } from './local-intent.js';
import { depositOn } from './local-deposit.js';
import { anvilTestAccount, escrowAbi, type LocalChain } from '../../indexer/chain/index.js';
import { buyerShareBps, fiatOwed, priceIntent, type FeeSchedule, type PaymentChain, type PaymentInput } from '../../machines/index.js';
import type { FeePayer } from '../../machines/merchant/index.js';

export const MAKER = anvilTestAccount(2);
export const MAKER_PAYEE = '3141592653';
export const RATE = 1_013_700_000_000_000_000n;

export async function venmoDeposit(local: LocalChain, amount = 1_000_000_000n): Promise<bigint> {
  await local.mintUsdc(MAKER.address, amount);
  const { depositId } = await depositOn(local, MAKER, amount, { range: { min: 1_000_000n, max: amount } });
  await local.confirm(
    await local.walletFor(MAKER).writeContract({
      address: local.escrow,
      abi: escrowAbi,
      functionName: 'setPaymentMethod',
      args: [depositId, keccak256(toBytes('venmo')), keccak256(toBytes(MAKER_PAYEE))],
    }),
  );
  await acceptCurrency(local, MAKER, depositId, keccak256(toBytes('venmo')), keccak256(toBytes('USD')), RATE);
  return depositId;
}

export interface AttemptOptions {
  id: string;
  orderId: string;
  merchantId: string;
  owedUsdc: bigint;
  destination: Hex;
  depositId: bigint | string;
  chain: PaymentChain | null;
  fees: FeeSchedule;
  feePayer?: FeePayer;
  at: string;
}

export function attemptInput(options: AttemptOptions): PaymentInput {
  const feePayer = options.feePayer ?? 'MERCHANT';
  const price = priceIntent(options.owedUsdc, options.fees, buyerShareBps(feePayer, 0));
  return {
    id: options.id,
    orderId: options.orderId,
    merchantId: options.merchantId,
    environment: options.chain ? 'LIVE' : 'SANDBOX',
    rail: 'venmo',
    paymentMethodId: null,
    currency: 'USD',
    proofMode: options.chain ? 'BUYER_TEE' : 'SIMULATED',
    attestationServiceUrl: 'http://127.0.0.1/attestation',
    quote: {
      processorName: 'venmo',
      depositId: options.depositId.toString(),
      payeeDetails: keccak256(toBytes(MAKER_PAYEE)),
      escrowAddress: options.chain?.escrow ?? '0x0000000000000000000000000000000000000000',
      toAddress: options.destination,
      fiatCurrencyCode: 'USD',
      conversionRate: RATE,
      sellerAutomatedRelease: false,
    },
    price,
    fees: options.fees,
    feePayer,
    paymentAmountCents: fiatOwed(price.releasedUsdc, RATE),
    payTo: MAKER_PAYEE,
    recipientRating: 5,
    memoPolicy: 'OPTIONAL',
    windowMs: 60 * 60 * 1000,
    chain: options.chain,
    at: options.at,
  };
}
