/**
 * The attestation service's OpenAPI document: served at /openapi.json, clean under
 * Redocly's recommended rules, covering every route the app serves, and true of real
 * answers: each one below is validated against the documented schema (Ajv, JSON Schema
 * 2020-12), and each refusal's errorCode must be one its operation lists for its status.
 */
import test, { type ExecutionContext } from 'ava';
import { readFile } from 'node:fs/promises';
import pino from 'pino';
import { keccak256, toBytes } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { paymentReference, revocationMessage } from '../../enclave/index.js';
import { NitroAttestationProducer } from '../../enclave/boundary/attestation-producer.js';
import { createAttestationApp } from '../../enclave/http/attestation-app.js';
import { attestationOpenApi } from '../../enclave/http/openapi.js';
import { FixtureNitroModule, makeNitroPki, pcrsOf } from '../support/nitro.js';
import { ResponseValidator } from '../support/openapi-validator.js';
import { lintOpenApi } from '../support/redocly-lint.js';
import { SELLER_PAYEE, makerSession, receivedPayment } from '../support/seller.js';
import {
  OWED_CENTS,
  PLATFORM_FIXTURES,
  TEST_CHAIN_ID,
  TEST_NOW,
  buyerVerify,
  intentFor,
  preparePayment,
  startTestEnclave,
  type TestEnclave,
} from '../support/enclave.js';

const fixture = (platform: string) => PLATFORM_FIXTURES.find((candidate) => candidate.platform === platform)!;
const venmo = fixture('venmo');

type Json = Record<string, any>;
type Answer = { status: number; body: any };

let enclave: TestEnclave;
let document: Json;
let validator: ResponseValidator;
test.before(async () => {
  enclave = await startTestEnclave();
  const response = await fetch(`${enclave.server.httpUrl}/openapi.json`);
  if (!response.headers.get('content-type')?.startsWith('application/json')) throw new Error(`/openapi.json is ${response.headers.get('content-type')}`);
  document = (await response.json()) as Json;
  validator = new ResponseValidator(document);
});
test.after.always(async () => enclave?.stop());

/** The operation a request reaches: a literal segment wins over a parameter, as the router matches. */
function operationFor(method: string, target: string): Json {
  const path = target.split('?')[0]!;
  const templates = Object.keys(document.paths).sort((a, b) => a.split('{').length - b.split('{').length);
  const template = templates.find((candidate) => new RegExp(`^${candidate.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
  const operation = template && document.paths[template][method.toLowerCase()];
  if (!operation) throw new Error(`no documented operation for ${method} ${path}`);
  return operation;
}

function documentedCodes(method: string, target: string, status: number): string[] {
  return operationFor(method, target).responses[status]?.content['application/json'].schema.properties.errorCode?.enum ?? [];
}

const problems = (method: string, target: string, answer: Answer, contentType = 'application/json; charset=utf-8') =>
  validator.problems({ method, target, status: answer.status, contentType, body: answer.body });

/** The answer is the documented success `status`; returns its responseObject. */
function succeeded(t: ExecutionContext, method: string, target: string, answer: Answer, status = 200): any {
  t.is(answer.status, status, `${method} ${target}: ${JSON.stringify(answer.body).slice(0, 500)}`);
  t.deepEqual(problems(method, target, answer), [], `${method} ${target}`);
  return answer.body.responseObject;
}

/** The answer is the refusal `status`/`errorCode`, in its envelope, and the operation documents that code under that status. */
function refused(t: ExecutionContext, method: string, target: string, answer: Answer, status: number, errorCode: string): void {
  t.like(answer, { status, body: { success: false, statusCode: status, errorCode, responseObject: null } }, `${method} ${target}`);
  t.true(documentedCodes(method, target, status).includes(errorCode), `${method} ${target} documents ${errorCode} under ${status}`);
  t.deepEqual(problems(method, target, answer), [], `${method} ${target}`);
}

test('the served document is the one built from the package version, outside the envelope, and passes Redocly with no errors and no warnings', async (t) => {
  const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  t.deepEqual(document, JSON.parse(JSON.stringify(attestationOpenApi(version))));
  t.is(document.openapi, '3.1.0');
  t.false('success' in document);
  const { totals, problems: found } = await lintOpenApi(document);
  t.deepEqual({ errors: totals.errors, warnings: totals.warnings }, { errors: 0, warnings: 0 }, JSON.stringify(found).slice(0, 2000));
});

test('every route the app serves is documented, and nothing else', (t) => {
  const app = createAttestationApp({ service: enclave.service, logger: pino({ level: 'silent' }) });
  const router = (app.middleware as Array<{ router?: { stack: Array<{ path: string; methods: string[] }> } }>).find((middleware) => middleware.router)!.router!;
  const served = router.stack.flatMap((layer) =>
    layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${layer.path.replace(/:(\w+)/g, '{$1}')}`),
  );
  const documented = Object.entries<Json>(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );
  t.deepEqual(documented.sort(), served.sort());
});

