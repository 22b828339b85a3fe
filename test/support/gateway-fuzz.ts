/**
 * Fuzzes a running gateway from the OpenAPI document it serves, so every endpoint the
 * document describes is fuzzed without anyone listing it here. Each request picks an
 * operation and then, mostly, does it right (its method, a real id, valid credentials,
 * a schema-valid body) with one or more things wrong: another method or an unknown
 * one, an odd path parameter or another spelling of the path, wrong credentials,
 * hostile or malformed or deep or oversized bodies, wrong media types and encodings.
 *
 * Every answer must be below 500 and in the envelope; a 400 without an errorCode must
 * be document 1's validation shape. Used by the suite (a few thousand requests) and by
 * `npm run fuzz` (any number, counts printed by status).
 */
import { disputeActorId, disputeKind } from '../../actors/kinds/dispute-kind.js';
import type { DisputeInput } from '../../machines/dispute/index.js';
import { payoutKind } from '../../actors/kinds/payout-kind.js';
import { actionKind } from '../../actors/kinds/index.js';
import { liveAttempt } from './remediation.js';
import { USDC_ON_BASE, WORKED_PAYOUT_SETTINGS, payoutBody } from './payout-fakes.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { Agent } from 'node:http';
import { gzipSync, brotliCompressSync, deflateSync } from 'node:zlib';
import { ADMIN_TOKEN, type TestGateway } from './gateway.js';
import { rawRequest, type RawResponse } from './raw-http.js';
import { hostileArbitrary, pathParameterArbitrary, queryArbitrary, validArbitrary, type OpenApiDocument } from './openapi-arbitraries.js';
import { providerSigner } from './wallet-provider.js';
import { signIn } from './maker-sign-in.js';
import { type DashboardSession, signInThroughInbox } from './dashboard.js';
import { depositRequest } from './atomic-create.js';
import { anvilTestAccount, localEmbeddedAccount } from '../../indexer/chain/index.js';
import { erc20Abi } from 'viem';
import { PLATFORM_ACTIONS } from '../../machines/platforms/index.js';
import { openDemoMerchant } from '../../deploy/demo-merchant.js';
import { MerchantAdmin } from '../../gateway/merchants/merchant-admin.js';

/** The seller of the fuzzer's live disputes, and the wallet that pays one of them. */
const FUZZ_SELLER = anvilTestAccount(8);
const FUZZ_PAYER = anvilTestAccount(9);

export interface FuzzTarget {
  url: string;
  document: OpenApiDocument & { paths: Record<string, Record<string, OperationObject>> };
  /** Credentials by scheme: the fuzzer's own merchant, another one, the sandbox twin, the admin token, a signed-in maker's token. */
  credentials: {
    liveKey: string;
    otherKey: string;
    sandboxKey: string;
    adminToken: string;
    makerToken: string;
    /** The own merchant's Owner's dashboard session, `<cookie>|<csrf token>`. */
    dashboardSession: string;
  };
  /** Maker tokens of their own for an operation that spends one (`POST /v2/auth/logout`), so the token every other operation sends stays signed in. */
  spentTokens?: Record<string, string[]>;
  /** Bodies that can succeed, by operation, where the schema's random values never would (`POST /v1/v1/redeem`: a code another maker holds). */
  bodies?: Record<string, unknown[]>;
  /** Known-good query strings by operation (`GET /v2/orderbook`), sent beside the generated ones. */
  queries?: Record<string, Record<string, string>[]>;
  /**
   * Ids that exist, by path parameter name, or by method and name (`DELETE webhookId`) where
   * one method's successes would leave the others none; the admin routes get ids of a
   * merchant the fuzzer's own keys do not belong to.
   */
  ids: Record<string, string[]>;
  /** Ids that exist together, by the path's parameter names joined with `/` (a delivery of its webhook), for paths that need a matching pair; `<METHOD> <names>` for one method's own. */
  idTuples?: Record<string, string[][]>;
  /** Headers an operation's right requests carry besides credentials (a create's Idempotency-Key), by `<METHOD> <path>`. */
  headers?: Record<string, Record<string, string>>;
  /** The largest body the node takes, to send some just under and over it. */
  bodyLimitBytes: number;
  /** By security scheme, the credential of an operation that is a signature over the body (the wallet-provider webhook): headers for a body. */
  signers?: Record<string, (body: string) => Record<string, string>>;
}

interface OperationObject {
  security?: Array<Record<string, unknown>>;
  /** The account whose key the operation is for, when it is not the live one. */
  'x-key-environment'?: 'SANDBOX';
  parameters?: Array<{ in: string; name: string; schema: unknown }>;
  requestBody?: { content?: Record<string, { schema: unknown }> };
}

export interface FuzzRequest {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzOutcome {
  request: FuzzRequest;
  status: number;
  /** Why the answer breaks the rules, or null. */
  problem: string | null;
}

export interface FuzzReport {
  requests: number;
  byStatus: Map<number, number>;
  byOperation: Map<string, Map<number, number>>;
}

const STANDARD = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const EXOTIC = ['PURGE', 'TRACE', 'PROPFIND', 'LINK', 'FOO'];
/** Answers that are deliberately not envelopes (docs/api-conventions.md). */
const NOT_ENVELOPED = new Set([
  'GET /api/v1/events/stream',
  'GET /api/v1/openapi.json',
  'GET /docs',
  'GET /docs/redoc.standalone.js',
  'GET /metrics',
  'GET /',
  'GET /checkout/app.js',
  'GET /checkout/app.css',
  'GET /cashout/{payoutId}',
  'GET /cashout-page/app.js',
  'GET /cashout-page/app.css',
  'GET /dashboard',
  'GET /dashboard-page/app.js',
  'GET /dashboard-page/app.css',
  'GET /internal/engineers',
  'GET /internal/engineers/app.js',
  'GET /internal/engineers/app.css',
  'GET /landing/app.js',
  'GET /landing/app.css',
  'GET /dev/mail',
]);
const ERROR_CODE = /^[A-Z][A-Z0-9_]*$/;

export function fuzzRequests(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const operations = Object.entries(target.document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => operationRequests(target, path, method.toUpperCase(), operation)),
  );
  return fc.oneof(...operations);
}

