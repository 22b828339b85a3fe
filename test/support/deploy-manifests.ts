/**
 * Reading the deployment files of deploy/ (the image, the Compose file, the Kubernetes
 * manifests) for the tests that check them, and the environment each platform process
 * would get from them, run through the node's own configuration.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { type Config, type ProcessRole, loadConfig } from '../../actors/config.js';

/**
 * The source tree. `npm test` runs from dist/, a copy of the tree without its dotfiles
 * (.dockerignore among them), so from there the tree is dist/'s parent.
 */
export const ROOT = (() => {
  const here = fileURLToPath(new URL('../../', import.meta.url));
  return basename(here) === 'dist' && existsSync(join(dirname(here), '.dockerignore')) ? dirname(here) : here;
})();

export function readText(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** Every YAML document of a file, as plain data (anchors and merge keys resolved). */
export function yamlDocuments(path: string): Record<string, unknown>[] {
  return parseAllDocuments(readText(path), { merge: true }).map((document) => {
    if (document.errors.length > 0) throw new Error(`${path}: ${document.errors.map((error) => error.message).join('; ')}`);
    return document.toJS() as Record<string, unknown>;
  });
}

/** The one document of a YAML file. */
export function yamlDocument(path: string): Record<string, unknown> {
  const [document, ...rest] = yamlDocuments(path);
  if (!document || rest.length > 0) throw new Error(`${path} holds ${rest.length + (document ? 1 : 0)} documents, not one`);
  return document;
}

/** What an example file leaves for the operator to fill in; each is refused by the configuration until replaced. */
export const PLACEHOLDER = 'REPLACE_ME';

/**
 * Values a test gives the variables an operator fills in: of the right shape, and plainly
 * not secrets. Anything else left as a placeholder fails the test that fills them.
 */
const FILLED: Record<string, string> = {
  CHAIN_RPC_URL: 'https://rpc.test.invalid',
  ID_SECRET: 'test-id-secret-'.padEnd(48, 'x'),
  PEER_ADMIN_TOKEN: 'test-admin-token-'.padEnd(32, 'x'),
  SMTP_URL: 'smtps://test:test@smtp.test.invalid:465',
  ENCLAVE_KEY_WRAPPING_KEY: Buffer.alloc(32).toString('base64'),
};

/** The environment with every placeholder filled in as an operator would. */
export function filled(environment: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).map(([name, value]) => {
      if (value !== PLACEHOLDER) return [name, value];
      const replacement = FILLED[name];
      if (replacement === undefined) throw new Error(`${name} is a placeholder the tests have no value for`);
      return [name, replacement];
    }),
  );
}

/** The names a configuration refusal names, one per line of its message. */
export function refusedNames(environment: Record<string, string>, role: ProcessRole = 'node'): string[] {
  try {
    loadConfig(environment, role);
    return [];
  } catch (error) {
    return [...(error as Error).message.matchAll(/^ {2}([A-Z0-9_]+):/gm)].map((match) => match[1]!).sort();
  }
}

/** The configuration a process would start with, and the names it set that the configuration does not know. */
export function configOf(environment: Record<string, string>, role: ProcessRole = 'node'): { config: Config; unknown: string[] } {
  const config = loadConfig(environment, role);
  // loadConfig keeps what its schema defines and drops the rest: a name set but not kept is unknown to it.
  const unknown = Object.keys(environment).filter((name) => !(name in config));
  return { config, unknown };
}

/** Whether a command runs here, and if not, why: the reason a skipped check gives. */
export function unavailable(command: string, args: string[]): string | null {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 10_000 });
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${command} is not installed here` : `\`${[command, ...args].join(' ')}\` fails here`;
  }
}

/** Which process a service or Deployment runs, by its name: what production asks of its configuration. */
export function roleOf(name: string): ProcessRole {
  if (name.includes('indexer')) return 'indexer';
  if (name.includes('enclave')) return 'enclave';
  return 'node';
}