test('every failure status names each of its codes in its description, and every body-taking operation documents 413 and 415', (t) => {
  for (const [path, operations] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(operations)) {
      for (const [status, answer] of Object.entries<Json>(operation.responses)) {
        if (Number(status) < 400) continue;
        const codes: string[] = answer.content['application/json'].schema.properties.errorCode.enum;
        t.true(codes.length > 0, `${method} ${path} ${status}`);
        for (const code of codes) t.true(answer.description.includes(`\`${code}\``), `${method} ${path} ${status} describes ${code}`);
      }
      if (operation.requestBody) t.truthy(operation.responses['413'] && operation.responses['415'], `${method} ${path}`);
    }
  }
});

test('the attestation document, with and without a nonce, is the documented one; a bad nonce is a documented refusal', async (t) => {
  const plain = succeeded(t, 'GET', '/attestation', await enclave.get('/attestation'));
  t.false('nonce' in plain);
  const nonce = `0x${'ab'.repeat(32)}`;
  const fresh = succeeded(t, 'GET', `/attestation?nonce=${nonce}`, await enclave.get(`/attestation?nonce=${nonce}`));
  t.is(fresh.nonce, nonce);
  t.true(fresh.binding.endsWith(`:${nonce}`));
  refused(t, 'GET', '/attestation?nonce=0x12', await enclave.get('/attestation?nonce=0x12'), 400, 'INVALID_REQUEST');
});

test("a Nitro enclave's document, carrying the hardware's evidence, is the documented one", async (t) => {
  const pki = await makeNitroPki();
  const producer = await NitroAttestationProducer.open(new FixtureNitroModule(pki, pcrsOf(7)), pki.rootPem, Date.now());
  const nitro = await startTestEnclave({ producer });
  t.teardown(() => nitro.stop());
  const target = `/attestation?nonce=0x${'cd'.repeat(16)}`;
  const fresh = succeeded(t, 'GET', target, await nitro.get(target));
  t.is(fresh.evidence.kind, 'nitro');
  t.regex(fresh.measurement, /^pcr0:/);
});

