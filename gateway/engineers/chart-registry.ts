/**
 * Every machine of machines/, by chart name, found rather than listed: each folder's
 * index.ts is imported and every xstate machine it exports is taken. A new folder (a
 * deposit machine, say) is charted the day it exists, with nothing here to keep in step.
 * The top-level barrel (machines/index.ts) is not enough: it leaves several folders out.
 *
 * Here rather than in machines/charts/ because it reads the folder's names: machines/
 * stays pure. The engineers' page serves what it finds; `npm run charts` draws it.
 */
import { readdir } from 'node:fs/promises';
import { StateMachine, type AnyStateMachine } from 'xstate';
import { chartName, type ChartedMachine } from '../../machines/charts/index.js';

const MACHINES = new URL('../../machines/', import.meta.url);
const CHARTS = 'charts';

let found: Promise<ChartedMachine[]> | undefined;

/** The machines sorted by name; found once per process. */
export function chartedMachines(): Promise<ChartedMachine[]> {
  found ??= findMachines();
  return found;
}

async function findMachines(): Promise<ChartedMachine[]> {
  const folders = (await readdir(MACHINES, { withFileTypes: true })).filter((entry) => entry.isDirectory() && entry.name !== CHARTS).map((entry) => entry.name);
  const byName = new Map<string, AnyStateMachine>();
  for (const folder of folders.sort()) {
    if (!(await readdir(new URL(`${folder}/`, MACHINES))).includes('index.ts')) continue;
    // `.js`, as every import here names it: the sources run through tsx, which maps it to the `.ts`, and npm test runs the build.
    const exported: Record<string, unknown> = await import(new URL(`${folder}/index.js`, MACHINES).href);
    for (const value of Object.values(exported)) {
      if (!(value instanceof StateMachine)) continue;
      const name = chartName(value.id);
      const known = byName.get(name);
      if (known && known !== value) throw new Error(`two machines are charted as ${name}: give one another id`);
      byName.set(name, value);
    }
  }
  return [...byName.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, machine]) => ({ name, machine }));
}
