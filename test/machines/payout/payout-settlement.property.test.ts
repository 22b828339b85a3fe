/**
 * Property (issue 39, Checks): however buyers come and go on a payout's listings and whatever
 * the customer does, what the payout says it paid adds up and its USDC goes only where it may.
 * For every run of buyer facts (locks of any size, releases, payments of part or of the rest,
 * facts of other deposits and intents, retracted ones) and customer steps (the rest sent to an
 * address, mined or reverted; sent through the provider, delivered or refunded short; the
 * listing taken back; a new listing; the wallet spent), each delivered once or twice, on a funded
 * payout of any deposit: paidAmount never exceeds the deposit and is the sum of the buyers'
 * payments; each partial fill is a payment that left a rest; the wallet is only ever asked to
 * send to the customer's own address or to the provider delivering to it; once SETTLED,
 * buyerPaid + sent + returned + dust + refundFee is the deposit; and every payment is announced
 * once (MATCHED per buyer who started paying, PARTIALLY_PAID per partial fill, SETTLED once).
 */
import test from 'ava';
import fc from 'fast-check';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { payoutMachine, type PayoutContext, type PayoutEvent, type PayoutInput } from '../../../machines/payout/index.js';
import { topState } from '../../../machines/top-state.js';

const USDC = 1_000_000n;
const AT = '2026-11-23T12:00:00.000Z';
const DEPOSIT = '7';
/** The escrow's dust threshold: 0.01 USDC. */
const DUST = 10_000n;

function input(): PayoutInput {
  return {
    id: 'po_property',
    merchantId: 'mer_1',
    idempotencyKey: 'payout-property-1',
    requestHash: 'c0ffee',
    customerEmail: 'ana@example.com',
    merchantReference: null,
    returnUrl: null,
    payoutUsdc: 1_000n * USDC,
    funding: { chainId: 8453, tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6, stable: true, refundAddress: null },
    terms: {
      rails: ['zelle'],
      merchantFeeBps: 0,
      merchantWalletAddress: null,
      serviceFeeBps: 0,
      serviceWalletAddress: '0x5555555555555555555555555555555555555555',
      payoutStepUsdc: USDC,
    },
    bufferUsdc: 0n,
    expectedUsdc: 1_000n * USDC,
    depositUsdc: 1_000n * USDC,
    merchantFeeUsdc: 0n,
    fundingWindowMs: 86_400_000,
    pollMs: 30_000,
    at: AT,
  };
}

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** A funded payout of `received` USDC, its customer on Zelle, listed on deposit 7. */
function listed(received: bigint): AnyMachineSnapshot {
  let [snapshot] = initialTransition(payoutMachine, input());
  const steps: PayoutEvent[] = [
    {
      type: 'PREPARED',
      walletAddress: '0x6666666666666666666666666666666666666666',
      walletUserId: 'u1',
      requestId: 'r1',
      depositAddress: '0x7777777777777777777777777777777777777777',
      fundingAmount: received.toString(),
      at: AT,
    },
    {
      type: 'FUNDING_OBSERVED',
      transfers: [
        {
          id: 't1',
          status: 'delivered',
          originAmount: received.toString(),
          startedAt: AT,
          swept: true,
          sourceTransactionHash: hash(1),
          deliveredUsdc: received.toString(),
          deliveryTransactionHash: hash(2),
          refundTransactionHash: null,
        },
      ],
      at: AT,
    },
    {
      type: 'SAVE_METHOD',
      method: {
        kind: 'FIAT',
        rail: 'zelle',
        handle: 'ana@example.com',
        payeeId: 'ana@example.com',
        currency: 'USD',
        paypalEmail: null,
        connection: 'NOT_NEEDED',
      },
      at: AT,
    },
    { type: 'CONFIRM', minUsdc: USDC.toString(), rate: (10n ** 18n).toString(), at: AT },
    { type: 'LISTED', listing: 1, depositId: DEPOSIT, requestId: 'po_property-listing-1', dustUsdc: DUST.toString(), at: AT },
  ];
  for (const event of steps) [snapshot] = transition(payoutMachine, snapshot, event);
  return snapshot;
}

