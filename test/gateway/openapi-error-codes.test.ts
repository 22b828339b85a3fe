import test from 'ava';
import { ERROR_CODES, type ErrorCode } from '../../actors/errors/error-codes.js';
import { failure, invalid } from '../../gateway/openapi/answers.js';
import { UNROUTED_ANSWERS } from '../../gateway/openapi/unrouted-answers.js';
import { startTestGateway } from '../support/gateway.js';

type Json = Record<string, unknown>;

/** Every errorCode value a schema admits, following $refs into the document's components. */
function errorCodesOf(schema: unknown, document: Json, seen = new Set<unknown>()): string[] {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return [];
  seen.add(schema);
  const node = schema as Json;
  if (typeof node.$ref === 'string') {
    const target = node.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Json)[key], document);
    return errorCodesOf(target, document, seen);
  }
  const own = (node.properties as Json | undefined)?.errorCode as Json | undefined;
  const codes = [...((own?.enum as string[] | undefined) ?? []), ...(typeof own?.const === 'string' ? [own.const] : [])];
  return [...codes, ...Object.values(node).flatMap((child) => errorCodesOf(child, document, seen))];
}

const answered = (code: string, status: number) => {
  const row = ERROR_CODES[code as ErrorCode];
  return row.status === status || ((row as { alsoStatus?: readonly number[] }).alsoStatus ?? []).includes(status);
};

test('every errorCode of the served document is a row of the error table, under a status the row answers it with', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const document = (await (await fetch(`${gateway.url}/api/v1/openapi.json`)).json()) as Json;
  let listed = 0;
  for (const [path, operations] of Object.entries(document.paths as Record<string, Json>)) {
    for (const [method, operation] of Object.entries(operations as Record<string, Json>)) {
      for (const [status, answer] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
        const where = `${method.toUpperCase()} ${path} ${status}`;
        const inSchema = errorCodesOf(answer.content, document);
        const inText = [...String(answer.description).matchAll(/^- `([A-Z][A-Z0-9_]+)`:/gm)].map((match) => match[1]!);
        t.deepEqual([...new Set(inSchema)].sort(), [...new Set(inText)].sort(), `${where}: the schema admits the codes the text lists`);
        for (const code of new Set([...inSchema, ...inText])) {
          listed++;
          t.true(code in ERROR_CODES, `${where}: ${code} has no row`);
          if (code in ERROR_CODES) t.true(answered(code, Number(status)), `${where}: ${code} is answered with ${ERROR_CODES[code as ErrorCode].status}`);
        }
      }
    }
  }
  t.true(listed > 300, `${listed} codes listed`);
  for (const answer of UNROUTED_ANSWERS) if (answer.code) t.true(answered(answer.code, answer.status), answer.code);
});

test('a code listed under a status its row does not give it fails the document’s build; a code with no when of its own takes its row’s', (t) => {
  t.throws(() => failure(404, [{ code: 'AMOUNT_LOCKED' }]), { message: /AMOUNT_LOCKED is listed under 404, but its row .* answers it with 409/ });
  t.throws(() => invalid('the body', [{ code: 'SERVICE_UNAVAILABLE' }]), { message: /SERVICE_UNAVAILABLE is listed under 400/ });
  t.is(failure(409, [{ code: 'AMOUNT_LOCKED' }]).description, `- \`AMOUNT_LOCKED\`: ${ERROR_CODES.AMOUNT_LOCKED.when}`);
  t.is(failure(409, [{ code: 'AMOUNT_LOCKED', when: 'the order’s own words' }]).description, '- `AMOUNT_LOCKED`: the order’s own words');
  t.notThrows(() => failure(400, [{ code: 'CURRENCY_NOT_SUPPORTED' }]), 'a status the row is also answered with');
});