test('the seller path: upload, read, verify and revoke answer as documented, and so do its refusals', async (t) => {
  const listed = succeeded(t, 'GET', '/seller/supported', await enclave.get('/seller/supported'));
  t.deepEqual(listed.platforms, [
    { platform: 'venmo', actionType: 'transfer_venmo' },
    { platform: 'cashapp', actionType: 'transfer_cashapp' },
    { platform: 'wise', actionType: 'transfer_wise' },
  ]);
  const credentialPath = `/seller/credentials/venmo/${SELLER_PAYEE}`;
  refused(t, 'GET', credentialPath, await enclave.get(credentialPath), 404, 'CREDENTIAL_NOT_FOUND');

  const session = makerSession(enclave);
  const upload = await session.uploadBody();
  refused(
    t,
    'POST',
    '/seller/credentials/venmo',
    await enclave.post('/seller/credentials/venmo', { ...upload, payeeDetails: keccak256(toBytes(venmo.otherPayeeRaw)) }),
    422,
    'CREDENTIAL_PAYEE_MISMATCH',
  );
  refused(t, 'POST', '/seller/credentials/paypal', await enclave.post('/seller/credentials/paypal', upload), 404, 'UNSUPPORTED_PLATFORM');
  refused(t, 'POST', '/seller/credentials/venmo', await enclave.post('/seller/credentials/venmo', { ...upload, surprise: true }), 400, 'INVALID_REQUEST');
  const kept = succeeded(t, 'POST', '/seller/credentials/venmo', await enclave.post('/seller/credentials/venmo', upload), 201);
  t.like(kept, { status: 'ACTIVE', enabled: true, available: true, owner: session.owner.address });
  t.deepEqual(succeeded(t, 'GET', credentialPath, await enclave.get(credentialPath)), kept);
  refused(t, 'GET', '/seller/credentials/venmo/0x1234', await enclave.get('/seller/credentials/venmo/0x1234'), 400, 'INVALID_REQUEST');

  const resolvePath = '/seller/verify/venmo/transfer_venmo';
  const resolve = (paymentId: string, intent: Record<string, unknown>) =>
    enclave.post(resolvePath, { params: { PAYMENT_ID: paymentId }, intent, chainId: TEST_CHAIN_ID });
  const intent = intentFor(venmo);
  const paid = receivedPayment(enclave, session, { note: `beans ${paymentReference(intent.intentHash)}` });
  const attested = succeeded(t, 'POST', resolvePath, await resolve(paid.paymentId, intent));
  t.deepEqual(attested.metadata, { source: 'seller-tee', platform: 'venmo', actionType: 'transfer_venmo' });
  // Another intent whose reference the memo still names: only the claim on the payment id stands in the way.
  refused(
    t,
    'POST',
    resolvePath,
    await resolve(paid.paymentId, { ...intentFor(venmo), intentHash: intent.intentHash.replace(/.$/, (last) => (last === '0' ? '1' : '0')) }),
    409,
    'PAYMENT_ID_ALREADY_USED',
  );
  refused(t, 'POST', resolvePath, await resolve(receivedPayment(enclave, session, {}).paymentId, intent), 422, 'MEMO_MISMATCH');
  refused(
    t,
    'POST',
    '/seller/verify/venmo/transfer_paypal',
    await enclave.post('/seller/verify/venmo/transfer_paypal', { params: {}, intent, chainId: TEST_CHAIN_ID }),
    400,
    'UNSUPPORTED_ACTION',
  );

  const revokePath = `${credentialPath}/revoke`;
  const now = Math.floor(TEST_NOW / 1000);
  const revoke = async (signer: typeof session.owner, issuedAt: number) =>
    enclave.post(revokePath, { issuedAt, signature: await signer.signMessage({ message: revocationMessage(kept.credentialId, issuedAt) }) });
  refused(t, 'POST', revokePath, await revoke(privateKeyToAccount(generatePrivateKey()), now), 403, 'REVOCATION_NOT_AUTHORIZED');
  refused(t, 'POST', revokePath, await revoke(session.owner, now - 600), 422, 'REVOCATION_STALE');
  const revoked = succeeded(t, 'POST', revokePath, await revoke(session.owner, now));
  t.like(revoked, { credentialId: kept.credentialId, status: 'REVOKED', enabled: false, available: false, endedAt: new Date(TEST_NOW).toISOString() });
  refused(
    t,
    'POST',
    resolvePath,
    await resolve(receivedPayment(enclave, session, { note: paymentReference(intent.intentHash) }).paymentId, intent),
    422,
    'SELLER_CREDENTIAL_UNAVAILABLE',
  );
});

