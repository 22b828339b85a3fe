/**
 * Runs buf from its per-platform npm package with the arguments given (`npm run proto`
 * is `buf generate`). The @bufbuild/buf wrapper is not used: its lock entries name
 * platform packages a registry may not carry, which breaks `npm ci`.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const ARCH: Partial<Record<string, string>> = { x64: 'x64', arm64: 'aarch64' };

export function bufBinaryPath(): string {
  const name = `@bufbuild/buf-${process.platform}-${ARCH[process.arch] ?? process.arch}`;
  try {
    return createRequire(import.meta.url).resolve(`${name}/bin/buf${process.platform === 'win32' ? '.exe' : ''}`);
  } catch {
    throw new Error(`buf is not installed for this platform: npm install --save-optional ${name} (package.json lists linux only)`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = spawnSync(bufBinaryPath(), process.argv.slice(2), { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
