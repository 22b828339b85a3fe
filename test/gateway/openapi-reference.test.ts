/**
 * What the reference page (/docs) needs from the OpenAPI document beyond being valid:
 * every operation in a tag group (Redoc hides one that is not), the quickstart first,
 * a code sample on every merchant operation with a body the operation accepts, and a
 * description on every field. Each failure names the operation or field, so a new
 * route shows what it lacks.
 */
import test from 'ava';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../gateway/openapi/document.js';

type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const MERCHANT_GROUP = 'Merchant API';
const DOCUMENT_ID = 'https://peer.invalid/openapi.json';

const document = openApiDocument('test', { orderMaxUsdc: '100000', admin: true, deadLetters: true, metrics: true }) as Json;

function operations(): Array<{ where: string; path: string; method: string; operation: Json }> {
  return Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ where: `${method.toUpperCase()} ${path}`, path, method, operation: item[method] })),
  );
}

const groups = document['x-tagGroups'] as Array<{ name: string; tags: string[] }>;
const merchantTags = new Set(groups.find((group) => group.name === MERCHANT_GROUP)?.tags ?? []);
const merchantOperations = () => operations().filter(({ operation }) => (operation.tags as string[]).some((tag) => merchantTags.has(tag)));

test('every operation has a tag, and every tag is declared and shown in a group of the reference page', (t) => {
  const grouped = new Set(groups.flatMap((group) => group.tags));
  const declared = new Set((document.tags as Array<{ name: string }>).map((tag) => tag.name));
  const untagged = operations().flatMap(({ where, operation }) => {
    const tags = (operation.tags ?? []) as string[];
    if (tags.length === 0) return [`${where} has no tag`];
    return tags
      .filter((tag) => !grouped.has(tag) || !declared.has(tag))
      .map((tag) => `${where}: tag “${tag}” is not in document.tags and a group of x-tagGroups (gateway/openapi/tags.ts)`);
  });
  t.deepEqual(untagged, []);
  t.deepEqual(
    [...declared].filter((tag) => !grouped.has(tag)),
    [],
    'every declared tag is in a group',
  );
  t.is(groups[0]?.name, MERCHANT_GROUP, 'the merchant API is the first group');
  for (const tag of ['Orders', 'Checkout', 'Payments', 'Webhooks', 'Test clocks', 'Merchants', 'Integration'])
    t.true(merchantTags.has(tag), `${tag} is in the merchant API`);
  for (const tag of ['Market', 'Makers', 'Admin', 'Wallet provider', 'Service']) t.false(merchantTags.has(tag), `${tag} is not in the merchant API`);
});

test('the reference page opens with the quickstart', (t) => {
  const description = String(document.info.description);
  t.true(description.startsWith('# Quickstart\n'), description.slice(0, 80));
  for (const heading of [
    '## 2. Listen for webhooks',
    '## 3. Create an order',
    '## 4. Open its checkout link',
    '## 5. Pay it',
    '## The same with the Peer SDK',
  ]) {
    t.true(description.includes(heading), heading);
  }
  t.true(description.indexOf('# Conventions') > description.indexOf('# Quickstart'), 'the conventions follow the quickstart');
});

