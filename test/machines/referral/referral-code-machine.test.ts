import test from 'ava';
import fc from 'fast-check';
import type { AnyMachineSnapshot } from 'xstate';
import { stepsOf } from '../../../actors/runtime/machine-steps.js';
import { referralCodeMachine, type ReferralCodeContext, type ReferralCodeEvent } from '../../../machines/referral/index.js';

const steps = stepsOf(referralCodeMachine);
const AT = '2026-11-23T12:00:00.000Z';

const opened = (owner: string, claim: number): AnyMachineSnapshot => steps.initial({ id: 'sunrise', code: 'Sunrise', owner, claim, at: AT })[0];

function send(snapshot: AnyMachineSnapshot, event: ReferralCodeEvent): AnyMachineSnapshot {
  // The runtime refuses what the machine cannot take (EVENT_NOT_ACCEPTED); a release must never be refused.
  if (!snapshot.can(event)) throw new Error(`${event.type} not accepted in ${String(snapshot.value)}`);
  return steps.next(snapshot, event)[0];
}

const held = (snapshot: AnyMachineSnapshot) => (snapshot.value === 'HELD' ? (snapshot.context as ReferralCodeContext).owner : null);

test('a release frees the code only for its holder, and only below the release’s number', (t) => {
  const code = opened('0xa', 3);
  t.is(held(send(code, { type: 'RELEASE', owner: '0xa', below: 3, at: AT })), '0xa', 'not below its own claim');
  t.is(held(send(code, { type: 'RELEASE', owner: '0xb', below: 9, at: AT })), '0xa', 'another wallet cannot free it');
  const released = send(code, { type: 'RELEASE', owner: '0xa', below: 4, at: AT });
  t.is(held(released), null);
  t.is(held(send(released, { type: 'RELEASE', owner: '0xa', below: 9, at: AT })), null, 'releasing a free code is nothing');
  t.is(held(send(released, { type: 'CLAIM', code: 'sunrise', owner: '0xb', claim: 1, at: AT })), '0xb');
});

test('its holder claiming it again keeps its highest claim, so a late release of an older one cannot free it', (t) => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 60 }), (claims, below) => {
      let code = opened('0xa', claims[0]!);
      for (const claim of claims.slice(1)) code = send(code, { type: 'CLAIM', code: 'SUNRISE', owner: '0xa', claim, at: AT });
      const highest = Math.max(...claims);
      t.is((code.context as ReferralCodeContext).claim, highest);
      const after = send(code, { type: 'RELEASE', owner: '0xa', below, at: AT });
      t.is(held(after), below > highest ? null : '0xa');
    }),
  );
});
