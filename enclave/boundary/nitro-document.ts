/**
 * An AWS Nitro attestation document, read and checked as AWS's verification process
 * describes it: a COSE_Sign1 (RFC 9052) signed with ES384 whose payload is the Nitro
 * Secure Module's CBOR map (module id, SHA384 PCRs, the signing certificate and its CA
 * bundle, and the caller's public key, user data and nonce). The signature is checked
 * with the certificate's key and the certificate chained, at the time given, to a root
 * the verifier trusts by its bytes, never to one the document brings.
 */
import { X509Certificate, verify } from 'node:crypto';
import { Tag, decode, encode } from 'cbor2';

export interface NitroAttestation {
  moduleId: string;
  /** Milliseconds since the epoch, as the module stamped it. */
  timestamp: number;
  /** PCR index to its SHA-384 value. */
  pcrs: ReadonlyMap<number, Uint8Array>;
  certificate: Uint8Array;
  cabundle: readonly Uint8Array[];
  publicKey: Uint8Array | null;
  userData: Uint8Array | null;
  nonce: Uint8Array | null;
}

export class NitroDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NitroDocumentError';
  }
}

/** COSE's algorithm id for ECDSA with SHA-384, the only one the Nitro Secure Module signs with. */
export const COSE_ES384 = -35;
const COSE_ALG = 1;
const COSE_SIGN1_TAG = 18;

interface CoseSign1 {
  protectedHeader: Uint8Array;
  payload: Uint8Array;
  signature: Uint8Array;
}

/** The bytes COSE signs for a COSE_Sign1 without external data. */
export function coseSign1SigStructure(protectedHeader: Uint8Array, payload: Uint8Array): Uint8Array {
  return encode(['Signature1', plainBytes(protectedHeader), new Uint8Array(0), plainBytes(payload)]);
}

/**
 * cbor2 writes a Buffer as its JSON form, not as a byte string, and a document decoded
 * from a Buffer (gRPC's bytes, base64 decoded) yields Buffers: the view over the same
 * bytes is what COSE signed.
 */
function plainBytes(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The document's claims, once its signature holds and its certificate chains to `root`
 * with every certificate valid at `now`. Throws NitroDocumentError otherwise.
 */
export function verifyNitroDocument(document: Uint8Array, options: { root: string | X509Certificate; now: number }): NitroAttestation {
  const cose = readCoseSign1(document);
  const attestation = readPayload(cose.payload);
  const root = typeof options.root === 'string' ? new X509Certificate(options.root) : options.root;
  const leaf = checkChain(attestation, root, options.now);
  const signed = verify(
    'sha384',
    coseSign1SigStructure(cose.protectedHeader, cose.payload),
    { key: leaf.publicKey, dsaEncoding: 'ieee-p1363' },
    cose.signature,
  );
  if (!signed) throw new NitroDocumentError("the COSE signature does not verify with the document's certificate");
  return attestation;
}

function decodeCbor(bytes: Uint8Array, what: string): unknown {
  try {
    return decode(bytes);
  } catch {
    throw new NitroDocumentError(`${what} is not CBOR`);
  }
}

function readCoseSign1(bytes: Uint8Array): CoseSign1 {
  let value = decodeCbor(bytes, 'the document');
  if (value instanceof Tag) {
    if (value.tag !== COSE_SIGN1_TAG) throw new NitroDocumentError(`the document is CBOR tag ${String(value.tag)}, not COSE_Sign1 (18)`);
    value = value.contents;
  }
  if (!Array.isArray(value) || value.length !== 4) throw new NitroDocumentError('the document is not a COSE_Sign1 array of four');
  const [protectedHeader, , payload, signature] = value as unknown[];
  if (!(protectedHeader instanceof Uint8Array) || !(payload instanceof Uint8Array) || !(signature instanceof Uint8Array)) {
    throw new NitroDocumentError("the COSE_Sign1's protected header, payload and signature must be byte strings");
  }
  const header = decodeCbor(protectedHeader, 'the protected header');
  const alg = header instanceof Map ? header.get(COSE_ALG) : undefined;
  if (alg !== COSE_ES384) throw new NitroDocumentError(`the protected header names algorithm ${String(alg)}, not ES384 (${COSE_ES384})`);
  // ES384's signature is r and s, 48 bytes each; anything else cannot be one.
  if (signature.length !== 96) throw new NitroDocumentError('the signature is not 96 bytes (ES384 r and s)');
  return { protectedHeader, payload, signature };
}

function readPayload(bytes: Uint8Array): NitroAttestation {
  const payload = decodeCbor(bytes, 'the payload');
  if (payload === null || typeof payload !== 'object' || payload instanceof Map || Array.isArray(payload)) {
    throw new NitroDocumentError('the payload is not a map of text keys');
  }
  const fields = payload as Record<string, unknown>;
  const moduleId = fields.module_id;
  if (typeof moduleId !== 'string' || moduleId.length === 0) throw new NitroDocumentError('module_id must be a non-empty text');
  if (fields.digest !== 'SHA384') throw new NitroDocumentError('digest must be SHA384');
  const timestamp = fields.timestamp;
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp <= 0)
    throw new NitroDocumentError('timestamp must be a positive integer of milliseconds');
  return {
    moduleId,
    timestamp,
    pcrs: readPcrs(fields.pcrs),
    certificate: bytesField(fields, 'certificate', 1, 1024)!,
    cabundle: readCabundle(fields.cabundle),
    publicKey: bytesField(fields, 'public_key', 1, 1024, true),
    userData: bytesField(fields, 'user_data', 0, 512, true),
    nonce: bytesField(fields, 'nonce', 0, 512, true),
  };
}

