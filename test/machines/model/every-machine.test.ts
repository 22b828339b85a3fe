/**
 * Every machine in machines/ has a model-based test file here: the machines are the ones
 * the chart registry finds (the top-level barrel leaves folders out), so a new machine
 * without `<its chart name>.model.test.ts` fails this test rather than going untested in
 * silence.
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import { chartedMachines } from '../../../gateway/engineers/chart-registry.js';

/** Machines whose model is someone else's work in progress, with why they are not modelled here yet. */
const NOT_YET: Readonly<Record<string, string>> = {};

async function machineIds(): Promise<string[]> {
  return (await chartedMachines()).map((entry) => entry.name);
}

test('every machine in machines/ has a model-based test file', async (t) => {
  const ids = await machineIds();
  t.true(ids.length >= 14, `found ${ids.length} machines: ${ids.join(', ')}`);
  const missing = ids.filter((id) => !existsSync(new URL(`${id}.model.test.ts`, import.meta.url)));
  t.deepEqual(
    missing,
    Object.keys(NOT_YET)
      .filter((id) => ids.includes(id))
      .sort(),
    'machines without a model test are exactly those listed as not yet modelled',
  );
});
