/**
 * A checkout customer of document 1 buying part of a payout's listing on a test node with the
 * local chain, the attestation service and its platform simulator: an order of `usdc` on the
 * listing's rail, a payment that takes the listing (quoted with the customer's handle as payTo),
 * the fiat sent to the payout customer in the platform simulator, the proof sealed and sent,
 * and the payment read SETTLED.
 */
import type { Hex } from 'viem';
import type { CheckoutPayment } from '../../machines/payment/index.js';
import { BuyerSimulator, sealForPayment } from './buyer-simulator.js';
import { answerOf, placeOrder, type PlacedOrder } from './checkout.js';
import type { TestGateway } from './gateway.js';
import { untilOnClock } from './real-time-poll.js';

export interface PayoutBuyer {
  /** Buys `usdc` of the listing paying `payTo` on `rail`, as the buyer `who` of the platform simulator; `matched` waits for the payout to read PAYING. */
  buy(usdc: string, who: string, matched?: () => Promise<unknown>): Promise<CheckoutPayment>;
}

export function payoutBuyer(gateway: TestGateway, merchantKey: string, rail: string, payTo: string): PayoutBuyer {
  const { node } = gateway;
  const enclaveSide = node.enclave!;
  const trusted = { measurement: enclaveSide.service.attestationDocument().measurement, signer: enclaveSide.service.signer };
  const chainId = node.payments.chain!.chainId;
  const simulator = new BuyerSimulator(enclaveSide.simulator!.url);
  const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) => untilOnClock(gateway.clock, read, done, what);
  return {
    async buy(usdc, who, matched) {
      const order: PlacedOrder = await placeOrder(gateway, merchantKey, { requestedUsdcAmount: usdc });
      await until(
        () => order.customer('GET', `/quotes?rail=${rail}&quoteLimit=10`),
        (answer) => answer.status === 200 && answer.body.responseObject.platforms.some((quote: { payTo: string }) => quote.payTo === payTo),
        'the payout listing to be quoted',
      );
      const payment = answerOf(await order.customer('POST', '/payments', { rail }), 201, 'the payment') as CheckoutPayment;
      if (payment.payTo !== payTo) throw new Error(`the payment pays ${payment.payTo}, not the payout customer ${payTo}`);
      const signalled = (await until(
        async () => answerOf(await order.customer('GET', `/payments/${payment.id}`), 200, 'the payment') as CheckoutPayment,
        (read) => read.railIdentifier !== null,
        'the intent signalled',
      )) as CheckoutPayment & { railIdentifier: Hex };
      await matched?.();
      const session = await simulator.signIn(rail, who);
      const sent = await simulator.pay(session, {
        payee: payTo,
        amount: signalled.paymentAmount,
        currency: signalled.currency,
        note: signalled.suggestedMemo!,
      });
      const encryptedSessionMaterial = await sealForPayment(signalled.attestation.serviceUrl, trusted, session, {
        chainId,
        intentHash: signalled.railIdentifier,
      });
      answerOf(await order.customer('POST', `/payments/${payment.id}/proof`, { encryptedSessionMaterial, params: sent.proofParams }), 202, 'the proof');
      return until(
        async () => answerOf(await order.customer('GET', `/payments/${payment.id}`), 200, 'the payment') as CheckoutPayment,
        (read) => read.status === 'SETTLED',
        'the buyer’s payment settled',
      );
    },
  };
}