test('a buyer verification answers the documented payment attestation, and its refusals are documented', async (t) => {
  const cashapp = fixture('cashapp');
  const target = `/buyer/verify/cashapp/${cashapp.actionType}`;
  const prepared = preparePayment(enclave, cashapp);
  const attested = succeeded(t, 'POST', target, await buyerVerify(enclave, cashapp, prepared, intentFor(cashapp)));
  t.deepEqual(attested.metadata, { source: 'buyer-tee', platform: 'cashapp', actionType: cashapp.actionType });
  refused(t, 'POST', target, await buyerVerify(enclave, cashapp, prepared, intentFor(cashapp)), 409, 'PAYMENT_ID_ALREADY_USED');
  const short = preparePayment(enclave, cashapp, { amount: OWED_CENTS - 1n });
  refused(t, 'POST', target, await buyerVerify(enclave, cashapp, short, intentFor(cashapp)), 422, 'AMOUNT_TOO_LOW');
  const intent = intentFor(cashapp);
  const otherUse = await buyerVerify(enclave, cashapp, prepared, intent, {
    encryptedSessionMaterial: await enclave.seal(prepared.material, {
      purpose: 'payment',
      platform: 'cashapp',
      chainId: TEST_CHAIN_ID,
      intentHash: keccak256(toBytes('another intent')),
    }),
  });
  refused(t, 'POST', target, otherUse, 400, 'SESSION_CONTEXT_MISMATCH');
  refused(
    t,
    'POST',
    '/buyer/verify/nowhere-pay/transfer_nowhere',
    await enclave.post('/buyer/verify/nowhere-pay/transfer_nowhere', { encryptedSessionMaterial: 'x', intent, chainId: TEST_CHAIN_ID }),
    404,
    'UNSUPPORTED_PLATFORM',
  );
  refused(t, 'POST', target, await enclave.post(target, '{"chainId":', { 'content-type': 'application/json' }), 400, 'INVALID_JSON');
  refused(t, 'POST', target, await enclave.post(target, 'chainId=1', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
});

// Serial: the outage is on the simulator every test of this file shares, and ava runs serial tests before the others.
test.serial('a platform outage is a documented 502', async (t) => {
  const monzo = fixture('monzo');
  const prepared = preparePayment(enclave, monzo);
  enclave.simulator.setOutage('monzo', 503);
  const answer = await buyerVerify(enclave, monzo, prepared, intentFor(monzo)).finally(() => enclave.simulator.setOutage('monzo', null));
  refused(t, 'POST', `/buyer/verify/monzo/${monzo.actionType}`, answer, 502, 'PLATFORM_UNAVAILABLE');
});

test('identity and dispute attestations are the documented ones', async (t) => {
  const caller = privateKeyToAccount(generatePrivateKey()).address;
  const account = { id: '3141592653', username: 'maker-mary' };
  const material = enclave.simulator.openSession('venmo', account);
  const request = {
    platform: 'venmo',
    actionType: 'register_venmo',
    callerAddress: caller,
    encryptedSessionMaterial: await enclave.seal(material, { purpose: 'identity', platform: 'venmo', callerAddress: caller }),
    params: { SENDER_ID: account.id },
    chainId: TEST_CHAIN_ID,
  };
  t.like(succeeded(t, 'POST', '/identity', await enclave.post('/identity', request)), {
    identity: { platform: 'venmo', payeeId: account.id },
    signer: enclave.service.signer,
  });
  refused(t, 'POST', '/identity', await enclave.post('/identity', { ...request, actionType: 'register_nothing' }), 400, 'UNSUPPORTED_ACTION');
  refused(t, 'POST', '/identity', await enclave.post('/identity', { ...request, chainId: 1 }), 400, 'UNSUPPORTED_CHAIN');

  const verifiers = succeeded(t, 'GET', '/dispute/supported', await enclave.get('/dispute/supported'));
  t.true(verifiers.verifiers.length > 0);
  const intentHash = keccak256(toBytes('disputed intent'));
  const rawEmail = await enclave.mailer.disputeEmail({
    platform: 'venmo',
    paymentId: '4139920210011',
    disputeId: 'VD-20261123-0042',
    date: new Date('2026-11-23T11:30:00Z'),
  });
  const dispute = (email: string) =>
    enclave
      .seal({ rawEmail: email }, { purpose: 'dispute', platform: 'venmo', chainId: TEST_CHAIN_ID, intentHash })
      .then((sealed) =>
        enclave.post('/dispute/verify/venmo/dispute_venmo', { encryptedSessionMaterial: sealed, params: {}, chainId: TEST_CHAIN_ID, intentHash }),
      );
  t.like(succeeded(t, 'POST', '/dispute/verify/venmo/dispute_venmo', await dispute(rawEmail)), {
    dispute: { paymentId: '4139920210011' },
    metadata: { source: 'dispute-email' },
  });
  refused(t, 'POST', '/dispute/verify/venmo/dispute_venmo', await dispute(rawEmail.replace('4139920210011', '4139920210012')), 422, 'DKIM_VERIFICATION_FAILED');
});

test('the validator holds answers to the document: an undocumented field, errorCode or status does not pass', async (t) => {
  const document = await enclave.get('/attestation');
  t.deepEqual(problems('GET', '/attestation', document), []);
  t.regex(
    problems('GET', '/attestation', { ...document, body: { ...document.body, responseObject: { ...document.body.responseObject, extra: 1 } } }).join(),
    /additional properties/,
  );
  t.regex(
    problems('GET', '/attestation', { ...document, body: { ...document.body, responseObject: { ...document.body.responseObject, signer: 'nobody' } } }).join(),
    /pattern/,
  );
  const notFound = await enclave.get(`/seller/credentials/venmo/${keccak256(toBytes('nobody'))}`);
  t.deepEqual(problems('GET', '/seller/credentials/venmo/0x', notFound), []);
  t.regex(
    problems('GET', '/seller/credentials/venmo/0x', { ...notFound, body: { ...notFound.body, errorCode: 'PAYMENT_NOT_FOUND' } }).join(),
    /allowed values/,
  );
  t.regex(problems('GET', '/seller/credentials/venmo/0x', { status: 409, body: { ...notFound.body, statusCode: 409 } }).join(), /status is not documented/);
  t.regex(problems('GET', '/seller/credentials/venmo/0x', notFound, 'text/plain').join(), /content type text\/plain is not documented/);
});
