/**
 * A payment as the gateway will create it, for tests that drive the payment actor
 * directly: the maker's deposit on the node's local chain (Venmo, USD), the order's
 * attempt priced and quoted against it, and the buyer's side in the platform simulator.
 */
import { keccak256, toBytes, zeroAddress, type Hex } from 'viem';
import { acceptCurrency } from './local-intent.js';
import { depositOn } from './local-deposit.js';
import { anvilTestAccount, escrowAbi, type LocalChain } from '../../indexer/chain/index.js';
import type { FeeSchedule, PaymentChain, PaymentInput } from '../../machines/index.js';
import { livePaymentInput, pricedAttempt, sandboxPaymentInput } from './payment-input.js';
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

/** The attempt on the deposit `venmoDeposit` made (or, with no chain, a sandbox one), for `owedUsdc` paid to `destination`. */
export function attemptInput(options: AttemptOptions): PaymentInput {
  const make = options.chain ? livePaymentInput : sandboxPaymentInput;
  return make({
    id: options.id,
    orderId: options.orderId,
    merchantId: options.merchantId,
    attestationServiceUrl: 'http://127.0.0.1/attestation',
    quote: {
      processorName: 'venmo',
      depositId: options.depositId.toString(),
      payeeDetails: keccak256(toBytes(MAKER_PAYEE)),
      escrowAddress: options.chain?.escrow ?? zeroAddress,
      toAddress: options.destination,
      fiatCurrencyCode: 'USD',
      conversionRate: RATE,
      sellerAutomatedRelease: false,
    },
    ...pricedAttempt(options.owedUsdc, options.fees, RATE, options.feePayer),
    payTo: MAKER_PAYEE,
    recipientRating: 5,
    chain: options.chain,
    at: options.at,
  });
}
