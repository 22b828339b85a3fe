import test from 'ava';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Enclave, ENCLAVE_BUNDLE_DIR, KeyReleaseDeniedError, LocalKeyManagement, UntrustedEnclaveError, checkAttestationDocument, measureBundle, sealSessionMaterial } from '../../enclave/index.js';

test('the measurement is a hash of the code bundle: stable, and changed by one byte of it', async (t) => {
  const measurement = await measureBundle();
  t.regex(measurement, /^sha256:[0-9a-f]{64}$/);
  t.is(await measureBundle(), measurement);

  // A copy of the repository's code, laid out as it is, measures the same.
  const root = await mkdtemp(join(tmpdir(), 'enclave-bundle-'));
  const copy = join(root, 'enclave');
  try {
    for (const folder of ['enclave', 'machines', 'proto']) await cp(join(ENCLAVE_BUNDLE_DIR, '..', folder), join(root, folder), { recursive: true });
    t.is(await measureBundle(copy), measurement);
    // The simulator runs outside the enclave, so it is not measured.
    await writeFile(join(copy, 'simulator', 'records.ts'), '// changed\n', { flag: 'a' });
    t.is(await measureBundle(copy), measurement);
    const flip = async (file: string) => {
      const source = await readFile(file);
      const at = source.length - 2;
      source.writeUInt8(source.readUInt8(at) ^ 1, at);
      await writeFile(file, source);
    };
    await flip(join(copy, 'verification', 'payment-verifier.ts'));
    const changed = await measureBundle(copy);
    t.not(changed, measurement);
    // Code the enclave imports from outside enclave/ decides what is signed as much.
    await flip(join(root, 'machines', 'money.ts'));
    t.not(await measureBundle(copy), changed);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('the signing key is released only to the measurement it was wrapped for', async (t) => {
  const kms = new LocalKeyManagement(randomBytes(32));
  const first = await Enclave.open({ keyManagement: kms, measurement: 'sha256:aaaa' });
  const again = await Enclave.open({ keyManagement: kms, measurement: 'sha256:aaaa', wrappedKey: first.wrappedKey });
  t.is(again.signer, first.signer);

  await t.throwsAsync(Enclave.open({ keyManagement: kms, measurement: 'sha256:bbbb', wrappedKey: first.wrappedKey }), { instanceOf: KeyReleaseDeniedError, message: /only to measurement sha256:aaaa/ });
  await t.throwsAsync(Enclave.open({ keyManagement: new LocalKeyManagement(randomBytes(32)), measurement: 'sha256:aaaa', wrappedKey: first.wrappedKey }), {
    instanceOf: KeyReleaseDeniedError,
  });

  // Re-labelling the policy in the header breaks the JWE's integrity check.
  const [header, ...rest] = first.wrappedKey.split('.');
  const relabelled = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(header!, 'base64url').toString()), peer_measurement: 'sha256:bbbb' })).toString('base64url');
  await t.throwsAsync(Enclave.open({ keyManagement: kms, measurement: 'sha256:bbbb', wrappedKey: [relabelled, ...rest].join('.') }), { instanceOf: KeyReleaseDeniedError });
});

test('the attestation document binds the encryption key to the signer, and clients check it', async (t) => {
  const enclave = await Enclave.open({ keyManagement: new LocalKeyManagement(randomBytes(32)), measurement: 'sha256:cafe' });
  const document = enclave.attestationDocument();
  t.is(document.signer, enclave.signer);
  t.is(document.encryptionKey.alg, 'ECDH-ES+A256KW');
  t.is(document.encryptionKey.d, undefined);
  const trusted = { measurement: 'sha256:cafe', signer: enclave.signer };
  await t.notThrowsAsync(checkAttestationDocument(document, trusted));
  await t.throwsAsync(checkAttestationDocument(document, { ...trusted, measurement: 'sha256:beef' }), { instanceOf: UntrustedEnclaveError });

  const other = await Enclave.open({ keyManagement: new LocalKeyManagement(randomBytes(32)), measurement: 'sha256:cafe' });
  const swapped = { ...document, encryptionKey: other.attestationDocument().encryptionKey };
  await t.throwsAsync(checkAttestationDocument(swapped, trusted), { instanceOf: UntrustedEnclaveError });

  const sealed = await sealSessionMaterial(document, { Cookie: 'c=1' });
  t.deepEqual(await enclave.openSessionMaterial(sealed), { Cookie: 'c=1' });
  await t.throwsAsync(other.openSessionMaterial(sealed), { message: /not a compact JWE/ });
});

test('a document that keeps the key id but swaps the key, or comes from another signer, is not trusted', async (t) => {
  const enclave = await Enclave.open({ keyManagement: new LocalKeyManagement(randomBytes(32)), measurement: 'sha256:cafe' });
  const document = enclave.attestationDocument();
  const trusted = { measurement: 'sha256:cafe', signer: enclave.signer };
  const attacker = await Enclave.open({ keyManagement: new LocalKeyManagement(randomBytes(32)), measurement: 'sha256:cafe' });
  const { x, y } = attacker.attestationDocument().encryptionKey;
  await t.throwsAsync(checkAttestationDocument({ ...document, encryptionKey: { ...document.encryptionKey, x, y } }, trusted), {
    instanceOf: UntrustedEnclaveError,
    message: /thumbprint/,
  });
  // A whole document of the attacker's own, consistent in itself, measurement and all.
  await t.throwsAsync(checkAttestationDocument(attacker.attestationDocument(), trusted), { instanceOf: UntrustedEnclaveError, message: /registered witness/ });
});
