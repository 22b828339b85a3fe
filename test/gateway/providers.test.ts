/**
 * Document 3's provider files through HTTP, held against the attestation service's own
 * adapters: every platform action the enclave serves is in both manifests and every one
 * listed is served; each template's session fields, rules and params are exactly what the
 * adapter accepts; and the request it shows is the one the adapter makes.
 */
import test from 'ava';
import { PAYMENT_PLATFORMS, PLATFORM_HOSTS, type PlatformRequest } from '../../enclave/platforms/index.js';
import { IDENTITY_ACTIONS } from '../../enclave/identity/identity-actions.js';
import { idHash } from '../../enclave/verification/intent-snapshot.js';
import type { SessionPurpose } from '../../enclave/session-context.js';
import { MOBILE_USER_AGENT } from '../../gateway/providers/provider-sets.js';
import { notFound, startTestGateway, type TestGateway } from '../support/gateway.js';

interface FieldView {
  name: string;
  required: boolean;
  format: string;
  rules: { minLength: number | null; maxLength: number | null; pattern: string | null; headerNamePattern: string | null };
}
interface RequestView {
  method: string;
  url: string;
  headers: Array<{ name: string; sessionField: string | null; value: string | null }>;
  headersFromSessionField: string | null;
  body: null | { type: 'form'; fields: Record<string, string> } | { type: 'json'; sessionField: string };
}
interface TemplateView {
  set: string;
  platform: string;
  actionType: string;
  kind: 'payment' | 'identity';
  paymentMethodHash: string;
  login: { url: string; capture: string; userAgent: string | null };
  session: { captureUrlPrefix: string; fields: FieldView[] };
  params: Array<{ name: string; pattern: string }>;
  request: RequestView;
  accountRequest: RequestView | null;
  attestation: { method: string; path: string; sealPurpose: SessionPurpose };
}
interface ManifestView {
  set: string;
  providers: Array<{ platform: string; paymentMethodHash: string; actions: Array<{ actionType: string; kind: string; template: string }> }>;
}

/** What the enclave serves, by `platform/actionType`: its schemas and requests, whatever kind of action. */
interface Adapter {
  session: { safeParse(value: unknown): { success: boolean; data?: unknown } };
  params: { safeParse(value: unknown): { success: boolean } };
  request(session: never, params: Record<string, string>): PlatformRequest;
  account?: { request(session: never): PlatformRequest };
}
const ENCLAVE = new Map<string, Adapter>([
  ...PAYMENT_PLATFORMS.map((platform): [string, Adapter] => [`${platform.id}/${platform.actionType}`, { ...platform, request: platform.paymentRequest }]),
  ...IDENTITY_ACTIONS.map((action): [string, Adapter] => [`${action.platform}/${action.actionType}`, action]),
]);

let gateway: TestGateway;
test.before(async () => {
  gateway = await startTestGateway();
});
test.after.always(() => gateway.stop());

async function get<T>(path: string): Promise<T> {
  const answer = await gateway.request('GET', path);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.responseObject as T;
}

async function templates(set: 'stable' | 'mobile'): Promise<TemplateView[]> {
  const manifest = await get<ManifestView>(set === 'stable' ? '/providers/providers.json' : '/providers/mobile/providers.json');
  return Promise.all(manifest.providers.flatMap((provider) => provider.actions.map((action) => get<TemplateView>(action.template))));
}

/** A value of each format the template's rules admit. */
function sample(field: FieldView): unknown {
  switch (field.format) {
    case 'header':
      return 'session=abc; csrf=def';
    case 'bearer':
      return 'Bearer tok_123';
    case 'replayable-headers':
      return { 'x-request-id': 'r-1', 'Accept-Language': 'en-US' };
    case 'cashapp-activity-request':
      return JSON.stringify({ activity_scope: 'MY_ACTIVITY_WEB_V2', page_size: 20 });
    default:
      throw new Error(`no sample of ${field.format}`);
  }
}

const materialOf = (template: TemplateView) => Object.fromEntries(template.session.fields.map((field) => [field.name, sample(field)]));
const paramsOf = (template: TemplateView) => Object.fromEntries(template.params.map((param, index) => [param.name, `id:${index}.x`]));