function operationRequests(target: FuzzTarget, template: string, method: string, operation: OperationObject): fc.Arbitrary<FuzzRequest> {
  const name = `${method} ${template}`;
  const pathArbitrary = pathOf(target, template, method, operation);
  const knownQueries = target.queries?.[name] ?? [];
  const generated = operation.parameters?.some((parameter) => parameter.in === 'query')
    ? queryArbitrary(operation.parameters, target.document)
    : fc.constant({} as Record<string, string | string[]>);
  // Many optional parameters, each sometimes hostile, rarely make a whole valid query: known ones reach the success path.
  const query = knownQueries.length > 0 ? fc.oneof({ weight: 3, arbitrary: generated }, { weight: 1, arbitrary: fc.constantFrom(...knownQueries) }) : generated;
  const bodySchema = bodySchemaOf(operation);
  const sign = signerOf(target, operation);
  return fc
    .record({
      method: fc.oneof(
        { weight: 17, arbitrary: fc.constant(method) },
        { weight: 2, arbitrary: fc.constantFrom(...STANDARD) },
        { weight: 1, arbitrary: fc.constantFrom(...EXOTIC) },
      ),
      path: fc.oneof({ weight: 9, arbitrary: pathArbitrary }, { weight: 1, arbitrary: pathArbitrary.chain(respell) }),
      query,
      credentials: credentialsOf(target, operation, name),
      signed: sign ? fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) : fc.constant(false),
      body:
        bodySchema === undefined
          ? fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: bodyOf(target, {}) })
          : bodyOf(target, bodySchema, target.bodies?.[name]),
      mediaType: mediaTypeOf(),
      encoding: fc.oneof(
        { weight: 12, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'gzip-garbage', 'compress', 'gzip, gzip') },
      ),
    })
    .map(({ method: sent, path, query: params, credentials, signed, body, mediaType, encoding }) => {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(params)) for (const item of [value].flat()) search.append(key, item);
      const headers: Record<string, string> = { ...credentials, ...(signed && sign ? sign(body ?? '') : {}) };
      let bytes: Buffer | undefined;
      if (body !== undefined) {
        bytes = encode(Buffer.from(body, 'utf8'), encoding);
        // Node's client frames no body on GET, HEAD, DELETE or OPTIONS by itself; without a length the server would read it as the next request.
        headers['content-length'] = String(bytes.length);
        if (mediaType) headers['content-type'] = mediaType;
        if (encoding) headers['content-encoding'] = encoding === 'gzip-garbage' ? 'gzip' : encoding;
      }
      const text = search.toString();
      return { operation: name, method: sent, path: text ? `${path}?${text}` : path, headers, body: bytes };
    });
}

/** The names of a path template's parameters, in order: `{orderId}` and the like. */
function pathParameters(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

function bodySchemaOf(operation: OperationObject): unknown {
  return operation.requestBody?.content?.['application/json']?.schema;
}

/** The signer of an operation whose credential is a signature over its body (the wallet-provider webhook), if it is one. */
function signerOf(target: FuzzTarget, operation: OperationObject): ((body: string) => Record<string, string>) | undefined {
  return (operation.security ?? [])
    .flatMap((requirement) => Object.keys(requirement))
    .map((scheme) => target.signers?.[scheme])
    .find((signer) => signer !== undefined);
}

/** One schema-valid value, the same every run. */
function firstValid(target: FuzzTarget, schema: unknown): unknown {
  return fc.sample(validArbitrary(schema, target.document), { numRuns: 1, seed: 1 })[0];
}

function pathOf(target: FuzzTarget, template: string, method: string, operation: OperationObject): fc.Arbitrary<string> {
  const names = pathParameters(template);
  if (names.length === 0) return fc.constant(template);
  const segments = names.map((name) => {
    const parameter = operation.parameters?.find((candidate) => candidate.in === 'path' && candidate.name === name);
    const known = target.ids[`${method} ${template} ${name}`] ?? target.ids[`${method} ${name}`] ?? target.ids[name];
    return pathParameterArbitrary(parameter?.schema ?? {}, target.document, known?.length ? { valid: fc.constantFrom(...known) } : {});
  });
  const tuples = target.idTuples?.[`${method} ${names.join('/')}`] ?? target.idTuples?.[names.join('/')];
  const values: fc.Arbitrary<string[]> = tuples?.length ? fc.oneof(fc.tuple(...segments), fc.constantFrom(...tuples)) : fc.tuple(...segments);
  return values.map((chosen) => names.reduce((path, name, index) => path.replace(`{${name}}`, chosen[index]!), template));
}

/** Another spelling of a path: under the exact-path rule each is a different, unknown path. */
function respell(path: string): fc.Arbitrary<string> {
  return fc.constantFrom(
    path.toUpperCase(),
    `${path}/`,
    `/${path}`,
    path.replace(/^(\/[^/]*)\//, '$1//'),
    `/%${path.charCodeAt(1).toString(16)}${path.slice(2)}`,
    `${path}/..`,
    `/x/..${path}`,
    `${path}%2F`,
    `${path};a=b`,
  );
}

/** The credentials an operation is meant to be called with; `makerToken` is the signed-in maker's token the operation should carry. */
function rightCredentials(target: FuzzTarget, operation: OperationObject, token: string): Record<string, string> {
  const makerToken = token;
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  const { liveKey, sandboxKey, adminToken } = target.credentials;
  if (schemes.includes('makerToken')) return { authorization: `Bearer ${makerToken}` };
  if (schemes.includes('adminToken')) return { authorization: `Bearer ${adminToken}` };
  if (schemes.includes('apiKey')) return { 'x-api-key': operation['x-key-environment'] === 'SANDBOX' ? sandboxKey : liveKey };
  if (schemes.includes('dashboardSession')) {
    // A session spent by its operation (sign-out, revoke-all) comes as the token; any other call takes the Owner's.
    const [cookie, csrf] = (token.startsWith('peer_dashboard_session=') ? token : target.credentials.dashboardSession).split('|');
    return { cookie: cookie!, 'x-csrf-token': csrf! };
  }
  return {};
}

function credentialsOf(target: FuzzTarget, operation: OperationObject, name: string): fc.Arbitrary<Record<string, string>> {
  const { liveKey, otherKey, sandboxKey, adminToken, makerToken } = target.credentials;
  const ownKey = operation['x-key-environment'] === 'SANDBOX' ? sandboxKey : liveKey;
  const spendable = target.spentTokens?.[name];
  const right = (spendable?.length ? fc.constantFrom(...spendable) : fc.constant(makerToken)).map((token) => rightCredentials(target, operation, token));
  return fc.oneof(
    { weight: 6, arbitrary: right },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string>>(
        {},
        { 'x-api-key': 'pk_live_wrong' },
        { 'x-api-key': otherKey },
        { 'x-api-key': ownKey === sandboxKey ? liveKey : sandboxKey },
        { 'x-api-key': '' },
        { authorization: `Bearer ${adminToken}x` },
        { authorization: `Basic ${Buffer.from(`admin:${adminToken}`).toString('base64')}` },
        { authorization: `Bearer ${liveKey}` },
      ),
    },
  );
}

/**
 * A JSON text: the documented example with a field or two changed (what reaches the
 * business rules behind validation), schema-valid, hostile, or not quite JSON at all.
 */
function bodyOf(target: FuzzTarget, schema: unknown, known: unknown[] = []): fc.Arbitrary<string> {
  const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value) => JSON.stringify(value) ?? 'null');
  const example = exampleBodies(target, schema);
  const deep = fc.integer({ min: 20, max: 20_000 }).map((levels) => `{"notes":${'['.repeat(levels)}${']'.repeat(levels)}}`);
  const sized = fc.constantFrom(target.bodyLimitBytes - 64, target.bodyLimitBytes + 1).map((size) => JSON.stringify({ notes: { pad: 'x'.repeat(size) } }));
  return fc.oneof(
    { weight: example ? 5 : 0, arbitrary: json(example ?? fc.constant({})) },
    { weight: known.length > 0 ? 5 : 0, arbitrary: json(known.length > 0 ? fc.constantFrom(...known) : fc.constant({})) },
    { weight: 5, arbitrary: json(validArbitrary(schema, target.document)) },
    { weight: 4, arbitrary: json(hostileArbitrary(schema, target.document)) },
    { weight: 1, arbitrary: json(fc.jsonValue({ maxDepth: 4 })) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":}', 'null', '42', '"text"', '[]', '{"a":1}}', '\u0000', '\ufeff{}', '{"a":"\ud800"}', "{'a':1}") },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: sized },
  );
}