/** What a run may deliver: a buyer fact (what it says is drawn; whose intent, from the run's buyers), or something the customer does with its outcome. */
const factArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('lock' as const), buyer: fc.integer({ min: 1, max: 3 }), amount: fc.bigInt({ min: 1n, max: 1_000n * USDC }) }),
  fc.record({ kind: fc.constant('release' as const), buyer: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('pay' as const), buyer: fc.integer({ min: 1, max: 3 }), share: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('payRest' as const), buyer: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('otherDeposit' as const), buyer: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('retracted' as const), buyer: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('withdrawn' as const), buyer: fc.integer({ min: 1, max: 3 }) }),
  // The escrow sweeping a rest of up to 0.01 USDC as the last buyer pays the rest of it.
  fc.record({ kind: fc.constant('payAllButDust' as const), buyer: fc.integer({ min: 1, max: 3 }), dust: fc.bigInt({ min: 1n, max: DUST }) }),
  fc.record({ kind: fc.constant('dustSwept' as const), buyer: fc.integer({ min: 1, max: 3 }) }),
  // The customer: send the rest to an address (straight, or through the provider, which delivers or refunds short), take the listing back, or spend the wallet.
  fc.record({ kind: fc.constant('sendRest' as const), mined: fc.boolean() }),
  fc.record({ kind: fc.constant('bridgeRest' as const), delivered: fc.boolean(), shortBy: fc.bigInt({ min: 0n, max: 5n * USDC }) }),
  fc.record({ kind: fc.constant('withdraw' as const) }),
  fc.record({ kind: fc.constant('bridgeAll' as const), delivered: fc.boolean(), shortBy: fc.bigInt({ min: 0n, max: 5n * USDC }) }),
  fc.record({ kind: fc.constant('relist' as const) }),
  fc.record({ kind: fc.constant('walletSpent' as const) }),
);

type Fact = typeof factArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** Where the customer's own address and the provider's deposit address are: the only places a send may go. */
const CUSTOMER_ADDRESS = '0x9999999999999999999999999999999999999999';
const PROVIDER_DEPOSIT = '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const BASE_USDC = { chainId: 8453, tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 };
const baseMethod = {
  kind: 'CRYPTO' as const,
  rail: 'routea_8453' as const,
  destination: { ...BASE_USDC, address: CUSTOMER_ADDRESS, sentTo: CUSTOMER_ADDRESS },
};
const usdtMethod = {
  kind: 'CRYPTO' as const,
  rail: 'routea_42161' as const,
  destination: {
    chainId: 42161,
    tokenAddress: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9',
    symbol: 'USDT',
    decimals: 6,
    address: CUSTOMER_ADDRESS,
    sentTo: CUSTOMER_ADDRESS,
  },
};
const zelle = {
  kind: 'FIAT' as const,
  rail: 'zelle' as const,
  handle: 'ana@example.com',
  payeeId: 'ana@example.com',
  currency: 'USD' as const,
  paypalEmail: null,
  connection: 'NOT_NEEDED' as const,
};

const unpaidOf = (context: PayoutContext) => {
  const left = (context.depositAmount ?? 0n) - context.paidUsdc - context.refundFeeUsdc;
  return left > 0n ? left : 0n;
};

function outcome(context: PayoutContext, mined: boolean, n: number): PayoutEvent {
  return {
    type: 'TRANSACTION_OUTCOME',
    transactionId: `po_property-send-${context.sends}`,
    purpose: 'payoutSend',
    outcome: {
      status: mined ? 'MINED' : 'FAILED',
      hash: hash(5000 + n) as `0x${string}`,
      blockNumber: 9n,
      gasUsed: 1n,
      effectiveGasPrice: 1n,
      reason: mined ? null : 'Reverted()',
      revertData: null,
      at: Date.parse(AT) + n * 1000,
    },
  };
}

function quote(context: PayoutContext, n: number) {
  const usdc = unpaidOf(context);
  return {
    requestId: `bridge-${n}`,
    provider: 'ROUTEA' as const,
    depositAddress: PROVIDER_DEPOSIT,
    usdcAmount: usdc.toString(),
    estimatedAmount: usdc.toString(),
    quotedAt: AT,
  };
}

function bridgeOutcome(context: PayoutContext, delivered: boolean, shortBy: bigint, n: number): PayoutEvent {
  const bridge = context.bridges.at(-1);
  const sent = bridge?.usdcAmount ?? 0n;
  const refunded = sent > shortBy ? sent - shortBy : 0n;
  return {
    type: 'BRIDGE_OBSERVED',
    requestId: bridge?.requestId ?? 'none',
    status: delivered ? 'DELIVERED' : 'REFUNDED',
    deliveredAmount: delivered ? sent.toString() : null,
    destinationTxHash: delivered ? hash(6000 + n) : null,
    refundedUsdc: delivered ? null : refunded.toString(),
    refundTxHash: delivered ? null : hash(7000 + n),
    at: new Date(Date.parse(AT) + n * 1000).toISOString(),
  };
}