/** The request a template shows, filled in here without the code the enclave fills it with. */
function shownRequest(view: RequestView, material: Record<string, unknown>, params: Record<string, string>) {
  const fill = (text: string, encode: (value: string) => string) => text.replace(/\{(\w+)\}/g, (_, name: string) => encode(params[name]!));
  const headers: Record<string, string> = { ...(view.headersFromSessionField ? (material[view.headersFromSessionField] as Record<string, string>) : {}) };
  for (const header of view.headers) headers[header.name] = header.sessionField ? String(material[header.sessionField]) : header.value!;
  const body =
    view.body === null
      ? undefined
      : view.body.type === 'form'
        ? new URLSearchParams(Object.entries(view.body.fields).map(([name, value]): [string, string] => [name, fill(value, (v) => v)])).toString()
        : String(material[view.body.sessionField]);
  return { method: view.method, url: fill(view.url, encodeURIComponent), headers, ...(body === undefined ? {} : { body }) };
}

function madeRequest(platform: string, request: PlatformRequest) {
  const { path, ...rest } = request;
  return { ...rest, url: `${PLATFORM_HOSTS[platform]}${path}` };
}

test('both manifests list exactly the platform actions the attestation service serves, each with its method hash and template path', async (t) => {
  for (const [set, base] of [
    ['stable', '/providers'],
    ['mobile', '/providers/mobile'],
  ] as const) {
    const manifest = await get<ManifestView>(`${base}/providers.json`);
    t.is(manifest.set, set);
    const listed = manifest.providers.flatMap((provider) => provider.actions.map((action) => `${provider.platform}/${action.actionType}`));
    t.deepEqual([...listed].sort(), [...ENCLAVE.keys()].sort(), set);
    for (const provider of manifest.providers) {
      t.is(provider.paymentMethodHash, idHash(provider.platform), provider.platform);
      for (const action of provider.actions) t.is(action.template, `${base}/${provider.platform}/${action.actionType}.json`);
    }
  }
});

test('each template’s session fields and params are exactly what the enclave’s adapter accepts', async (t) => {
  for (const template of await templates('stable')) {
    const where = `${template.platform}/${template.actionType}`;
    const adapter = ENCLAVE.get(where)!;
    const material = materialOf(template);
    t.true(adapter.session.safeParse(material).success, `${where}: the template's fields`);
    t.false(adapter.session.safeParse({ ...material, Extra: 'x' }).success, `${where}: a field the template does not list`);
    for (const field of template.session.fields) {
      const { [field.name]: _, ...without } = material;
      t.is(adapter.session.safeParse(without).success, !field.required, `${where}: without ${field.name}`);
    }
    const params = paramsOf(template);
    t.true(adapter.params.safeParse(params).success, `${where}: the template's params`);
    t.false(adapter.params.safeParse({ ...params, EXTRA_ID: 'x' }).success, `${where}: a param the template does not list`);
    for (const param of template.params) {
      const { [param.name]: _, ...without } = params;
      t.false(adapter.params.safeParse(without).success, `${where}: without ${param.name}`);
      t.false(adapter.params.safeParse({ ...params, [param.name]: '../x' }).success, `${where}: ${param.name} breaking ${param.pattern}`);
    }
  }
});

test('each template’s published rules are the ones the enclave enforces', async (t) => {
  for (const template of await templates('stable')) {
    const where = `${template.platform}/${template.actionType}`;
    const adapter = ENCLAVE.get(where)!;
    const material = materialOf(template);
    const accepts = (name: string, value: unknown) => adapter.session.safeParse({ ...material, [name]: value }).success;
    for (const { name, format, rules } of template.session.fields) {
      if (rules.maxLength !== null) {
        const prefix = format === 'bearer' ? 'Bearer ' : '';
        t.true(accepts(name, prefix + 'a'.repeat(rules.maxLength - prefix.length)), `${where} ${name} at its maxLength`);
        t.false(accepts(name, prefix + 'a'.repeat(rules.maxLength - prefix.length + 1)), `${where} ${name} over its maxLength`);
      }
      if (rules.minLength !== null) t.false(accepts(name, ''), `${where} ${name} under its minLength`);
      if (rules.pattern !== null) {
        const pattern = new RegExp(rules.pattern);
        for (const value of ['a\r\nX-Injected: 1', 'Basic dXNlcg==', 'Bearer tok'])
          t.is(accepts(name, value), pattern.test(value), `${where} ${name}: ${JSON.stringify(value)}`);
      }
      if (rules.headerNamePattern !== null) {
        const names = new RegExp(rules.headerNamePattern);
        for (const header of ['x-app-version', 'user-agent', 'cookie', 'host', 'content-type']) {
          t.is(accepts(name, { [header]: 'v' }), names.test(header), `${where} ${name}: header ${header}`);
        }
      }
      if (format === 'cashapp-activity-request') {
        t.false(accepts(name, JSON.stringify({ activity_scope: 'ALL', page_size: 20 })), `${where} ${name}: another scope`);
        t.false(accepts(name, 'not json'), `${where} ${name}: not JSON`);
      }
    }
  }
});

