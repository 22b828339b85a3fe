/**
 * docs/charts/ is generated (`npm run charts`) and checked in: this fails when a machine
 * changed and its chart did not, naming the file and the command that fixes it.
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import * as barrel from '../../../machines/index.js';
import { StateMachine } from 'xstate';
import { chartedMachines } from '../../../gateway/engineers/chart-registry.js';
import { CHARTS_INDEX, chartFiles, chartName } from '../../../machines/charts/index.js';

const CHARTS = new URL('../../../docs/charts/', import.meta.url);

test('the checked-in charts are what the machines draw now', async (t) => {
  const wanted = await chartFiles(await chartedMachines());
  const present = (await readdir(CHARTS)).filter((file) => file.endsWith('.svg') || file === CHARTS_INDEX);
  t.deepEqual(present.sort(), [...wanted.keys()].sort(), 'one SVG per machine and the index, nothing else: run npm run charts');
  for (const [file, content] of wanted) {
    const current = await readFile(new URL(file, CHARTS), 'utf8').catch(() => null);
    t.true(current === content, `docs/charts/${file} is stale: run npm run charts`);
  }
});

test('every machine is charted: the ones of each folder, the barrel’s among them', async (t) => {
  const names = (await chartedMachines()).map((entry) => entry.name);
  for (const name of [
    'order',
    'payment',
    'transaction',
    'wallet',
    'webhook',
    'delivery',
    'merchant',
    'maker',
    'maker-session',
    'referral-code',
    'maker-referral',
    'wallet-transfer',
    'provider-message',
  ]) {
    t.true(names.includes(name), name);
  }
  for (const value of Object.values(barrel)) if (value instanceof StateMachine) t.true(names.includes(chartName(value.id)), value.id);
});