/** The events of a step, each made from the payout as the one before it left it. */
function eventsOf(fact: Fact, n: number): Array<(context: PayoutContext) => PayoutEvent> {
  const at = new Date(Date.parse(AT) + n * 1000).toISOString();
  switch (fact.kind) {
    case 'sendRest':
      return [
        (context) => ({ type: 'SEND_TO_ADDRESS', method: baseMethod, remainderUsdc: unpaidOf(context).toString(), bridge: null, at }),
        (context) => outcome(context, fact.mined, n),
      ];
    case 'bridgeRest':
      return [
        (context) => ({ type: 'SEND_TO_ADDRESS', method: usdtMethod, remainderUsdc: unpaidOf(context).toString(), bridge: quote(context, n), at }),
        (context) => outcome(context, true, n),
        (context) => bridgeOutcome(context, fact.delivered, fact.shortBy, n),
      ];
    case 'withdraw':
      return [() => ({ type: 'WITHDRAW', at }), (context) => outcome(context, true, n)];
    case 'bridgeAll':
      return [
        () => ({ type: 'SAVE_METHOD', method: usdtMethod, at }),
        (context) => ({ type: 'CONFIRM', minUsdc: USDC.toString(), rate: (10n ** 18n).toString(), bridge: quote(context, n), at }),
        (context) => outcome(context, true, n),
        (context) => bridgeOutcome(context, fact.delivered, fact.shortBy, n),
      ];
    case 'relist':
      return [
        () => ({ type: 'SAVE_METHOD', method: zelle, at }),
        () => ({ type: 'CONFIRM', minUsdc: USDC.toString(), rate: (10n ** 18n).toString(), at }),
        (context) => ({
          type: 'LISTED',
          listing: context.listings,
          depositId: DEPOSIT,
          requestId: `po_property-listing-${context.listings}`,
          dustUsdc: DUST.toString(),
          at,
        }),
      ];
    case 'walletSpent':
      return [(context) => ({ type: 'WALLET_CHECKED', balanceUsdc: '0', at: new Date(Date.parse(context.fundedAt ?? AT) + 11 * 60 * 1000).toISOString() })];
    default:
      return [(context) => buyerFact(fact, context, n)];
  }
}

function buyerFact(fact: Extract<Fact, { buyer: number }>, context: PayoutContext, n: number): PayoutEvent {
  const intentHash = hash(100 + fact.buyer);
  const unpaid = unpaidOf(context);
  const base = { id: `f${n}`, transactionHash: hash(1000 + n), blockTimestamp: String(Date.parse(AT) / 1000 + n) };
  const transferred = (amount: bigint) => ({
    depositId: DEPOSIT,
    intentHash,
    unlockedAmount: amount.toString(),
    transferredAmount: amount.toString(),
    to: hash(9).slice(0, 42),
  });
  switch (fact.kind) {
    case 'lock':
      return { type: 'CHAIN_FACT', fact: { ...base, fundsLocked: { depositId: DEPOSIT, intentHash, amount: fact.amount.toString() } } };
    case 'release':
      return { type: 'CHAIN_FACT', fact: { ...base, fundsUnlocked: { depositId: DEPOSIT, intentHash, amount: '1' } } };
    case 'pay': {
      const amount = (unpaid * BigInt(fact.share)) / 100n;
      return { type: 'CHAIN_FACT', fact: { ...base, fundsUnlockedAndTransferred: transferred(amount > 0n ? amount : 1n) } };
    }
    case 'payRest':
      return { type: 'CHAIN_FACT', fact: { ...base, fundsUnlockedAndTransferred: transferred(unpaid > 0n ? unpaid : 1n) } };
    case 'otherDeposit':
      return { type: 'CHAIN_FACT', fact: { ...base, fundsUnlockedAndTransferred: { ...transferred(USDC), depositId: '8' } } };
    case 'withdrawn':
      return { type: 'CHAIN_FACT', fact: { ...base, depositWithdrawn: { depositId: DEPOSIT, amount: (unpaid > 0n ? unpaid : 1n).toString() } } };
    case 'retracted':
      return { type: 'CHAIN_FACT', fact: { ...base, retracted: true, fundsUnlockedAndTransferred: transferred(USDC) } };
    case 'payAllButDust':
      return { type: 'CHAIN_FACT', fact: { ...base, fundsUnlockedAndTransferred: transferred(unpaid > fact.dust ? unpaid - fact.dust : 1n) } };
    case 'dustSwept':
      // The escrow sweeps only a rest at or below its threshold.
      return unpaid > 0n && unpaid <= DUST
        ? { type: 'CHAIN_FACT', fact: { ...base, dustCollected: { depositId: DEPOSIT, amount: unpaid.toString() } } }
        : { type: 'CHAIN_FACT', fact: { ...base, dustCollected: { depositId: '8', amount: '1' } } };
  }
}