test('the request each template shows is the request the enclave makes, on the host it makes it to', async (t) => {
  for (const template of await templates('stable')) {
    const where = `${template.platform}/${template.actionType}`;
    const adapter = ENCLAVE.get(where)!;
    const material = materialOf(template);
    const session = adapter.session.safeParse(material).data as never;
    const params = paramsOf(template);
    t.deepEqual(madeRequest(template.platform, adapter.request(session, params)), shownRequest(template.request, material, params), where);
    t.true(template.session.captureUrlPrefix.startsWith(PLATFORM_HOSTS[template.platform]!), where);
    t.true(template.request.url.startsWith(template.session.captureUrlPrefix), where);
    if (template.accountRequest) {
      t.deepEqual(
        madeRequest(template.platform, adapter.account!.request(session)),
        shownRequest(template.accountRequest, material, params),
        `${where} account`,
      );
    } else {
      t.is(adapter.account, undefined, `${where}: the enclave reads an account the template does not show`);
    }
    t.is(template.paymentMethodHash, idHash(template.platform));
    const purpose: SessionPurpose = template.attestation.sealPurpose;
    t.is(purpose, template.kind);
    t.is(template.attestation.path, template.kind === 'payment' ? `/buyer/verify/${template.platform}/${template.actionType}` : '/identity');
  }
});

test('a mobile template is its stable twin signed in through a webview with a phone’s user agent', async (t) => {
  const [stable, mobile] = await Promise.all([templates('stable'), templates('mobile')]);
  t.is(mobile.length, stable.length);
  for (const [index, twin] of stable.entries()) {
    const template = mobile[index]!;
    t.is(twin.set, 'stable');
    t.like(twin.login, { capture: 'browser-extension', userAgent: null });
    t.deepEqual(template.login, { url: twin.login.url, capture: 'webview', userAgent: MOBILE_USER_AGENT });
    t.deepEqual({ ...template, set: 'stable', login: twin.login }, twin, `${twin.platform}/${twin.actionType}`);
  }
});

test('a template of a platform or action nobody defined is a 404 saying which; a name without .json is an unknown path', async (t) => {
  for (const base of ['/providers', '/providers/mobile']) {
    for (const [path, errorCode] of [
      ['/paypall/transfer_paypal.json', 'PROVIDER_NOT_FOUND'],
      ['/VENMO/transfer_venmo.json', 'PROVIDER_NOT_FOUND'],
      ['/ven%2Fmo/transfer_venmo.json', 'PROVIDER_NOT_FOUND'],
      ['/venmo/transfer_wise.json', 'TEMPLATE_NOT_FOUND'],
      ['/venmo/transfer_venmo.json.json', 'TEMPLATE_NOT_FOUND'],
      ['/alipay/transfer_alipay.json', 'TEMPLATE_NOT_FOUND'],
      ['/monzo/register_monzo.json', 'TEMPLATE_NOT_FOUND'],
    ] as const) {
      const answer = await gateway.request('GET', `${base}${path}`);
      t.is(answer.status, 404, `${base}${path}`);
      t.like(answer.body, { success: false, statusCode: 404, responseObject: null, errorCode }, `${base}${path}`);
    }
    for (const path of [
      '/venmo/transfer_venmo',
      '/venmo/transfer_venmo.JSON',
      '/venmo/transfer_venmo.json/',
      '/venmo/.json',
      '/venmo',
      '/venmo/transfer_venmo%2Ejson',
    ]) {
      t.deepEqual((await gateway.request('GET', `${base}${path}`)).body, notFound, `${base}${path}`);
    }
  }
  t.deepEqual((await gateway.request('GET', '/providers/provider.json')).body, notFound);
  // Read as stable template paths, these name platform `mobile` (or `providers` in the mobile set): nobody's.
  t.like((await gateway.request('GET', '/providers/mobile/provider.json')).body, { errorCode: 'PROVIDER_NOT_FOUND' });
  t.like((await gateway.request('GET', '/providers/mobile/providers/x.json')).body, { errorCode: 'PROVIDER_NOT_FOUND' });
  t.like((await gateway.request('GET', '/providers/mobile/mobile/providers.json')).body, { errorCode: 'PROVIDER_NOT_FOUND' });
});

test('provider files answer HEAD as GET without a body, and no other method', async (t) => {
  for (const path of ['/providers/providers.json', '/providers/mobile/venmo/transfer_venmo.json']) {
    const head = await gateway.request('HEAD', path);
    t.is(head.status, 200, path);
    t.is(head.body as unknown, null, path);
    const post = await gateway.request('POST', path);
    t.is(post.status, 405, path);
    t.is(post.headers.get('allow'), 'GET, HEAD, OPTIONS', path);
  }
});
