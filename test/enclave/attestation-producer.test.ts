import test from 'ava';
import { randomBytes } from 'node:crypto';
import { bytesToHex, type Hex } from 'viem';
import {
  Enclave,
  KeyReleaseDeniedError,
  LocalKeyManagement,
  UntrustedEnclaveError,
  checkAttestationDocument,
  type AttestationDocument,
} from '../../enclave/index.js';
import { NitroAttestationProducer, type NitroTrust } from '../../enclave/boundary/attestation-producer.js';
import { FixtureNitroModule, makeNitroPki, pcrsOf, type NitroPki } from '../support/nitro.js';

let pki: NitroPki;
test.before(async () => {
  pki = await makeNitroPki();
});

const nonce = (): Hex => bytesToHex(randomBytes(32));
const trustFor = (pcrs: Map<number, Uint8Array>): NitroTrust & { now?: () => number } => ({
  root: pki.rootPem,
  pcrs: Object.fromEntries([...pcrs].map(([index, pcr]) => [index, bytesToHex(pcr)])),
});

async function nitroEnclave(seed = 7, kms = new LocalKeyManagement(randomBytes(32)), wrappedKey?: string) {
  const producer = await NitroAttestationProducer.open(new FixtureNitroModule(pki, pcrsOf(seed)), pki.rootPem, Date.now());
  return Enclave.open({ keyManagement: kms, producer, ...(wrappedKey ? { wrappedKey } : {}) });
}

test('a Nitro enclave states PCR0 as its measurement and its documents pass a client that trusts the root and the PCRs', async (t) => {
  const enclave = await nitroEnclave();
  t.is(enclave.measurement, `pcr0:${'07'.repeat(48)}`);
  const trusted = { measurement: enclave.measurement, signer: enclave.signer, nitro: trustFor(pcrsOf(7)) };
  const asked = nonce();
  const fresh = await enclave.attestationDocumentFor(asked, Date.now());
  t.is(fresh.evidence.kind, 'nitro');
  await t.notThrowsAsync(checkAttestationDocument(fresh, trusted, asked));
  await t.notThrowsAsync(checkAttestationDocument(enclave.attestationDocument(), trusted));
});

test("the hardware refuses what the signer alone would pass: another image, another enclave's evidence, a replayed nonce, no evidence, an expired chain", async (t) => {
  const enclave = await nitroEnclave();
  const trusted = { measurement: enclave.measurement, signer: enclave.signer, nitro: trustFor(pcrsOf(7)) };
  const asked = nonce();
  const document = await enclave.attestationDocumentFor(asked, Date.now());
  const refused = (candidate: AttestationDocument, message: RegExp, trust: typeof trusted = trusted) =>
    t.throwsAsync(checkAttestationDocument(candidate, trust, asked), { instanceOf: UntrustedEnclaveError, message });

  // Another PCR1 (a kernel we did not publish) though PCR0 is ours.
  await refused(document, /PCR1 is not the trusted value/, {
    ...trusted,
    nitro: { ...trusted.nitro, pcrs: { ...trusted.nitro.pcrs, 1: bytesToHex(new Uint8Array(48).fill(9)) } },
  });
  // The trusted PCR0 must be the measurement the document states.
  await refused(document, /does not name the measurement/, { ...trusted, nitro: trustFor(pcrsOf(8)) });

  // A second enclave of the same image, on the same hardware: its evidence vouches for its own statement, not this one.
  const twin = await nitroEnclave();
  const twinDocument = await twin.attestationDocumentFor(asked, Date.now());
  await refused({ ...document, evidence: twinDocument.evidence }, /user data is not the digest/);

  // Evidence taken for another client's nonce, pasted into a document re-signed for ours.
  const older = await enclave.attestationDocumentFor(nonce(), Date.now());
  await refused({ ...document, evidence: older.evidence }, /user data is not the digest/);

  // A software enclave's document, however well signed, carries no hardware word.
  const software = await Enclave.open({ keyManagement: new LocalKeyManagement(randomBytes(32)), measurement: enclave.measurement });
  await t.throwsAsync(checkAttestationDocument(await software.attestationDocumentFor(asked, Date.now()), { ...trusted, signer: software.signer }, asked), {
    instanceOf: UntrustedEnclaveError,
    message: /carries no Nitro evidence/,
  });

  // Certificates end: a document checked after its chain's validity is refused.
  await refused(document, /not valid at/, { ...trusted, nitro: { ...trusted.nitro, now: () => Date.now() + 3 * 86_400_000 } });
});

test('key management releases the signing key only to the PCR0 it was wrapped for', async (t) => {
  const kms = new LocalKeyManagement(randomBytes(32));
  const first = await nitroEnclave(7, kms);
  const again = await nitroEnclave(7, kms, first.wrappedKey);
  t.is(again.signer, first.signer);
  await t.throwsAsync(nitroEnclave(8, kms, first.wrappedKey), { instanceOf: KeyReleaseDeniedError, message: /only to measurement pcr0:0707/ });
});

test('a module whose first document does not chain to the root is refused at open', async (t) => {
  const other = await makeNitroPki();
  await t.throwsAsync(NitroAttestationProducer.open(new FixtureNitroModule(other, pcrsOf(7)), pki.rootPem, Date.now()), { message: /not the trusted root/ });
});