/** The schema's `example` with up to two of its properties made valid-random, hostile or absent; undefined without an example. */
function exampleBodies(target: FuzzTarget, schema: unknown): fc.Arbitrary<Record<string, unknown>> | undefined {
  const resolved = resolve(target, schema);
  const example = resolved.example;
  if (typeof example !== 'object' || example === null) return undefined;
  const properties = (resolved.properties ?? {}) as Record<string, unknown>;
  const names = Object.keys(properties);
  const change = (name: string) =>
    fc.oneof(validArbitrary(properties[name], target.document), hostileArbitrary(properties[name], target.document), fc.constant(undefined));
  return fc.uniqueArray(fc.constantFrom(...names), { maxLength: 2 }).chain((chosen) =>
    fc.tuple(...chosen.map(change)).map((values) => {
      const body: Record<string, unknown> = { ...(example as Record<string, unknown>) };
      chosen.forEach((name, index) => (values[index] === undefined ? delete body[name] : (body[name] = values[index])));
      return body;
    }),
  );
}

function resolve(target: FuzzTarget, schema: unknown): Record<string, unknown> {
  const reference = (schema as { $ref?: unknown }).$ref;
  if (typeof reference !== 'string') return (schema ?? {}) as Record<string, unknown>;
  return (target.document.components?.schemas?.[reference.replace('#/components/schemas/', '')] ?? {}) as Record<string, unknown>;
}

function mediaTypeOf(): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant('application/json') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'application/json; charset=utf-8',
        'application/json; charset=latin1',
        'application/json; charset=nonsense',
        'APPLICATION/JSON',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/vnd.api+json',
        'application/json, text/plain',
        undefined,
      ),
    },
  );
}

function encode(body: Buffer, encoding: string): Buffer {
  switch (encoding) {
    case 'gzip':
      return gzipSync(body);
    case 'deflate':
      return deflateSync(body);
    case 'br':
      return brotliCompressSync(body);
    default:
      // 'gzip-garbage' sends plain bytes labelled gzip; unknown encodings send them as they are.
      return body;
  }
}

/**
 * Every operation once, done right: its own method and credentials, known ids (each
 * operation taking the next one of a parameter, so a retry does not spend what a discard
 * needs), a known query or none, a known or example body. Sent before the random ones,
 * these walk every success path whatever the seed; the random requests around them are
 * what looks for answers that break the rules.
 */
export function rightRequests(target: FuzzTarget): FuzzRequest[] {
  const next = new Map<string, number>();
  const take = <T>(key: string, list: readonly T[]): T => {
    const index = next.get(key) ?? 0;
    next.set(key, index + 1);
    return list[index % list.length]!;
  };
  return Object.entries(target.document.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([lower, operation]): FuzzRequest => {
      const method = lower.toUpperCase();
      const name = `${method} ${template}`;
      const names = pathParameters(template);
      const tupleKey = target.idTuples?.[`${method} ${names.join('/')}`] ? `${method} ${names.join('/')}` : names.join('/');
      const tuples = target.idTuples?.[tupleKey];
      const chosen = tuples?.length
        ? take(tupleKey, tuples)
        : names.map((parameter) => {
            // An operation's own ids (`<method> <path> <parameter>`) before those of every operation with the parameter.
            const own = target.ids[`${name} ${parameter}`];
            const known = own ?? target.ids[`${method} ${parameter}`] ?? target.ids[parameter];
            const key = own ? `${name} ${parameter}` : `${method} ${parameter}`;
            // Reads all take the first id; each write the next one, so a retry does not spend the letter a discard needs.
            if (known?.length) return take(key, method === 'GET' ? known.slice(0, 1) : known);
            // No id is known where none can succeed (a customer's payment needs its order's token): a well-formed one.
            const schema = operation.parameters?.find((candidate) => candidate.in === 'path' && candidate.name === parameter)?.schema ?? {};
            return firstValid(target, schema) as string;
          });
      const path = names.reduce((built, parameter, index) => built.replace(`{${parameter}}`, chosen[index]!), template);
      const search = new URLSearchParams(target.queries?.[name]?.[0] ?? {});
      const spendable = target.spentTokens?.[name];
      const headers = {
        ...rightCredentials(target, operation, spendable?.length ? take(name, spendable) : target.credentials.makerToken),
        ...target.headers?.[name],
      };
      const schema = bodySchemaOf(operation);
      const example = schema === undefined ? undefined : resolve(target, schema).example;
      const value = target.bodies?.[name]?.[0] ?? example ?? (schema === undefined ? undefined : firstValid(target, schema));
      let body: Buffer | undefined;
      if (value !== undefined) {
        const text = JSON.stringify(value);
        body = Buffer.from(text, 'utf8');
        Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(body.length) });
        const sign = signerOf(target, operation);
        if (sign) Object.assign(headers, sign(text));
      }
      const query = search.toString();
      return { operation: name, method, path: query ? `${path}?${query}` : path, headers, body };
    }),
  );
}

