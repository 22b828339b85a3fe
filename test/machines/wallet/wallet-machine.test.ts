import test from 'ava';
import fc from 'fast-check';
import type { AnyMachineSnapshot } from 'xstate';
import { stepsOf } from '../../../actors/runtime/machine-steps.js';
import {
  nonceHoles,
  nonceToAssign,
  reconciledNextNonce,
  walletMachine,
  type WalletContext,
  type WalletEvent,
  type WalletInput,
} from '../../../machines/wallet/index.js';

const steps = stepsOf(walletMachine);
const ADDRESS = '0x00000000000000000000000000000000000000A1' as const;

/** OPEN as the wallet kind makes it: the event's fields and the id. */
const open = (nextNonce: bigint, at = 1_000): AnyMachineSnapshot => {
  const input: WalletInput = { id: `8453_${ADDRESS.toLowerCase()}`, chainId: 8453, address: ADDRESS, nextNonce, at };
  const [snapshot, actions] = steps.initial(input);
  if (actions.length !== 0) throw new Error('OPEN runs no action');
  return snapshot;
};

const context = (snapshot: AnyMachineSnapshot) => snapshot.context as WalletContext;

/** One ASSIGN_NONCE turn, and the nonce it gave: the one before the wallet's next (what the kind replies). */
function assign(snapshot: AnyMachineSnapshot, chainNonce: bigint, at: number, transactionId = `tx_${at}`): [AnyMachineSnapshot, bigint] {
  const event: WalletEvent = { type: 'ASSIGN_NONCE', transactionId, chainNonce, at };
  const [next, actions] = steps.next(snapshot, event);
  if (next.status === 'error') throw next.error;
  if (actions.length !== 0) throw new Error('ASSIGN_NONCE runs no action');
  return [next, context(next).nextNonce - 1n];
}

test('OPEN starts the wallet at the given nextNonce with nothing assigned', (t) => {
  const wallet = open(5n);
  t.is(wallet.value, 'OPEN');
  t.deepEqual(context(wallet), {
    id: '8453_0x00000000000000000000000000000000000000a1',
    chainId: 8453,
    address: ADDRESS,
    nextNonce: 5n,
    at: 1_000,
    assigned: 0,
    updatedAt: 1_000,
  });
});

test("nonces are consecutive from OPEN's nextNonce when the chain is not ahead", (t) => {
  let wallet = open(5n);
  const given: bigint[] = [];
  for (const [index, chainNonce] of [5n, 5n, 6n, 0n].entries()) {
    let nonce: bigint;
    [wallet, nonce] = assign(wallet, chainNonce, 2_000 + index);
    given.push(nonce);
  }
  t.deepEqual(given, [5n, 6n, 7n, 8n]);
  t.is(context(wallet).nextNonce, 9n);
  t.is(context(wallet).assigned, 4);
  t.is(context(wallet).updatedAt, 2_003);
  t.is(context(wallet).at, 1_000, 'the opening time is kept');
});

test('a chainNonce above the next nonce moves the wallet past it: it gives the chain nonce, then continues from there', (t) => {
  let wallet = open(5n);
  let nonce: bigint;
  [wallet, nonce] = assign(wallet, 5n, 2_000);
  t.is(nonce, 5n);
  [wallet, nonce] = assign(wallet, 12n, 2_001);
  t.is(nonce, 12n, 'nonces 6 to 11 were spent outside the relayer');
  t.is(context(wallet).nextNonce, 13n);
  [wallet, nonce] = assign(wallet, 12n, 2_002);
  t.is(nonce, 13n);
  t.is(context(wallet).assigned, 3);
});

test('a chainNonce below the next nonce never moves the wallet back', (t) => {
  let wallet = open(20n);
  let nonce: bigint;
  [wallet, nonce] = assign(wallet, 20n, 2_000);
  t.is(nonce, 20n);
  [wallet, nonce] = assign(wallet, 3n, 2_001);
  t.is(nonce, 21n);
  [wallet, nonce] = assign(wallet, 20n, 2_002, 'tx_again');
  t.is(nonce, 22n, 'a chain nonce that lags the wallet (pending not yet seen) does not hand out 20 again');
  t.is(context(wallet).nextNonce, 23n);
});

