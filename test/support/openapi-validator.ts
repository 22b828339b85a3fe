/**
 * Holds every answer a test receives to the OpenAPI document the gateway serves: the
 * operation must document the status, the content type must be the documented one,
 * and a JSON body must validate against the documented schema (JSON Schema 2020-12,
 * with Ajv). Answers no operation owns (unknown paths, other methods, OPTIONS) must
 * be the envelope the document's description lists for them.
 *
 * test/support/gateway.ts runs it on every request of every gateway test, so a new
 * endpoint is checked by its own tests without anyone writing a check.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { UNROUTED_ANSWERS } from '../../gateway/openapi/unrouted-answers.js';

type Json = Record<string, any>;

export interface ObservedResponse {
  method: string;
  /** The request target: path and query as sent. */
  target: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

const DOCUMENT_ID = 'https://peer.invalid/openapi.json';

/** The errorCode values each status may carry on a path no operation owns (OPTIONS' 200 is checked on its own). */
const UNROUTED = new Map<number, (string | undefined)[]>();
for (const answer of UNROUTED_ANSWERS) if (answer.status !== 200) UNROUTED.set(answer.status, [...(UNROUTED.get(answer.status) ?? []), answer.code]);

interface Operation {
  template: string;
  pattern: RegExp;
  methods: Record<string, Json>;
}

export class ResponseValidator {
  readonly #ajv: Ajv2020;
  readonly #operations: Operation[];
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(document: Json) {
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(this.#ajv);
    this.#ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    this.#operations = Object.entries(document.paths as Record<string, Json>)
      .map(([template, methods]) => ({ template, pattern: templatePattern(template), methods }))
      // A literal segment is more specific than a parameter, as the router matches.
      .sort((a, b) => parameterCount(a.template) - parameterCount(b.template));
  }

  static async fetch(baseUrl: string): Promise<ResponseValidator> {
    const response = await fetch(`${baseUrl}/api/v1/openapi.json`);
    if (!response.ok) throw new Error(`the gateway served no OpenAPI document: ${response.status}`);
    return new ResponseValidator((await response.json()) as Json);
  }

  /** What is wrong with an answer, measured against the document; empty when nothing is. */
  problems(response: ObservedResponse): string[] {
    const path = response.target.split('?')[0]!;
    const method = response.method.toLowerCase();
    const owner = this.#operations.find((operation) => operation.pattern.test(path));
    const operation = owner?.methods[method === 'head' ? 'get' : method] as Json | undefined;
    if (!owner || !operation) return this.#unrouted(response, path, Boolean(owner));

    const where = `${response.method} ${owner.template} → ${response.status}`;
    const answer = (operation.responses as Json)[String(response.status)] as Json | undefined;
    if (!answer) return [`${where}: the status is not documented`];
    if (method === 'head') return [];
    const mediaType = response.contentType?.split(';')[0]?.trim() ?? null;
    const content = (answer.content ?? {}) as Json;
    if (mediaType === null || !content[mediaType]) return [`${where}: content type ${mediaType} is not documented (${Object.keys(content).join(', ')})`];
    if (mediaType !== 'application/json') return [];
    const validate = this.#validator(`${owner.template} ${method} ${response.status}`, content[mediaType].schema as Json);
    return validate(response.body)
      ? []
      : (validate.errors ?? []).map((error) => `${where}: ${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`);
  }

  /** Throws with every problem, so the test that received the answer fails. */
  assert(response: ObservedResponse): void {
    const problems = this.problems(response);
    if (problems.length > 0) {
      throw new Error(`answer breaks the OpenAPI document:\n${problems.join('\n')}\nbody: ${JSON.stringify(response.body)?.slice(0, 2000)}`);
    }
  }

  #unrouted(response: ObservedResponse, path: string, knownPath: boolean): string[] {
    const where = `${response.method} ${path} (no operation) → ${response.status}`;
    if (response.method === 'HEAD') return [];
    const body = response.body as Json | null;
    if (response.method === 'OPTIONS' && knownPath && response.status === 200) {
      return Array.isArray(body?.responseObject?.methods) && body?.success === true ? [] : [`${where}: not the OPTIONS answer`];
    }
    const codes = UNROUTED.get(response.status);
    if (!codes) return [`${where}: not an answer the document lists for any path`];
    const problems: string[] = [];
    if (body?.success !== false || body?.statusCode !== response.status || body?.responseObject !== null || typeof body?.message !== 'string')
      problems.push(`${where}: not a failure envelope`);
    if (!codes.includes(body?.errorCode)) problems.push(`${where}: errorCode ${String(body?.errorCode)} is not the documented ${codes.join(' or ')}`);
    if (response.status === 401 && !path.toLowerCase().includes('internal')) problems.push(`${where}: 401 outside the admin area`);
    return problems;
  }

  #validator(key: string, schema: Json): ValidateFunction {
    let validate = this.#compiled.get(key);
    if (!validate) {
      validate = this.#ajv.compile(rebase(schema));
      this.#compiled.set(key, validate);
    }
    return validate;
  }
}

function templatePattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

function parameterCount(template: string): number {
  return (template.match(/\{/g) ?? []).length;
}

/** Points the document's local references (`#/components/…`) at the document, so a schema compiled on its own resolves them. */
function rebase(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? DOCUMENT_ID + value : rebase(value),
    ]),
  );
}
