/**
 * A stand-in for AWS's Nitro PKI and Secure Module: a root, an intermediate and a
 * signing certificate made by openssl in a temporary folder (keys never leave the
 * process and the folder is removed), and a module that signs attestation documents
 * with them as the real one does (COSE_Sign1, ES384, the NSM's payload map).
 */
import { execFile } from 'node:child_process';
import { X509Certificate, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Tag, encode } from 'cbor2';
import { COSE_ES384, coseSign1SigStructure } from '../../enclave/boundary/nitro-document.js';
import type { NitroSecureModule } from '../../enclave/boundary/attestation-producer.js';

const run = promisify(execFile);

export interface NitroPki {
  rootPem: string;
  intermediate: Uint8Array;
  certificate: Uint8Array;
  signingKey: KeyObject;
}

/** Certificates valid from now for `days`; the root and intermediate are CAs, the signing certificate is not. */
export async function makeNitroPki(days = 1): Promise<NitroPki> {
  const dir = await mkdtemp(join(tmpdir(), 'nitro-pki-'));
  try {
    const key = async (name: string) => {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
      await writeFile(join(dir, `${name}.key`), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      return privateKey;
    };
    await key('root');
    await run('openssl', [
      'req',
      '-x509',
      '-new',
      '-key',
      join(dir, 'root.key'),
      '-sha384',
      '-days',
      String(days),
      '-subj',
      '/CN=test nitro root',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-out',
      join(dir, 'root.pem'),
    ]);
    const issue = async (name: string, issuer: string, ca: boolean) => {
      await writeFile(
        join(dir, `${name}.ext`),
        ca
          ? 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n'
          : 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n',
      );
      await run('openssl', ['req', '-new', '-key', join(dir, `${name}.key`), '-subj', `/CN=test nitro ${name}`, '-out', join(dir, `${name}.csr`)]);
      await run('openssl', [
        'x509',
        '-req',
        '-in',
        join(dir, `${name}.csr`),
        '-CA',
        join(dir, `${issuer}.pem`),
        '-CAkey',
        join(dir, `${issuer}.key`),
        '-set_serial',
        String(Date.now()),
        '-days',
        String(days),
        '-sha384',
        '-extfile',
        join(dir, `${name}.ext`),
        '-out',
        join(dir, `${name}.pem`),
      ]);
      return new Uint8Array(new X509Certificate(await readFile(join(dir, `${name}.pem`))).raw);
    };
    await key('intermediate');
    const intermediate = await issue('intermediate', 'root', true);
    const signingKey = await key('signer');
    const certificate = await issue('signer', 'intermediate', false);
    return {
      rootPem: await readFile(join(dir, 'root.pem'), 'utf8'),
      intermediate,
      certificate,
      signingKey: createPrivateKey(signingKey.export({ type: 'pkcs8', format: 'pem' })),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A COSE_Sign1 over `payload` (the NSM's map, or anything a test wants signed), signed by `key`. */
export function signCose(payload: unknown, key: KeyObject, options: { alg?: number; tagged?: boolean } = {}): Uint8Array {
  const protectedHeader = encode(new Map([[1, options.alg ?? COSE_ES384]]));
  const payloadBytes = encode(payload);
  const signature = sign('sha384', coseSign1SigStructure(protectedHeader, payloadBytes), { key, dsaEncoding: 'ieee-p1363' });
  const cose = [protectedHeader, new Map(), payloadBytes, new Uint8Array(signature)];
  // The module sends the array untagged; COSE allows the tag, so the reader takes both.
  return encode(options.tagged ? new Tag(18, cose) : cose);
}

/** The payload map the NSM signs, with PCRs 0 to 2 and the PKI's certificates. */
export function nitroPayload(
  pki: NitroPki,
  pcrs: ReadonlyMap<number, Uint8Array>,
  fields: { userData?: Uint8Array; nonce?: Uint8Array; timestamp: number },
): Record<string, unknown> {
  return {
    module_id: 'i-0123456789abcdef0-enc0123456789abcdef',
    digest: 'SHA384',
    timestamp: fields.timestamp,
    pcrs,
    certificate: pki.certificate,
    // cbor2 writes a Buffer as its JSON form, so DER goes in as a plain Uint8Array.
    cabundle: [new Uint8Array(new X509Certificate(pki.rootPem).raw), pki.intermediate],
    public_key: null,
    user_data: fields.userData ? new Uint8Array(fields.userData) : null,
    nonce: fields.nonce ? new Uint8Array(fields.nonce) : null,
  };
}

/** PCRs 0 to 2 of an imagined enclave image: PCR0 is `seed` repeated, so tests can name another image. */
export function pcrsOf(seed: number): Map<number, Uint8Array> {
  return new Map([0, 1, 2].map((index) => [index, new Uint8Array(48).fill(index === 0 ? seed : index)]));
}

export class FixtureNitroModule implements NitroSecureModule {
  readonly #pki: NitroPki;
  readonly #pcrs: ReadonlyMap<number, Uint8Array>;
  readonly #now: () => number;

  constructor(pki: NitroPki, pcrs: ReadonlyMap<number, Uint8Array>, now: () => number = Date.now) {
    this.#pki = pki;
    this.#pcrs = pcrs;
    this.#now = now;
  }

  async attest(request: { userData: Uint8Array; nonce?: Uint8Array }): Promise<Uint8Array> {
    return signCose(nitroPayload(this.#pki, this.#pcrs, { userData: request.userData, nonce: request.nonce, timestamp: this.#now() }), this.#pki.signingKey);
  }
}
