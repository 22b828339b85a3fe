/** Redocly's recommended rules over one OpenAPI document, offline: no telemetry, no update check. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

export interface LintReport {
  totals: { errors: number; warnings: number };
  problems: unknown[];
}

/**
 * Findings the document keeps on purpose, each with its reason, in Redocly's own ignore-file
 * form. Document 3 fixes both deposit paths; the one path matching both templates,
 * /v2/deposits/atomic-create/bundle, is a 400 either way: `atomic-create` is no deposit id
 * (an integer) and `bundle` no requestId (a UUID). The probes take no input and are mounted
 * ahead of the rate limit (gateway/service/probe-operations.ts): they have no 4XX to answer.
 */
const IGNORED = `openapi.json:
  no-ambiguous-paths:
    - '#/paths/~1v2~1deposits~1atomic-create~1{requestId}'
  operation-4xx-response:
    - '#/paths/~1v1~1health-check~1live/get/responses'
    - '#/paths/~1v1~1health-check~1ready/get/responses'
`;

export async function lintOpenApi(document: unknown): Promise<LintReport> {
  const folder = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(folder, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    await writeFile(join(folder, '.redocly.lint-ignore.yaml'), IGNORED);
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    // Redocly exits non-zero when it finds problems; the report on stdout is what the tests read.
    const { stdout } = await run(process.execPath, [REDOCLY, 'lint', file, '--format=json', '--extends=recommended'], { env, cwd: folder }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
    );
    return JSON.parse(stdout.slice(stdout.indexOf('{'))) as LintReport;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