function readPcrs(value: unknown): Map<number, Uint8Array> {
  if (!(value instanceof Map) || value.size < 1 || value.size > 32) throw new NitroDocumentError('pcrs must be a map of 1 to 32 entries');
  for (const [index, pcr] of value) {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 31) throw new NitroDocumentError('a PCR index must be 0 to 31');
    if (!(pcr instanceof Uint8Array) || ![32, 48, 64].includes(pcr.length)) throw new NitroDocumentError(`PCR${index} must be 32, 48 or 64 bytes`);
  }
  return value as Map<number, Uint8Array>;
}

function readCabundle(value: unknown): Uint8Array[] {
  if (!Array.isArray(value) || value.length === 0) throw new NitroDocumentError('cabundle must be a non-empty array, root first');
  for (const certificate of value) {
    if (!(certificate instanceof Uint8Array) || certificate.length < 1 || certificate.length > 1024)
      throw new NitroDocumentError('each cabundle entry must be 1 to 1024 bytes');
  }
  return value as Uint8Array[];
}

function bytesField(fields: Record<string, unknown>, name: string, min: number, max: number, optional = false): Uint8Array | null {
  const value = fields[name];
  if (optional && (value === undefined || value === null)) return null;
  if (!(value instanceof Uint8Array) || value.length < min || value.length > max) {
    throw new NitroDocumentError(`${name} must be ${min} to ${max} bytes${optional ? ' or null' : ''}`);
  }
  return value;
}

/** The signing certificate, once the bundle runs from `root` down to it, each issued and signed by the one before and valid at `now`. */
function checkChain(attestation: NitroAttestation, root: X509Certificate, now: number): X509Certificate {
  const chain = [...attestation.cabundle, attestation.certificate].map((der, index) => {
    try {
      return new X509Certificate(der);
    } catch {
      throw new NitroDocumentError(index === attestation.cabundle.length ? 'the certificate is not DER X.509' : `cabundle[${index}] is not DER X.509`);
    }
  });
  if (!chain[0]!.raw.equals(root.raw)) throw new NitroDocumentError("the bundle's root is not the trusted root");
  chain.forEach((certificate, index) => {
    const name = index === chain.length - 1 ? 'the certificate' : `cabundle[${index}]`;
    if (now < Date.parse(certificate.validFrom) || now > Date.parse(certificate.validTo)) {
      throw new NitroDocumentError(`${name} is not valid at ${new Date(now).toISOString()} (${certificate.validFrom} to ${certificate.validTo})`);
    }
    if (index === 0) return;
    const issuer = chain[index - 1]!;
    if (!issuer.ca) throw new NitroDocumentError(`cabundle[${index - 1}] is not a CA and cannot issue ${name}`);
    if (!certificate.checkIssued(issuer) || !certificate.verify(issuer.publicKey)) {
      throw new NitroDocumentError(`${name} is not issued and signed by cabundle[${index - 1}]`);
    }
  });
  return chain[chain.length - 1]!;
}