test('every merchant operation has a curl and a JavaScript sample that call it, with a body its schema takes', (t) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const listed = merchantOperations();
  t.true(listed.length > 30, `${listed.length} merchant operations`);
  const problems = listed.flatMap(({ where, path, method, operation }) => {
    const samples = (operation['x-codeSamples'] ?? []) as Array<{ lang: string; label: string; source: string }>;
    const curl = samples.find((sample) => sample.label === 'curl')?.source;
    const javascript = samples.find((sample) => sample.lang === 'JavaScript')?.source;
    if (!curl || !javascript) return [`${where} lacks a curl or a JavaScript sample`];
    const found: string[] = [];
    const url = /curl -s(?: -X (\w+))? "http:\/\/127\.0\.0\.1:3000([^"?]*)/.exec(curl);
    const calledPath = url?.[2]?.replace(
      /\$([A-Z_]+)/g,
      (_, name: string) => `{${name.toLowerCase().replace(/_([a-z])/g, (__, letter: string) => letter.toUpperCase())}}`,
    );
    if ((url?.[1] ?? 'GET') !== method.toUpperCase() || calledPath !== path) found.push(`${where}: its curl calls ${url?.[1] ?? 'GET'} ${calledPath}`);
    if (!javascript.includes(`127.0.0.1:3000${path.replace(/\{(\w+)\}/g, '${$1}')}`)) found.push(`${where}: its JavaScript calls another path`);
    const body = operation.requestBody as Json | undefined;
    const sent = /-d '(.*)'$/s.exec(curl)?.[1];
    if (body?.required && sent === undefined) found.push(`${where}: the body is required and its samples send none (give its schema an example)`);
    if (sent !== undefined) {
      const pointer = ['paths', path, method, 'requestBody', 'content', 'application/json', 'schema']
        .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
        .join('/');
      const validate = ajv.getSchema(`${DOCUMENT_ID}#/${pointer}`)!;
      if (!validate(JSON.parse(sent.replace(/'\\''/g, "'")))) found.push(`${where}: its sample body breaks the schema: ${ajv.errorsText(validate.errors)}`);
    }
    return found;
  });
  t.deepEqual(problems, []);
  const create = merchantOperations().find(({ operation }) => operation.operationId === 'createOrder')!.operation['x-codeSamples'] as Array<{
    label: string;
    source: string;
  }>;
  t.regex(create.find((sample) => sample.label === 'Peer SDK')?.source ?? '', /createCheckout\(/);
});
/**
 * Every property reachable from the given operations (parameters, request bodies, every
 * answer), following references, named by where it was reached.
 */
function undescribedFields(listed: ReturnType<typeof operations>): string[] {
  const missing = new Set<string>();
  const seen = new Set<unknown>();
  const component = (ref: string) => document.components.schemas[ref.replace('#/components/schemas/', '')] as Json;
  const described = (schema: Json) => Boolean(schema.description?.trim() || (schema.$ref && component(schema.$ref).description?.trim()));
  const walk = (schema: Json | undefined, where: string): void => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    if (schema.$ref) {
      walk(component(schema.$ref), schema.$ref.replace('#/components/schemas/', ''));
      return;
    }
    for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
      if (!described(property)) missing.add(`${where}.${name}`);
      walk(property, `${where}.${name}`);
    }
    for (const key of ['items', 'additionalProperties']) if (typeof schema[key] === 'object') walk(schema[key], `${where}[]`);
    for (const key of ['anyOf', 'oneOf', 'allOf']) for (const variant of schema[key] ?? []) walk(variant, where);
  };
  for (const { where, operation } of listed) {
    for (const parameter of operation.parameters ?? []) {
      if (!parameter.description?.trim() && !described(parameter.schema ?? {})) missing.add(`${where} ${parameter.in} parameter ${parameter.name}`);
    }
    for (const [type, media] of Object.entries<Json>(operation.requestBody?.content ?? {}))
      if (type === 'application/json') walk(media.schema, `${where} body`);
    for (const [status, answer] of Object.entries<Json>(operation.responses)) walk(answer.content?.['application/json']?.schema, `${where} ${status}`);
  }
  return [...missing].sort();
}

test('every field the merchant API takes or answers has a description', (t) => {
  t.deepEqual(undescribedFields(merchantOperations()), []);
});

/** The actor inspector's answers are not described field by field yet. */
const INSPECTOR = /^\/internal\/v1\/actors/;

test('every field of the other APIs has a description too, but for the actor inspector', (t) => {
  const others = operations().filter(
    ({ path, operation }) => !INSPECTOR.test(path) && !merchantOperations().some((merchant) => merchant.operation === operation),
  );
  t.true(others.length > 30, `${others.length} operations`);
  t.deepEqual(undescribedFields(others), []);
});
