/**
 * `npm run charts`: draws every machine's state chart into docs/charts/ (an SVG each and a
 * README.md showing them), removing the SVG of a machine that is gone. `npm run charts --
 * --check` writes nothing and exits 1, naming each file that is stale, missing or left over.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { chartFiles } from '../machines/charts/index.js';
import { chartedMachines } from '../gateway/engineers/chart-registry.js';

const OUT = new URL('../docs/charts/', import.meta.url);

async function main(check: boolean): Promise<number> {
  const wanted = await chartFiles(await chartedMachines());
  await mkdir(OUT, { recursive: true });
  const present = (await readdir(OUT)).filter((file) => file.endsWith('.svg') || wanted.has(file));
  const leftOver = present.filter((file) => !wanted.has(file));
  const stale: string[] = [];
  for (const [file, content] of wanted) {
    const current = await readFile(new URL(file, OUT), 'utf8').catch(() => null);
    if (current !== content) stale.push(file);
  }
  if (check) {
    for (const file of stale) process.stderr.write(`docs/charts/${file} is stale or missing\n`);
    for (const file of leftOver) process.stderr.write(`docs/charts/${file} charts no machine\n`);
    if (stale.length + leftOver.length > 0) process.stderr.write('run npm run charts\n');
    else process.stdout.write(`docs/charts/ is current (${wanted.size} files)\n`);
    return stale.length + leftOver.length > 0 ? 1 : 0;
  }
  for (const file of stale) await writeFile(new URL(file, OUT), wanted.get(file)!);
  for (const file of leftOver) await rm(new URL(file, OUT));
  process.stdout.write(`docs/charts/: ${stale.length} written, ${leftOver.length} removed, ${wanted.size - stale.length} unchanged\n`);
  return 0;
}

process.exitCode = await main(process.argv.includes('--check'));
