import { CompactEncrypt, importJWK } from 'jose';
import test from 'ava';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  Enclave,
  ENCLAVE_BUNDLE_DIR,
  KeyReleaseDeniedError,
  LocalKeyManagement,
  UntrustedEnclaveError,
  checkAttestationDocument,
  measureBundle,
  sealSessionMaterial,
} from '../../enclave/index.js';

test('the measurement is a hash of the code bundle, its lockfile and its runtime: stable, and changed by one byte of any', async (t) => {
  const measurement = await measureBundle();
  t.regex(measurement, /^sha256:[0-9a-f]{64}$/);
  t.is(await measureBundle(), measurement);

  // A copy of the repository's code, laid out as it is, measures the same.
  const root = await mkdtemp(join(tmpdir(), 'enclave-bundle-'));
  const copy = join(root, 'enclave');
  try {
    for (const folder of ['enclave', 'machines', 'proto']) await cp(join(ENCLAVE_BUNDLE_DIR, '..', folder), join(root, folder), { recursive: true });
    await cp(join(ENCLAVE_BUNDLE_DIR, '..', 'package-lock.json'), join(root, 'package-lock.json'));
    t.is(await measureBundle(copy), measurement);
    // Another runtime runs other code, whatever our files say.
    t.not(await measureBundle(copy, 'node/v99.0.0'), measurement);
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
    const withMoney = await measureBundle(copy);
    t.not(withMoney, changed);
    // So do the packages the lockfile pins: another version of one is another enclave.
    await flip(join(root, 'package-lock.json'));
    t.not(await measureBundle(copy), withMoney);
    await rm(join(root, 'package-lock.json'));
    await t.throwsAsync(measureBundle(copy), { message: /package-lock.json is missing/ });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('the signing key is released only to the measurement it was wrapped for', async (t) => {
  const kms = new LocalKeyManagement(randomBytes(32));
  const first = await Enclave.open({ keyManagement: kms, measurement: 'sha256:aaaa' });
  const again = await Enclave.open({ keyManagement: kms, measurement: 'sha256:aaaa', wrappedKey: first.wrappedKey });
  t.is(again.signer, first.signer);

  await t.throwsAsync(Enclave.open({ keyManagement: kms, measurement: 'sha256:bbbb', wrappedKey: first.wrappedKey }), {
    instanceOf: KeyReleaseDeniedError,
    message: /only to measurement sha256:aaaa/,
  });
  await t.throwsAsync(Enclave.open({ keyManagement: new LocalKeyManagement(randomBytes(32)), measurement: 'sha256:aaaa', wrappedKey: first.wrappedKey }), {
    instanceOf: KeyReleaseDeniedError,
  });

  // Re-labelling the policy in the header breaks the JWE's integrity check.
  const [header, ...rest] = first.wrappedKey.split('.');
  const relabelled = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(header!, 'base64url').toString()), peer_measurement: 'sha256:bbbb' })).toString(
    'base64url',
  );
  await t.throwsAsync(Enclave.open({ keyManagement: kms, measurement: 'sha256:bbbb', wrappedKey: [relabelled, ...rest].join('.') }), {
    instanceOf: KeyReleaseDeniedError,
  });
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

  const sealed = await sealSessionMaterial(document, { Cookie: 'c=1' }, { ...PAYMENT_USE, expiresAt: NOW_S + 600 });
  t.deepEqual(await enclave.openSessionMaterial(sealed, PAYMENT_USE, NOW_S * 1000), { Cookie: 'c=1' });
  await t.throwsAsync(other.openSessionMaterial(sealed, PAYMENT_USE, NOW_S * 1000), { message: /not a compact JWE/ });
});

const NOW_S = 1_800_000_000;
const PAYMENT_USE = { purpose: 'payment', platform: 'venmo', chainId: 8453, intentHash: `0x${'aa'.repeat(32)}` } as const;

