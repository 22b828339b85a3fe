import test from 'ava';
import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { encode } from 'cbor2';
import { bytesToHex, type Hex } from 'viem';
import { NitroDocumentError, verifyNitroDocument } from '../../enclave/boundary/nitro-document.js';
import { FixtureNitroModule, makeNitroPki, nitroPayload, pcrsOf, signCose, type NitroPki } from '../support/nitro.js';

let at: number;
let pki: NitroPki;
let otherPki: NitroPki;

test.before(async () => {
  [pki, otherPki] = await Promise.all([makeNitroPki(), makeNitroPki()]);
  // After the certificates: openssl starts their validity at its own second, which a time taken before may precede.
  at = Date.now();
});

const refused = (t: import('ava').ExecutionContext, document: Uint8Array, message: RegExp, options: { root?: string; now?: number } = {}) =>
  t.throws(() => verifyNitroDocument(document, { root: options.root ?? pki.rootPem, now: options.now ?? at }), { instanceOf: NitroDocumentError, message });

test('a document the module signed reads back with its PCRs, user data and nonce, tagged or not', async (t) => {
  const module = new FixtureNitroModule(pki, pcrsOf(7), () => at);
  const attestation = verifyNitroDocument(await module.attest({ userData: new Uint8Array([1, 2, 3]), nonce: new Uint8Array(16).fill(9) }), {
    root: pki.rootPem,
    now: at,
  });
  t.is(attestation.timestamp, at);
  t.is(bytesToHex(attestation.pcrs.get(0)!), bytesToHex(new Uint8Array(48).fill(7)));
  t.deepEqual([...attestation.pcrs.keys()], [0, 1, 2]);
  t.deepEqual(attestation.userData, new Uint8Array([1, 2, 3]));
  t.deepEqual(attestation.nonce, new Uint8Array(16).fill(9));

  const tagged = signCose(nitroPayload(pki, pcrsOf(7), { timestamp: at }), pki.signingKey, { tagged: true });
  t.is(verifyNitroDocument(tagged, { root: pki.rootPem, now: at }).userData, null);
});

test('the committed fixture, a document signed once by a throwaway PKI, verifies at its time and not a day after its certificates end', async (t) => {
  const fixture = JSON.parse(await readFile(new URL('fixtures/nitro-attestation.json', import.meta.url), 'utf8')) as {
    root: string;
    document: string;
    at: number;
    pcr0: Hex;
    userData: Hex;
    nonce: Hex;
  };
  const document = Buffer.from(fixture.document, 'base64');
  const attestation = verifyNitroDocument(document, { root: fixture.root, now: fixture.at });
  t.is(bytesToHex(attestation.pcrs.get(0)!), fixture.pcr0);
  t.is(bytesToHex(attestation.userData!), fixture.userData);
  t.is(bytesToHex(attestation.nonce!), fixture.nonce);
  const ends = Date.parse(new X509Certificate(fixture.root).validTo);
  refused(t, document, /not valid at/, { root: fixture.root, now: ends + 86_400_000 });
  refused(t, document, /not the trusted root/, { root: pki.rootPem, now: fixture.at });
});

test("a signature by any key but the certificate's is refused, as is a payload changed after signing", (t) => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
  refused(t, signCose(nitroPayload(pki, pcrsOf(7), { timestamp: at }), privateKey), /does not verify/);

  const honest = signCose(nitroPayload(pki, pcrsOf(7), { timestamp: at, userData: new Uint8Array(32).fill(1) }), pki.signingKey);
  const tampered = Buffer.from(honest);
  const userData = tampered.indexOf(Buffer.alloc(32, 1));
  tampered[userData] = 2;
  refused(t, tampered, /does not verify/);
});

test('a chain to another root, or outside its validity, is refused: the document never brings its own trust', (t) => {
  const foreign = signCose(nitroPayload(otherPki, pcrsOf(7), { timestamp: at }), otherPki.signingKey);
  refused(t, foreign, /not the trusted root/);
  // The other PKI's signing certificate under our root's name: its issuer did not sign it.
  const grafted = signCose({ ...nitroPayload(pki, pcrsOf(7), { timestamp: at }), certificate: otherPki.certificate }, otherPki.signingKey);
  refused(t, grafted, /not issued and signed by cabundle\[1\]/);
  const valid = signCose(nitroPayload(pki, pcrsOf(7), { timestamp: at }), pki.signingKey);
  refused(t, valid, /not valid at/, { now: at + 3 * 86_400_000 });
  refused(t, valid, /not valid at/, { now: at - 86_400_000 });
});

test('what is not a Nitro document is refused with what is wrong', (t) => {
  const sign = (fields: Record<string, unknown>, options?: { alg?: number }) =>
    signCose({ ...nitroPayload(pki, pcrsOf(7), { timestamp: at }), ...fields }, pki.signingKey, options);
  refused(t, new Uint8Array([0xff, 0x00]), /not CBOR/);
  refused(t, encode([1, 2, 3]), /array of four/);
  refused(t, sign({}, { alg: -7 }), /not ES384/);
  refused(t, sign({ digest: 'SHA256' }), /digest must be SHA384/);
  refused(t, sign({ module_id: '' }), /module_id/);
  refused(t, sign({ timestamp: -1 }), /timestamp/);
  refused(t, sign({ pcrs: new Map() }), /pcrs must be a map/);
  refused(t, sign({ pcrs: new Map([[0, new Uint8Array(20)]]) }), /PCR0 must be 32, 48 or 64 bytes/);
  refused(t, sign({ cabundle: [] }), /cabundle must be a non-empty array/);
  refused(t, sign({ user_data: new Uint8Array(513) }), /user_data must be 0 to 512 bytes/);
  refused(t, sign({ certificate: new Uint8Array([1, 2, 3]) }), /the certificate is not DER X.509/);
  // The signing certificate itself cannot issue: a bundle ending in it is refused.
  refused(t, sign({ cabundle: [new Uint8Array(new X509Certificate(pki.rootPem).raw), pki.intermediate, pki.certificate] }), /cabundle\[2\] is not a CA/);
});