test('nonceToAssign: the larger of the wallet and the chain', (t) => {
  t.is(nonceToAssign(5n, 5n), 5n);
  t.is(nonceToAssign(5n, 4n), 5n);
  t.is(nonceToAssign(5n, 6n), 6n);
  t.is(nonceToAssign(0n, 0n), 0n);
});

test('property: over any chain nonces, the nonces given strictly increase, each at least the chain nonce it was asked with, and consecutive while the chain is not ahead', (t) => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 1_000n }), fc.array(fc.bigInt({ min: 0n, max: 1_200n }), { maxLength: 30 }), (start, chainNonces) => {
      let wallet = open(start);
      let previous: bigint | null = null;
      for (const [index, chainNonce] of chainNonces.entries()) {
        const expectedNext: bigint = previous === null ? start : previous + 1n;
        let nonce: bigint;
        [wallet, nonce] = assign(wallet, chainNonce, 2_000 + index);
        if (nonce !== (chainNonce > expectedNext ? chainNonce : expectedNext)) return false;
        if (previous !== null && nonce <= previous) return false;
        previous = nonce;
      }
      return context(wallet).assigned === chainNonces.length && context(wallet).nextNonce === (previous === null ? start : previous + 1n);
    }),
  );
  t.pass();
});

test('RECONCILE gives out again the nonces the chain never took that nothing under way holds', (t) => {
  let wallet = open(5n);
  for (let index = 0; index < 4; index++) [wallet] = assign(wallet, 5n, 2_000 + index);
  t.is(context(wallet).nextNonce, 9n);
  const reconcile = (heldNonces: bigint[], seenNextNonce = 9n, chainNonce = 6n) => {
    const event: WalletEvent = { type: 'RECONCILE', chainNonce, heldNonces, seenNextNonce, at: 3_000 };
    return context(steps.next(wallet, event)[0]).nextNonce;
  };
  t.is(reconcile([]), 6n, 'nothing holds 6 to 8: they go out again');
  t.is(reconcile([7n]), 8n, 'the held 7 stays its transaction’s; 8 goes out again');
  t.is(reconcile([5n]), 6n, 'a held nonce the chain already took does not count');
  t.is(reconcile([], 8n), 9n, 'a nonce given out since the look is never given twice');
  t.is(reconcile([], 9n, 12n), 12n, 'a chain ahead moves the wallet past it');
  const reconciled: WalletEvent = { type: 'RECONCILE', chainNonce: 6n, heldNonces: [], seenNextNonce: 9n, at: 3_000 };
  t.is(steps.next(wallet, reconciled)[1].length, 0, 'RECONCILE runs no action');
});

test('nonceHoles are the nonces under the highest held one that the chain has not taken and nothing holds', (t) => {
  t.deepEqual(nonceHoles(6n, []), []);
  t.deepEqual(nonceHoles(6n, [8n]), [6n, 7n]);
  t.deepEqual(nonceHoles(6n, [6n, 9n, 7n]), [8n]);
  t.deepEqual(nonceHoles(6n, [4n, 5n]), [], 'held nonces the chain took leave no hole');
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 50n }), fc.array(fc.bigInt({ min: 0n, max: 80n }), { maxLength: 10 }), (chainNonce, held) => {
      const holes = nonceHoles(chainNonce, held);
      const covered = new Set([...holes, ...held.filter((nonce) => nonce >= chainNonce)]);
      const top = reconciledNextNonce(chainNonce, chainNonce, held, chainNonce);
      // Every nonce from the chain's to the wallet's next is either held or filled, once.
      for (let nonce = chainNonce; nonce < top; nonce++) if (!covered.has(nonce)) return false;
      return holes.every((hole) => !held.includes(hole)) && new Set(holes).size === holes.length;
    }),
  );
});