test('sealed material opens only for the use its protected header names, and only until it expires', async (t) => {
  const enclave = await Enclave.open({ keyManagement: new LocalKeyManagement(randomBytes(32)), measurement: 'sha256:cafe' });
  const document = enclave.attestationDocument();
  const now = NOW_S * 1000;
  const sealed = await sealSessionMaterial(document, { Cookie: 'c=1' }, { ...PAYMENT_USE, expiresAt: NOW_S + 600 });
  const refused = async (use: Parameters<typeof enclave.openSessionMaterial>[1], code: string, message: RegExp, at = now) => {
    const error = await t.throwsAsync(enclave.openSessionMaterial(sealed, use, at), { message });
    t.is((error as unknown as { code: string }).code, code);
  };
  await refused({ ...PAYMENT_USE, intentHash: `0x${'bb'.repeat(32)}` }, 'SESSION_CONTEXT_MISMATCH', /another intent/);
  await refused({ ...PAYMENT_USE, chainId: 10 }, 'SESSION_CONTEXT_MISMATCH', /another chain/);
  await refused({ ...PAYMENT_USE, platform: 'paypal' }, 'SESSION_CONTEXT_MISMATCH', /another platform/);
  await refused({ purpose: 'identity', platform: 'venmo', callerAddress: `0x${'11'.repeat(20)}` }, 'SESSION_CONTEXT_MISMATCH', /another purpose/);
  await refused(PAYMENT_USE, 'SESSION_MATERIAL_EXPIRED', /has expired/, now + 600_000);

  const forever = await sealSessionMaterial(document, { Cookie: 'c=1' }, { ...PAYMENT_USE, expiresAt: NOW_S + 7_200 });
  await t.throwsAsync(enclave.openSessionMaterial(forever, PAYMENT_USE, now), { message: /at most 3600 seconds/ });

  // Material sealed without a context (as clients did before) is refused, whatever it holds.
  const key = await importJWK(document.encryptionKey, 'ECDH-ES+A256KW');
  const bare = await new CompactEncrypt(new TextEncoder().encode('{"Cookie":"c=1"}'))
    .setProtectedHeader({ alg: 'ECDH-ES+A256KW', enc: 'A256GCM' })
    .encrypt(key);
  await t.throwsAsync(enclave.openSessionMaterial(bare, PAYMENT_USE, now), { message: /no "peer" protected header/ });

  // The header is authenticated: rewriting its intent breaks decryption.
  const [header, ...rest] = sealed.split('.');
  const rewritten = JSON.parse(Buffer.from(header!, 'base64url').toString());
  rewritten.peer.intentHash = `0x${'bb'.repeat(32)}`;
  const relabelled = [Buffer.from(JSON.stringify(rewritten)).toString('base64url'), ...rest].join('.');
  await t.throwsAsync(enclave.openSessionMaterial(relabelled, { ...PAYMENT_USE, intentHash: `0x${'bb'.repeat(32)}` }, now), { message: /not a compact JWE/ });
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

test('a document asked for with a nonce is signed for that nonce, now, and a check with the nonce refuses any other answer', async (t) => {
  const enclave = await Enclave.open({ keyManagement: new LocalKeyManagement(randomBytes(32)), measurement: 'sha256:cafe' });
  const trusted = { measurement: 'sha256:cafe', signer: enclave.signer };
  const nonce = `0x${'01'.repeat(32)}` as const;
  const fresh = await enclave.attestationDocumentFor(nonce, Date.UTC(2026, 10, 24));
  t.is(fresh.nonce, nonce);
  t.is(fresh.issuedAt, '2026-11-24T00:00:00.000Z');
  t.true(fresh.binding.endsWith(`:${nonce}`));
  await t.notThrowsAsync(checkAttestationDocument(fresh, trusted, nonce));
  // The standing document, or one signed for someone else's nonce, is not an answer to ours.
  await t.throwsAsync(checkAttestationDocument(enclave.attestationDocument(), trusted, nonce), { instanceOf: UntrustedEnclaveError });
  await t.throwsAsync(checkAttestationDocument(await enclave.attestationDocumentFor(`0x${'02'.repeat(32)}`, Date.now()), trusted, nonce), {
    instanceOf: UntrustedEnclaveError,
  });
  // A nonce written into an old document breaks its binding signature.
  await t.throwsAsync(checkAttestationDocument({ ...enclave.attestationDocument(), nonce }, trusted, nonce), { message: /did not bind/ });
});
