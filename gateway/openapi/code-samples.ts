/**
 * Redoc's `x-codeSamples` on every operation of the merchant's API: a curl command and
 * JavaScript with fetch, plus the Peer SDK's call where it has one. They are written
 * from the operation itself (method, path, security, the request schema's example), so
 * a sample follows its operation as it changes; path parameters are shell or JavaScript
 * variables named after them.
 */
import type { createDocument } from 'zod-openapi';
import { QUICKSTART_NODE_URL } from './quickstart.js';
import { merchantTags } from './tags.js';

interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The headers that authenticate a call: one, or for a dashboard session's call that changes something, the cookie and the CSRF token. */
type Credential = Array<{ header: string; shell: string; js: string }> | null;

type Document = ReturnType<typeof createDocument>;
/** The parts of an operation the samples are written from, as the generated document holds them. */
interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in?: string; name?: string; required?: boolean }>;
  requestBody?: { content?: Record<string, { schema?: { $ref?: string; example?: unknown } }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

const CREDENTIALS: Record<string, Credential> = {
  apiKey: [{ header: 'x-api-key', shell: '$PEER_API_KEY', js: 'process.env.PEER_API_KEY' }],
  orderToken: [{ header: 'authorization', shell: 'Bearer $ORDER_TOKEN', js: '`Bearer ${orderToken}`' }],
  // A browser sends the cookie itself (credentials: 'include'); a script outside one names it.
  dashboardSession: [{ header: 'cookie', shell: 'peer_dashboard_session=$DASHBOARD_SESSION', js: '`peer_dashboard_session=${dashboardSession}`' }],
};
const CSRF = { header: 'x-csrf-token', shell: '$CSRF_TOKEN', js: 'csrfToken' };

/** The calls `@zkp2p/pay-sdk` makes for an operation, with the body it would be given. */
const SDK_CALLS: Record<string, (body: unknown) => string> = {
  createOrder: (body) =>
    [
      "import { createCheckout } from '@zkp2p/pay-sdk';",
      '',
      `const checkout = await createCheckout(${json(body, '')}, {`,
      `  apiBaseUrl: '${QUICKSTART_NODE_URL}',`,
      '  apiKey: process.env.PEER_API_KEY,',
      '});',
      '// checkout.order, checkout.orderToken, and checkout.checkoutUrl to send the customer to',
    ].join('\n'),
  getMerchantProfile: () =>
    [
      "import { getMerchant } from '@zkp2p/pay-sdk';",
      '',
      `const merchant = await getMerchant({ apiBaseUrl: '${QUICKSTART_NODE_URL}', apiKey: process.env.PEER_API_KEY });`,
    ].join('\n'),
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The document with code samples on each operation whose tag is in the merchant's group. */
export function withCodeSamples(document: Document): Document {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation?.tags?.some((tag) => merchantTags.has(tag))) continue;
      (operation as Record<string, unknown>)['x-codeSamples'] = samples(document, method, path, operation);
    }
  }
  return document;
}

function samples(document: Document, method: string, path: string, operation: Operation): CodeSample[] {
  const scheme = Object.keys(operation.security?.[0] ?? {})[0] ?? '';
  const found = CREDENTIALS[scheme] ?? null;
  const credential = found && scheme === 'dashboardSession' && method !== 'get' ? [...found, CSRF] : found;
  const body = requestExample(document, operation);
  const query = requiredQuery(operation);
  const sdk = operation.operationId ? SDK_CALLS[operation.operationId] : undefined;
  return [
    { lang: 'Shell', label: 'curl', source: curl(method, path, query, credential, body) },
    { lang: 'JavaScript', label: 'JavaScript', source: fetchCall(method, path, query, credential, body, answersJson(operation)) },
    ...(sdk ? [{ lang: 'JavaScript', label: 'Peer SDK', source: sdk(body) }] : []),
  ];
}

function curl(method: string, path: string, query: string[], credential: Credential, body: unknown): string {
  const target = `${QUICKSTART_NODE_URL}${path.replace(/\{(\w+)\}/g, (_, name: string) => `$${shellName(name)}`)}${queryString(query, (name) => `$${shellName(name)}`)}`;
  const lines = [`curl -s${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "${target}"`];
  for (const { header, shell } of credential ?? []) lines.push(`-H "${header}: ${shell}"`);
  if (body !== undefined) lines.push(`-H 'content-type: application/json'`, `-d '${JSON.stringify(body).replace(/'/g, `'\\''`)}'`);
  return lines.join(' \\\n  ');
}

function fetchCall(method: string, path: string, query: string[], credential: Credential, body: unknown, answersJson: boolean): string {
  const target = `${QUICKSTART_NODE_URL}${path.replace(/\{(\w+)\}/g, '${$1}')}${queryString(query, (name) => `\${${name}}`)}`;
  const headers = [...(credential ?? []).map(({ header, js }) => `'${header}': ${js}`), ...(body !== undefined ? ["'content-type': 'application/json'"] : [])];
  const options = [
    ...(method === 'get' ? [] : [`method: '${method.toUpperCase()}'`]),
    ...(headers.length > 0 ? [`headers: { ${headers.join(', ')} }`] : []),
    ...(body !== undefined ? [`body: JSON.stringify(${json(body, '  ')})`] : []),
  ];
  const call = options.length === 0 ? `fetch(\`${target}\`)` : `fetch(\`${target}\`, {\n  ${options.join(',\n  ')},\n})`;
  const read = answersJson ? 'const { success, responseObject, errorCode } = await response.json();' : 'const text = await response.text();';
  return `const response = await ${call};\n${read}`;
}

/** The example of the operation's JSON body: on the body's schema, or on the component it refers to. */
function requestExample(document: Document, operation: Operation): unknown {
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  if (!schema) return undefined;
  if (schema.example !== undefined) return schema.example;
  const component = schema.$ref
    ? (document.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')] as { example?: unknown } | undefined)
    : undefined;
  return component?.example;
}

function requiredQuery(operation: Operation): string[] {
  return (operation.parameters ?? []).flatMap(({ in: where, name, required }) => (where === 'query' && required && name ? [name] : []));
}

function answersJson(operation: Operation): boolean {
  const ok = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
  return Boolean(ok?.content?.['application/json']);
}

function queryString(names: string[], value: (name: string) => string): string {
  return names.length === 0 ? '' : `?${names.map((name) => `${name}=${value(name)}`).join('&')}`;
}

/** orderId → ORDER_ID */
function shellName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** JSON laid out for a sample, its lines after the first indented by `indent`. */
function json(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}
