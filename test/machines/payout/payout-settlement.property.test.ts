/**
 * Property (issue 39, Checks): however buyers come and go on a payout's listings, what the
 * payout says it paid adds up. For every run of buyer facts (locks of any size, releases,
 * payments of part or of the rest, facts of other deposits and intents, retracted ones, a fact
 * delivered twice) on a funded payout of any deposit: paidAmount never exceeds the deposit and is
 * the sum of the buyers' payments; each partial fill is a payment that left a rest; once SETTLED,
 * buyerPaid + sent + returned + dust + refundFee is the deposit; and every payment is announced
 * once (MATCHED per buyer who locked, PARTIALLY_PAID per partial fill, SETTLED once).
 */
import test from 'ava';
import fc from 'fast-check';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { payoutMachine, type PayoutContext, type PayoutEvent, type PayoutInput } from '../../../machines/payout/index.js';
import { topState } from '../../../machines/top-state.js';

const USDC = 1_000_000n;
const AT = '2026-11-23T12:00:00.000Z';
const DEPOSIT = '7';

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
    { type: 'LISTED', listing: 1, depositId: DEPOSIT, requestId: 'po_property-listing-1', at: AT },
  ];
  for (const event of steps) [snapshot] = transition(payoutMachine, snapshot, event);
  return snapshot;
}

/** One fact a run may deliver: what it says is drawn; whose intent it is, from the run's buyers. */
const factArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('lock' as const), buyer: fc.integer({ min: 1, max: 3 }), amount: fc.bigInt({ min: 1n, max: 1_000n * USDC }) }),
  fc.record({ kind: fc.constant('release' as const), buyer: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('pay' as const), buyer: fc.integer({ min: 1, max: 3 }), share: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('payRest' as const), buyer: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('otherDeposit' as const), buyer: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('retracted' as const), buyer: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('withdrawn' as const), buyer: fc.integer({ min: 1, max: 3 }) }),
);

type Fact = typeof factArbitrary extends fc.Arbitrary<infer T> ? T : never;

function eventOf(fact: Fact, context: PayoutContext, n: number): PayoutEvent {
  const intentHash = hash(100 + fact.buyer);
  const unpaid = (context.depositAmount ?? 0n) - context.paidUsdc;
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
  }
}

test('what a payout says buyers paid adds up, and each payment is announced once, whatever facts arrive', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.bigInt({ min: 10n * USDC, max: 1_000n * USDC }), fc.array(factArbitrary, { maxLength: 40 }), fc.boolean(), (received, facts, twice) => {
        let snapshot = listed(received);
        const emitted: string[] = [];
        let paidByFacts = 0n;
        let matches = 0;
        facts.forEach((fact, n) => {
          const context = snapshot.context as PayoutContext;
          const event = eventOf(fact, context, n);
          const before = context.paidUsdc;
          for (const delivery of twice ? [event, event] : [event]) {
            const [next, actions] = transition(payoutMachine, snapshot, delivery);
            if (topState(snapshot.value) === 'LISTING' && topState(next.value) === 'PAYING') matches++;
            snapshot = next;
            for (const action of actions as Array<{ type: string; params?: unknown }>)
              if (action.type === 'xstate.emit') emitted.push((action.params as { event: { type: string } }).event.type);
          }
          paidByFacts += (snapshot.context as PayoutContext).paidUsdc - before;
        });
        const context = snapshot.context as PayoutContext;
        const deposit = context.depositAmount!;
        if (context.paidUsdc > deposit) return false;
        if (context.paidUsdc !== paidByFacts) return false;
        if (context.fills.reduce((sum, fill) => sum + fill.amount, 0n) !== context.paidUsdc) return false;
        if (context.partialFills.length !== emitted.filter((type) => type === 'PAYOUT_ORDER_PARTIALLY_PAID').length) return false;
        const settledAnnouncements = emitted.filter((type) => type === 'PAYOUT_ORDER_SETTLED').length;
        if (topState(snapshot.value) === 'SETTLED') {
          const s = context.settlement!;
          if (s.buyerPaidUsdc + s.sentUsdc + s.returnedUsdc + s.dustUsdc + s.refundFeeUsdc !== deposit) return false;
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