/** Sends one request over `agent` and judges the answer. */
export async function send(target: FuzzTarget, fuzz: FuzzRequest, agent: Agent): Promise<FuzzOutcome> {
  try {
    const response = await rawRequest(target.url, { method: fuzz.method, path: fuzz.path, headers: fuzz.headers, body: fuzz.body, agent });
    return { request: fuzz, status: response.status, problem: judge(fuzz, response) };
  } catch (error) {
    return { request: fuzz, status: 0, problem: `no answer: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function judge(fuzz: FuzzRequest, { status, headers, text, json }: RawResponse): string | null {
  // 501 is the documented answer to a method outside HTTP's standard set, and only to that.
  const unimplemented = status === 501 && !STANDARD.includes(fuzz.method);
  if (status >= 500 && !unimplemented) return `answered ${status}: ${text.slice(0, 300)}`;
  if (fuzz.method === 'HEAD') return text === '' ? null : 'a HEAD answer carries a body';
  const served = `${fuzz.method} ${fuzz.path.split('?')[0]}`;
  // A page under a path template (the payout checkout's) is named by its operation, sent with its own method.
  const page = fuzz.operation.startsWith(`${fuzz.method} `) && NOT_ENVELOPED.has(fuzz.operation);
  if (status === 200 && (NOT_ENVELOPED.has(served) || page)) return null;
  const contentType = String(headers['content-type'] ?? '');
  if (!contentType.startsWith('application/json')) return `content-type ${contentType}`;
  if (typeof json !== 'object' || json === null) return `not a JSON object: ${text.slice(0, 200)}`;
  const body = json as Record<string, unknown>;
  const keys = Object.keys(body);
  if (!['success', 'message', 'responseObject', 'statusCode'].every((key) => keys.includes(key))) return `not the envelope: ${text.slice(0, 200)}`;
  if (keys.some((key) => !['success', 'message', 'responseObject', 'statusCode', 'errorCode'].includes(key))) return `extra envelope keys: ${keys.join(',')}`;
  if (body.statusCode !== status) return `statusCode ${String(body.statusCode)} on a ${status}`;
  if (body.success !== (status >= 200 && status < 300)) return `success ${String(body.success)} on a ${status}`;
  if (typeof body.message !== 'string' || body.message === '') return 'no message';
  if (body.errorCode !== undefined && (typeof body.errorCode !== 'string' || !ERROR_CODE.test(body.errorCode))) return `errorCode ${String(body.errorCode)}`;
  if (status === 400 && body.errorCode === undefined && !isValidationShape(body.responseObject))
    return `a 400 without errorCode is not the validation shape: ${text.slice(0, 200)}`;
  return null;
}

function isValidationShape(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { fieldErrors, formErrors } = value as { fieldErrors?: unknown; formErrors?: unknown };
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
  return strings(formErrors) && typeof fieldErrors === 'object' && fieldErrors !== null && Object.values(fieldErrors).every(strings);
}

/**
 * Sends every operation done right (rightRequests), then runs `requests` fuzz requests,
 * `concurrency` at a time, as a fast-check property: a broken answer fails it, and
 * fast-check shrinks the batch to the smallest request that still breaks a rule and
 * reports it with the seed to replay it.
 */
export async function fuzzGateway(
  target: FuzzTarget,
  options: { requests: number; concurrency: number; seed?: number; onBatch?: (report: FuzzReport) => void },
): Promise<FuzzReport> {
  const report: FuzzReport = { requests: 0, byStatus: new Map(), byOperation: new Map() };
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  try {
    for (const fuzz of rightRequests(target)) {
      const outcome = await send(target, fuzz, agent);
      tally(report, outcome);
      if (outcome.problem !== null) throw new Error(`${describe(fuzz)}\n  → ${outcome.problem}`);
    }
    const details = await fc.check(
      fc.asyncProperty(fc.array(fuzzRequests(target), { minLength: options.concurrency, maxLength: options.concurrency }), async (batch) => {
        const outcomes = await Promise.all(batch.map((fuzz) => send(target, fuzz, agent)));
        for (const outcome of outcomes) tally(report, outcome);
        options.onBatch?.(report);
        const broken = outcomes.find((outcome) => outcome.problem !== null);
        if (broken) throw new Error(`${describe(broken.request)}\n  → ${broken.problem}`);
      }),
      { numRuns: Math.ceil(options.requests / options.concurrency), seed: options.seed },
    );
    // The property's own message names the request that broke a rule; fast-check's report names the seed to replay it.
    if (details.failed)
      throw new Error(
        `${String(details.errorInstance instanceof Error ? details.errorInstance.message : details.errorInstance)}\n\n${fc.defaultReportMessage(details)}`,
      );
  } finally {
    agent.destroy();
  }
  return report;
}

function describe(fuzz: FuzzRequest): string {
  const body = fuzz.body === undefined ? '' : `\n  body (${fuzz.body.length} bytes): ${JSON.stringify(fuzz.body.subarray(0, 300).toString('latin1'))}`;
  return `${fuzz.method} ${fuzz.path}\n  headers: ${JSON.stringify(fuzz.headers)}${body}`;
}

function tally(report: FuzzReport, outcome: FuzzOutcome): void {
  report.requests++;
  report.byStatus.set(outcome.status, (report.byStatus.get(outcome.status) ?? 0) + 1);
  const byStatus = report.byOperation.get(outcome.request.operation) ?? new Map<number, number>();
  byStatus.set(outcome.status, (byStatus.get(outcome.status) ?? 0) + 1);
  report.byOperation.set(outcome.request.operation, byStatus);
}

/**
 * The node every fuzz run starts (the CLI and the test alike): no rate limit to
 * swamp the answers, webhook endpoints on loopback allowed, and a local chain with its
 * makers, so the market's operations (document 3) have deposits to answer from rather
 * than a 503 for a node that reads no chain.
 */
export const FUZZ_NODE_CONFIG = {
  RATE_LIMIT_PER_MINUTE: 1_000_000,
  WEBHOOK_ALLOW_PRIVATE: true,
  INDEXER_ENABLED: true,
  INDEXER_POLL_MS: 50,
  LOCAL_MAKERS: true,
} as const;

/**
 * Merchants and orders to fuzz against: the fuzzer's own merchant (whose keys it uses),
 * another one, and a third whose ids the admin routes get, so that no admin request can
 * rotate the keys the fuzzer itself sends.
 */
export async function prepareFuzzTarget(gateway: TestGateway): Promise<FuzzTarget> {
  const own = await gateway.createMerchant();
  const other = await gateway.createMerchant({ name: 'Other', tier: 'PRO', evmWalletAddress: '0x2222222222222222222222222222222222222222' });
  const administered = await gateway.createMerchant({ name: 'Administered', tier: 'BASE' });
  // The demo merchant `npm start` opens on a new data folder, so the development node's demo orders can be made.
  await openDemoMerchant(new MerchantAdmin(gateway.node.system, () => new Date(gateway.clock.now()).toISOString()));
  const orders = await Promise.all(
    [own.liveKey, own.sandboxKey, other.liveKey].map(
      async (key) => (await gateway.request('POST', '/api/v1/orders', { key, body: { requestedUsdcAmount: '12.5' } })).body.responseObject.order.id as string,
    ),
  );
  // An order of its own for the admin API's sent events: cancelling it spends none of the orders the other operations use.
  const messaged = (await gateway.request('POST', '/api/v1/orders', { key: own.sandboxKey, body: { requestedUsdcAmount: '3' } })).body.responseObject.order
    .id as string;
  const deadLetterIds = await seedDeadLetters(gateway);
  const webhooks = await seedWebhooks(gateway, own.liveKey, 6);
  const deletable = await seedWebhooks(gateway, own.liveKey, 6);
  const maker = (await gateway.request('POST', '/v2/makers/create', { body: { processorName: 'venmo', depositData: { userId: '3141592653' } } })).body
    .responseObject;
  // A signed-in maker of its own, another holding the code the redeem bodies name, and tokens for signing out.
  // The fuzzer's maker holds an embedded wallet where the node has a local chain, so atomic-create can succeed.
  const local = gateway.node.chain?.localChain ?? null;
  const [signedIn, referrer, ...leaving] = await Promise.all(
    Array.from({ length: 42 }, (_, index) => signIn(gateway, index === 0 && local ? localEmbeddedAccount(4) : undefined)),
  );
  const atomic = local ? depositRequest(local, 1_000_000n) : null;
  if (atomic) {
    const created = await gateway.request('POST', '/v2/deposits/atomic-create', { headers: signedIn!.headers, body: atomic });
    if (created.status !== 201) throw new Error(`atomic-create failed: ${JSON.stringify(created.body)}`);
  }
  // Test clocks of the sandbox account: each can be advanced once by any of the bodies below, and some are for DELETE alone.
  const testClocks = await seedTestClocks(gateway, own.sandboxKey, 12);
  await gateway.request('PATCH', '/v1/v1/me/referral/code', { headers: referrer!.headers, body: { code: 'FRIEND-BOB' } });
  const payouts = local ? await seedPayouts(gateway, own.liveId, own.liveKey, 5) : [];
  // A fulfilled order of the live account, for the refund create (payouts are set up just above).
  const refundable = local ? [await fulfilledOrder(gateway, own.liveKey)] : [];
  const remediation = await seedActions(gateway, own);
  // Orders of the own live account for the dashboard's cancel alone: each cancel ends one, and no other operation draws them.
  const cancellable = await Promise.all(
    Array.from(
      { length: 4 },
      async () =>
        (await gateway.request('POST', '/api/v1/orders', { key: own.liveKey, body: { requestedUsdcAmount: '4' } })).body.responseObject.order.id as string,
    ),
  );
  const dashboard = await seedDashboard(gateway, own.liveId, administered.liveId);
  const disputes = await seedDisputes(gateway, own.sandboxKey, own.liveId, orders[0]!);
  const document = (await gateway.request('GET', '/api/v1/openapi.json')).body as unknown as FuzzTarget['document'];
  // The deposits and makers the node's local chain was seeded with, when it runs one: the bundle's id and escrow, the leaderboard's maker ids.
  const escrow = gateway.node.chain?.localChain?.escrow ?? null;
  return {
    url: gateway.url,
    document,
    credentials: {
      liveKey: own.liveKey,
      otherKey: other.liveKey,
      sandboxKey: own.sandboxKey,
      adminToken: ADMIN_TOKEN,
      makerToken: signedIn!.token,
      dashboardSession: dashboard.owner,
    },
    spentTokens: {
      'POST /v2/auth/logout': leaving.map((session) => session.token),
      'POST /api/v1/dashboard/sign-out': dashboard.signingOut,
      'POST /api/v1/dashboard/session/environment': dashboard.switching,
      'POST /api/v1/dashboard/sessions/revoke-all': dashboard.revoking,
      'POST /api/v1/merchants/me/api-key/rotate': dashboard.rotating,
    },
    bodies: {
      'POST /v1/v1/redeem': [{ code: 'FRIEND-BOB' }, { code: 'friend-bob' }],
      // The fuzzer's maker exists already (409): another one's payee details.
      'POST /v2/makers/create': [{ processorName: 'venmo', depositData: { userId: '2718281828' } }],
      'POST /internal/v1/actors/{kind}/{actorId}/events': [{ event: { type: 'CANCEL' } }],
      'POST /api/v1/test-clocks/{testClockId}/advance': [1, 24, 24 * 365].map((hours) => ({
        frozenTime: new Date(gateway.clock.now() + hours * 3_600_000).toISOString(),
      })),
      ...(atomic ? { 'POST /v2/deposits/atomic-create': [atomic] } : {}),
      'POST /api/v1/providers/conversion/funding-activity': payouts.map((payout) => ({ requestId: payout.requestId })),
      'POST /api/v1/merchants/me/orders/{orderId}/refunds': [
        { amount: '2', customerEmail: 'fuzz-refund@example.com', funding: { chainId: 8453, tokenAddress: USDC_ON_BASE } },
      ],
      ...remediation.bodies,
      'POST /api/v1/merchants/me/disputes/simulate': disputes.paymentIds.map((paymentId) => ({ paymentId })),
      'POST /api/v1/merchants/me/disputes/{disputeId}/payment': disputes.payments.map((txHash) => ({ txHash })),
    },
    headers: {
      'POST /api/v1/payouts': { 'idempotency-key': 'fuzz-payout-key-0001' },
      'POST /api/v1/merchants/me/orders/{orderId}/refunds': { 'idempotency-key': 'fuzz-refund-key-0001' },
    },
    queries: {
      'GET /': [{ order: orders[0]! }],
      'GET /internal/v1/actors': [{ query: orders[0]! }, { query: own.liveId }],
      'GET /internal/v1/dead-letters': [{}],
      'GET /v2/orderbook': [{ currency: 'USD' }, { currency: 'GBP', sortBy: 'apr', publicOnly: 'true' }],
      'GET /v2/orderbook/table': [
        { currency: 'USD', limit: '2', offset: '1' },
        { currency: 'EUR', showSmallOrders: 'true' },
      ],
      ...(escrow
        ? {
            'GET /v2/deposits/{depositId}/bundle': [
              { escrowAddress: escrow },
              { escrowAddress: escrow.toLowerCase(), dailySnapshotLimit: '7', forceRefresh: 'true' },
            ],
          }
        : {}),
    },
    ids: {
      merchantId: [administered.liveId, administered.sandboxId],
      // A team lives on the live account: an Owner is added there.
      'POST /internal/v1/merchants/{merchantId}/owners merchantId': [administered.liveId],
      'POST /api/v1/merchants/me/orders/{orderId}/cancel orderId': cancellable,
      orderId: orders,
      // POSTs on an order: the checkout's fail without the order's token whatever the order; a refund needs a fulfilled one.
      'POST orderId': [...refundable, ...orders],
      deadLetterId: deadLetterIds,
      disputeId: disputes.ids,
      webhookId: webhooks.map(([id]) => id!),
      'DELETE webhookId': deletable.map(([id]) => id!),
      testClockId: testClocks.slice(0, 8),
      'DELETE testClockId': testClocks.slice(8),
      chain: ['base'],
      token: ['usdc'],
      depositId: ['1', '2'],
      requestId: atomic ? [atomic.requestId] : [],
      name: ['order', 'payment', 'transaction'],
      makerId: [...new Set(gateway.node.seededMakers.map((seeded) => `8453_${seeded.maker.toLowerCase()}`))],
      // The team's members to re-role, and others to remove: never the Owner the fuzzer's session is.
      'PATCH userId': dashboard.members.slice(0, 2),
      'DELETE userId': dashboard.members.slice(2),
      // Reads take the first payout; each cancel the next one, still awaiting its funding.
      'GET id': payouts.slice(0, 1).map((payout) => payout.id),
      'POST id': payouts.slice(1).map((payout) => payout.id),
      'POST actionId': remediation.decidable,
    },
    // kind/actorId: the inspector's actors (the orders above), and the first turn of each; events are sent to an order of their own.
    idTuples: {
      'webhookId/deliveryId': webhooks,
      'processorName/payeeDetails': [[maker.processorName, maker.hashedOnchainId]],
      'platform/actionType': PLATFORM_ACTIONS.map((entry) => [entry.platform.id, entry.action.type]),
      'kind/actorId': orders.map((id) => ['order', id]),
      'POST orderId/paymentId': [remediation.attempt],
      'orderId/actionId': remediation.polls,
      'POST kind/actorId': [['order', messaged]],
      'kind/actorId/version': orders.map((id) => ['order', id, '1']),
      'DELETE id/rail': payouts.slice(0, 1).flatMap((payout) => ['venmo', 'cashapp', 'paypal', 'zelle', 'revolut', 'chime'].map((rail) => [payout.id, rail])),
    },
    bodyLimitBytes: gateway.node.config.BODY_LIMIT_BYTES,
    signers: { walletProviderSignature: providerSigner(() => gateway.clock.now()) },
  };
}

/**
 * Disputes of the fuzzer's own accounts for the dispute reads and payments: live ones
 * opened on the dispute actor directly (a live opening needs an attestation the fuzz
 * node's missing attestation service would sign, test/gateway/disputes/live-disputes.test.ts
 * makes one), and sandbox ones simulated over settled sandbox payments, with one more
 * settled payment for the simulation.
 */
async function seedDisputes(
  gateway: TestGateway,
  sandboxKey: string,
  liveId: string,
  liveOrderId: string,
): Promise<{ ids: string[]; paymentIds: string[]; payments: string[] }> {
  const at = new Date(gateway.clock.now()).toISOString();
  const live = await Promise.all(
    [1, 2].map(async (n) => {
      const id = disputeActorId('venmo', `VD-FUZZ-${n}`);
      const opening: Omit<DisputeInput, 'id'> = {
        disputeId: `VD-FUZZ-${n}`,
        platform: 'venmo',
        source: 'ATTESTATION',
        orderId: liveOrderId,
        paymentId: `pay_fuzzdispute0000000000000${n}`,
        intentHash: `0x${String(n).repeat(64)}`,
        merchantId: liveId,
        environment: 'LIVE',
        rail: 'venmo',
        amountUsdc: 4_000_000n,
        caseAmountCents: 400n,
        caseCurrency: 'USD',
        sellerAddress: FUZZ_SELLER.address,
        stakeStatusAtOpen: 'UNPROTECTED',
        fulfillTxHash: null,
        at,
        dueAt: new Date(gateway.clock.now() + 7 * 24 * 3_600_000).toISOString(),
      };
      await gateway.node.system.ask(disputeKind, id, { type: 'OPEN', ...opening });
      return id;
    }),
  );
  const paymentIds: string[] = [];
  for (let made = 0; made < 3; made++) {
    const created = await gateway.request('POST', '/api/v1/sandbox/test-order', { key: sandboxKey, body: {} });
    paymentIds.push(created.body.responseObject.payment.id as string);
  }
  // A real payment of a live dispute, on the node's chain: the first payment of one succeeds, and the rest find it used.
  const local = gateway.node.chain?.localChain;
  const payments: string[] = [];
  if (local) {
    await local.mintUsdc(FUZZ_PAYER.address, 4_000_000n);
    const hash = await local
      .walletFor(FUZZ_PAYER)
      .writeContract({ address: local.usdc, abi: erc20Abi, functionName: 'transfer', args: [FUZZ_SELLER.address, 4_000_000n] });
    payments.push((await local.confirm(hash)).transactionHash);
  }
  const ids = [...live];
  for (const paymentId of paymentIds.slice(0, 2)) {
    const opened = await gateway.request('POST', '/api/v1/merchants/me/disputes/simulate', { key: sandboxKey, body: { paymentId } });
    ids.push(opened.body.responseObject.id as string);
  }
  return { ids, paymentIds, payments };
}

/**
 * A live attempt of the merchant with an action of each kind made under a key: the fuzzer's
 * bodies replay those keys, so each action route can answer 200 whatever its eligibility rules
 * make of the attempt (test/gateway/actions/ walks the rules themselves).
 */
async function seedActions(gateway: TestGateway, merchant: { liveId: string; liveKey: string }) {
  const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
  const bodies: Record<string, Array<Record<string, string>>> = {};
  const polls: string[][] = [];
  for (const [suffix, actionName, txId] of [
    ['recreate', 'RECREATE', null],
    ['extend', 'EXTEND', null],
    ['fulfill-sar', 'FULFILL_SAR', '4100001'],
  ] as const) {
    const idempotencyKey = `fuzz-${suffix}-key`;
    const actionId = `act_fuzz${suffix.replace('-', '').padEnd(20, '0')}`;
    await gateway.node.system.ask(actionKind, actionId, {
      type: 'CREATE_ACTION',
      actionName,
      orderId: attempt.order.id,
      paymentId: attempt.paymentId,
      merchantId: merchant.liveId,
      idempotencyKey,
      txId,
      needsApproval: true,
      at: new Date(gateway.clock.now()).toISOString(),
    });
    bodies[`POST /api/v1/merchants/me/orders/{orderId}/payments/{paymentId}/${suffix}`] = [{ idempotencyKey, ...(txId ? { txId } : {}) }];
    polls.push([attempt.order.id, actionId]);
  }
  // Actions waiting for approval for staff's decisions, each of which ends one.
  const decidable: string[] = [];
  for (const label of ['decide1', 'decide2']) {
    const waiting = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
    for (const actionName of ['RECREATE', 'EXTEND', 'FULFILL_SAR'] as const) {
      const actionId = `act_${label}${actionName.replace('_', '').toLowerCase().padEnd(17, '0')}`;
      await gateway.node.system.ask(actionKind, actionId, {
        type: 'CREATE_ACTION',
        actionName,
        orderId: waiting.order.id,
        paymentId: waiting.paymentId,
        merchantId: merchant.liveId,
        idempotencyKey: null,
        txId: actionName === 'FULFILL_SAR' ? '4100001' : null,
        needsApproval: true,
        at: new Date(gateway.clock.now()).toISOString(),
      });
      decidable.push(actionId);
    }
  }
  return { attempt: [attempt.order.id, attempt.paymentId], bodies, polls, decidable };
}

/** An order of 12.5 USDC settled in full, as its payment tells it: FULFILLED. */
async function fulfilledOrder(gateway: TestGateway, key: string): Promise<string> {
  const id = (await gateway.request('POST', '/api/v1/orders', { key, body: { requestedUsdcAmount: '12.5' } })).body.responseObject.order.id as string;
  await gateway.node.system.askAt(
    { kind: 'order', id },
    { type: 'APPLY_SETTLEMENT', paymentId: 'pay_fuzz_refundable', usdcAmount: 12_500_000n, at: new Date(gateway.clock.now()).toISOString() },
  );
  return id;
}

/**
 * The own merchant's dashboard (docs/dashboard-auth.md): its Owner signed in (every session call
 * takes that session), sessions of the Owner's to sign out, sessions of another member's for
 * revoke-all (which ends every session of its member, so never the Owner's), and members to
 * re-role and remove. Each session as `<cookie>|<csrf token>`. And sessions of another business's
 * Owner (`rotatedId`'s) for the key rotation, so that it never rotates the keys the fuzzer sends.
 */
async function seedDashboard(gateway: TestGateway, liveId: string, rotatedId: string) {
  await gateway.admin('POST', `/internal/v1/merchants/${liveId}/owners`, { email: 'fuzz-owner@example.com' });
  const asString = (session: DashboardSession) => `${session.cookie}|${session.csrfToken}`;
  const owner = await signInThroughInbox(gateway, 'fuzz-owner@example.com');
  const invite = async (email: string, role: string) =>
    (await gateway.request('POST', '/api/v1/merchants/me/users', { headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken }, body: { email, role } }))
      .body.responseObject.userId as string;
  await invite('fuzz-leaver@example.com', 'MANAGER');
  const members = [];
  for (const [index, role] of ['MANAGER', 'CASHIER', 'CASHIER', 'MANAGER', 'CASHIER'].entries())
    members.push(await invite(`fuzz-member${index}@example.com`, role));
  const signingOut = [];
  for (let i = 0; i < 3; i++) signingOut.push(asString(await signInThroughInbox(gateway, 'fuzz-owner@example.com')));
  // Sessions of a member of their own for the environment switch: a session's environment is its own, so switching these never moves the Owner's.
  await invite('fuzz-switcher@example.com', 'MANAGER');
  const switching = [];
  for (let i = 0; i < 2; i++) switching.push(asString(await signInThroughInbox(gateway, 'fuzz-switcher@example.com')));
  const revoking = [];
  for (let i = 0; i < 3; i++) revoking.push(asString(await signInThroughInbox(gateway, 'fuzz-leaver@example.com')));
  await gateway.admin('POST', `/internal/v1/merchants/${rotatedId}/owners`, { email: 'fuzz-rotator@example.com' });
  const rotating = [];
  for (let i = 0; i < 2; i++) rotating.push(asString(await signInThroughInbox(gateway, 'fuzz-rotator@example.com')));
  return { owner: asString(owner), signingOut, switching, revoking, rotating, members };
}

/** Payouts of the fuzzer's live account, with payouts set up as the demo merchant has them: their ids and funding request ids. */
async function seedPayouts(gateway: TestGateway, merchantId: string, key: string, count: number): Promise<Array<{ id: string; requestId: string }>> {
  const settings = await gateway.admin('PATCH', `/internal/v1/merchants/${merchantId}`, { payouts: WORKED_PAYOUT_SETTINGS });
  if (settings.status !== 200) throw new Error(`payout settings failed: ${JSON.stringify(settings.body)}`);
  const payouts: Array<{ id: string; requestId: string }> = [];
  for (let i = 0; i < count; i++) {
    const created = await gateway.request('POST', '/api/v1/payouts', {
      key,
      body: payoutBody({ customerEmail: `fuzz${i}@example.com` }),
      headers: { 'idempotency-key': `fuzz-seeded-payout-${i}` },
    });
    if (created.status !== 201) throw new Error(`payout creation failed: ${JSON.stringify(created.body)}`);
    const id = created.body.responseObject.payoutId as string;
    const view = await gateway.node.system.views(payoutKind).findOne({ _id: id }, { projection: { view: 1 } });
    payouts.push({ id, requestId: view!.view.requestId! });
  }
  return payouts;
}

async function seedTestClocks(gateway: TestGateway, sandboxKey: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await gateway.request('POST', '/api/v1/test-clocks', { key: sandboxKey, body: { name: `fuzz ${i}` } });
    if (created.status !== 201) throw new Error(`test clock creation failed: ${JSON.stringify(created.body)}`);
    ids.push(created.body.responseObject.id);
  }
  return ids;
}

/**
 * Webhooks of the fuzzer's live account, aimed at a receiver on loopback (the node must
 * allow private addresses), each with a delivery from its test event, so the webhook and
 * delivery operations can succeed: [webhookId, deliveryId] pairs.
 */
async function seedWebhooks(gateway: TestGateway, key: string, count: number): Promise<string[][]> {
  const receiver = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiver.unref();
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/fuzz`;
  const pairs: string[][] = [];
  for (let i = 0; i < count; i++) {
    const created = await gateway.request('POST', '/api/v1/webhooks', { key, body: { url } });
    if (created.status !== 201) throw new Error(`webhook creation failed: ${JSON.stringify(created.body)}`);
    const tested = await gateway.request('POST', `/api/v1/webhooks/${created.body.responseObject.id}/test`, { key });
    pairs.push([created.body.responseObject.id, tested.body.responseObject.deliveryId]);
  }
  return pairs;
}

/**
 * Open bus letters for a consumer that runs on the node and takes anything, so the
 * dead-letter operations can succeed: a retry hands the event back to it, a discard
 * closes the letter. Each retry or discard closes one, so there are enough for a run.
 */
async function seedDeadLetters(gateway: TestGateway): Promise<string[]> {
  const durable = 'fuzz-dead-letters';
  await gateway.node.bus.consume({ durable, kinds: ['fuzz'] }, async () => {});
  const ids: string[] = [];
  for (let i = 0; i < 40; i++) {
    const event = { id: `fuzz:f${i}:1:0`, type: 'FUZZED', actor: { kind: 'fuzz', id: `f${i}` }, at: gateway.clock.now(), data: {} };
    const letter = await gateway.node.system.deadLetters.add({
      key: `bus:${durable}:${event.id}`,
      source: 'bus',
      actor: null,
      consumer: durable,
      payload: event,
      error: { name: 'Error', message: 'seeded for the fuzzer', code: null },
      attempts: 1,
      firstAttemptAt: gateway.clock.now(),
    });
    ids.push(letter._id);
  }
  return ids;
}

/** What is wrong with the node after fuzzing: it must report healthy and still create and read an order. */
export async function problemsAfterFuzz(gateway: TestGateway, target: FuzzTarget): Promise<string[]> {
  const problems: string[] = [];
  const health = await gateway.request('GET', '/v1/health-check');
  if (health.status !== 200 || health.body.responseObject?.status !== 'healthy') problems.push(`health: ${JSON.stringify(health.body)}`);
  const created = await gateway.request('POST', '/api/v1/orders', { key: target.credentials.liveKey, body: { requestedUsdcAmount: '3' } });
  if (created.status !== 201) problems.push(`create: ${created.status} ${JSON.stringify(created.body)}`);
  else if ((await gateway.request('GET', `/api/v1/orders/${created.body.responseObject.order.id}`)).status !== 200)
    problems.push('hosted read of a new order failed');
  const list = await gateway.request('GET', '/api/v1/merchants/me/orders?limit=100', { key: target.credentials.liveKey });
  if (list.status !== 200) problems.push(`list: ${list.status}`);
  return problems;
}

/** The counts by status, and by operation and status, as Markdown tables. */
export function formatFuzzReport(report: FuzzReport): string {
  const statuses = [...report.byStatus.keys()].sort((a, b) => a - b);
  const lines = ['| status | answers |', '|---:|---:|', ...statuses.map((status) => `| ${status} | ${report.byStatus.get(status)!.toLocaleString('en-US')} |`)];
  lines.push('', `| operation | ${statuses.join(' | ')} |`, `|---|${statuses.map(() => '---:').join('|')}|`);
  for (const [operation, byStatus] of [...report.byOperation].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`| ${operation} | ${statuses.map((status) => (byStatus.get(status) ?? 0).toLocaleString('en-US')).join(' | ')} |`);
  }
  return lines.join('\n');
}