test('what a payout says it paid adds up and its USDC goes only where it may, whatever buyers and the customer do, and each payment is announced once', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.bigInt({ min: 10n * USDC, max: 1_000n * USDC }), fc.array(factArbitrary, { maxLength: 40 }), fc.boolean(), (received, facts, twice) => {
        let snapshot = listed(received);
        const funded = (snapshot.context as PayoutContext).depositAmount!;
        const emitted: string[] = [];
        let paidByFacts = 0n;
        let matches = 0;
        /** USDC the customer's wallet was asked to send, by where to, and what of it was mined. */
        const sends: Array<{ to: string | null; amount: bigint }> = [];
        facts.forEach((fact, n) => {
          for (const next of eventsOf(fact, n)) {
            const context = snapshot.context as PayoutContext;
            const event = next(context);
            const before = context.paidUsdc;
            for (const delivery of twice ? [event, event] : [event]) {
              const [after, actions] = transition(payoutMachine, snapshot, delivery);
              if (topState(snapshot.value) !== 'PAYING' && topState(after.value) === 'PAYING') matches++;
              snapshot = after;
              for (const action of actions as Array<{ type: string; params?: unknown }>) {
                if (action.type === 'xstate.emit') emitted.push((action.params as { event: { type: string } }).event.type);
                if (action.type === 'sendPayout' || action.type === 'exitListing') {
                  const params = action.params as { to: string | null; amountUsdc: string };
                  sends.push({ to: params.to, amount: params.to === null ? 0n : BigInt(params.amountUsdc) });
                }
              }
            }
            paidByFacts += (snapshot.context as PayoutContext).paidUsdc - before;
          }
        });
        const context = snapshot.context as PayoutContext;
        const deposit = context.depositAmount!;
        if (context.paidUsdc > deposit) return false;
        if (context.paidUsdc !== paidByFacts) return false;
        if (context.fills.reduce((sum, fill) => sum + fill.amount, 0n) !== context.paidUsdc) return false;
        if (context.partialFills.length !== emitted.filter((type) => type === 'PAYOUT_ORDER_PARTIALLY_PAID').length) return false;
        // The wallet sends only to the customer's own address or to the provider delivering to it, never more than was unpaid.
        if (sends.some((send) => send.to !== null && send.to !== CUSTOMER_ADDRESS && send.to !== PROVIDER_DEPOSIT)) return false;
        if (sends.some((send) => send.amount > funded)) return false;
        // What bridge refunds came back short is exactly what is no longer the customer's to be paid.
        const short = context.bridges
          .filter((bridge) => bridge.status === 'REFUNDED')
          .reduce((sum, bridge) => sum + bridge.usdcAmount - (bridge.refundedUsdc ?? 0n), 0n);
        if (short !== context.refundFeeUsdc) return false;
        const settledAnnouncements = emitted.filter((type) => type === 'PAYOUT_ORDER_SETTLED').length;
        if (topState(snapshot.value) === 'SETTLED') {
          const s = context.settlement!;
          if (s.buyerPaidUsdc + s.sentUsdc + s.returnedUsdc + s.dustUsdc + s.refundFeeUsdc !== deposit) return false;
          if (s.refundFeeUsdc !== context.refundFeeUsdc) return false;
          if (settledAnnouncements !== 1) return false;
        } else if (settledAnnouncements !== 0) return false;
        // After any partial payment every way out is SETTLED, never CANCELLED.
        if (topState(snapshot.value) === 'CANCELLED' && context.paidUsdc > 0n) return false;
        // A buyer starting to pay is announced once, however often its facts arrive.
        return emitted.filter((type) => type === 'PAYOUT_ORDER_MATCHED').length === matches;
      }),
      { numRuns: 400 },
    ),
  );
});
