/**
 * The processors' payee rules: every spelling a maker may send normalises to the payee id
 * the attestation service reads from a payment to them (enclave/platforms/*), so a payee
 * registered here is one a payment can be proven to.
 */
import test from 'ava';
import { PAYEE_SPELLINGS } from '../../support/maker-payees.js';
import fc from 'fast-check';
import { keccak256, toBytes } from 'viem';
import { normalizeEmail, normalizeTag, normalizeZelleToken } from '../../../enclave/platforms/params.js';
import {
  LEGACY_PROCESSOR_NAMES,
  offchainIdOf,
  PAYEE_IDENTIFIERS,
  payeeHash,
  payeeIdAs,
  PROCESSOR_NAMES,
  PROCESSORS,
  processorsReadFor,
  type PayeeIdentifierKind,
  type ProcessorName,
} from '../../../machines/maker/index.js';
import { ZELLE_BANKS } from '../../../machines/rails.js';
import { PLATFORM_FIXTURES } from '../../support/enclave.js';

/** How each payment platform's verifier normalises the payee it reads (the platform files name which). */
const ENCLAVE_NORMALISATION: Partial<Record<PayeeIdentifierKind, (raw: string) => string>> = {
  cashtag: normalizeTag,
  chimeSign: normalizeTag,
  // Revolut writes the Revtag without its @.
  revtag: (raw) => normalizeTag(raw.replace(/^@/, '')),
  email: normalizeEmail,
  usPhone: normalizeZelleToken,
  monzoAccount: (raw) => raw.replace(/\D/g, ''),
};

for (const [kind, enclave] of Object.entries(ENCLAVE_NORMALISATION) as Array<[PayeeIdentifierKind, (raw: string) => string]>) {
  test(`${kind}: every accepted spelling normalises as the enclave normalises the payee it reads`, (t) => {
    fc.assert(
      fc.property(fc.stringMatching(PAYEE_IDENTIFIERS[kind].pattern), (raw) => {
        t.is(payeeIdAs(kind, raw), enclave(raw));
      }),
    );
  });
}

for (const kind of Object.keys(PAYEE_IDENTIFIERS) as PayeeIdentifierKind[]) {
  test(`${kind}: a normalised id is itself an accepted spelling, and normalising it again changes nothing`, (t) => {
    fc.assert(
      fc.property(fc.stringMatching(PAYEE_IDENTIFIERS[kind].pattern), (raw) => {
        const id = payeeIdAs(kind, raw)!;
        t.is(payeeIdAs(kind, id), id);
      }),
    );
  });
}

test('each platform fixture’s payee, spelled as the platform shows it, is registered as the id the enclave attests', (t) => {
  const spelled = PAYEE_SPELLINGS;
  t.deepEqual(Object.keys(spelled).sort(), PLATFORM_FIXTURES.map((fixture) => fixture.platform).sort());
  for (const fixture of PLATFORM_FIXTURES) {
    const processor = PROCESSORS[fixture.platform as ProcessorName];
    const payeeId = processor.current.payeeId(spelled[fixture.platform]!);
    t.is(payeeId, fixture.payeeId, fixture.platform);
    // The hash deposits hold and intents carry: keccak256(toBytes(id)), as the enclave's idHash and the payee directory compute it.
    t.is(payeeHash(payeeId), keccak256(toBytes(fixture.payeeId)), fixture.platform);
    t.deepEqual(processor.paymentMethods, [fixture.platform]);
  }
});

test('the local makers’ payee ids (deploy/seed-makers.ts) read as their platforms’ payee ids', (t) => {
  const seeds: Array<[ProcessorName, string]> = [
    ['venmo', '3141592653'],
    ['cashapp', 'makermary'],
    ['revolut', 'makerben'],
    ['wise', '55501234'],
    ['zelle-chase', 'carla@example.com'],
    ['paypal', 'carla@example.com'],
    ['monzo', '04000412345678'],
  ];
  for (const [processor, payeeId] of seeds) t.is(offchainIdOf(processor, payeeId), payeeId, processor);
});

test('Alipay alone has no legacy format; generic zelle is each Zelle bank’s method, and banks read it too', (t) => {
  t.deepEqual(
    PROCESSOR_NAMES.filter((name) => !LEGACY_PROCESSOR_NAMES.includes(name)),
    ['alipay'],
  );
  t.deepEqual(PROCESSORS.zelle.paymentMethods, ZELLE_BANKS);
  t.deepEqual(processorsReadFor('zelle-bofa'), ['zelle-bofa', 'zelle']);
  t.deepEqual(processorsReadFor('venmo'), ['venmo']);
  t.true(PROCESSORS['paypal-business'].business);
  t.false(PROCESSORS.paypal.business);
});

test('both formats of a processor read the same payee to the same id', (t) => {
  const pairs: Array<[ProcessorName, Record<string, string>, Record<string, string>]> = [
    ['venmo', { venmoId: '123' }, { userId: '123' }],
    ['revolut', { revolutUsername: '@Ben_1' }, { revtag: 'ben_1' }],
    ['wise', { wiseProfileId: '42' }, { profileId: '42' }],
    ['monzo', { monzoSortCode: '040004', monzoAccountNumber: '12345678' }, { sortCode: '04-00-04', accountNumber: '12345678' }],
    ['paypal-business', { paypalEmail: 'Pay@Shop.example' }, { email: 'pay@shop.example' }],
    ['zelle', { zellePhone: '415.555.0100' }, { phone: '+14155550100' }],
    ['zelle-citi', { zelleEmail: 'A@B.example' }, { email: 'a@b.example' }],
  ];
  for (const [name, legacy, current] of pairs) t.is(PROCESSORS[name].legacy!.payeeId(legacy), PROCESSORS[name].current.payeeId(current), name);
});

test('spellings that are not a payee are refused', (t) => {
  const refused: Array<[PayeeIdentifierKind, string]> = [
    ['venmoUserId', '0123'],
    ['venmoUserId', '@maker'],
    ['venmoUserId', '12345678901234567890'],
    ['cashtag', '$'],
    ['cashtag', '$maker mary'],
    ['cashtag', '$abcdefghijklmnopqrstu'],
    ['chimeSign', '$-maker'],
    ['revtag', '@ab'],
    ['wiseProfileId', '0'],
    ['sortCode', '04-00-4'],
    ['ukAccountNumber', '1234567'],
    ['monzoAccount', '0400041234567'],
    ['email', 'maker@localhost'],
    ['email', 'maker example.com'],
    ['usPhone', '+44 20 7946 0958'],
    ['usPhone', '1155550100'],
    ['alipayUserId', '1088123412341234'],
  ];
  for (const [kind, raw] of refused) t.is(payeeIdAs(kind, raw), null, `${kind} ${raw}`);
  t.is(offchainIdOf('monzo', 'makermary'), null);
  t.is(offchainIdOf('zelle', 'maker'), null);
});
