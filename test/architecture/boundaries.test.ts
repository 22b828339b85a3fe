/**
 * The boundaries of docs/boundaries.md, held by a test: each rule lists every import that
 * crosses it the wrong way, with file, line and specifier, so a failure says what to move.
 */
import test from 'ava';
import { callsOf, type Import, importCycles, importsOf, productionFiles } from './import-graph.js';

const files = productionFiles();
const imports = new Map(files.map((file) => [file, importsOf(file)]));
const allImports = [...imports.values()].flat();
const under = (folder: string) => (file: string | null) => file !== null && file.startsWith(`${folder}/`);
const show = (edge: Import) => `${edge.from}:${edge.line} imports '${edge.specifier}'`;

test('the import graph is read: every production folder has files and relative imports resolve to them', (t) => {
  t.true(files.length > 500);
  const unresolved = allImports.filter((edge) => edge.to?.endsWith('.ts') && !imports.has(edge.to)).map(show);
  t.deepEqual(unresolved, [], 'relative imports that name no file of the tree');
});

test('machines/ imports nothing of ours outside machines/', (t) => {
  const crossing = allImports.filter((edge) => under('machines')(edge.from) && edge.to !== null && !under('machines')(edge.to));
  t.deepEqual(crossing.map(show), []);
});

test('the gateway imports nothing from enclave/, indexer/ or proto/gen', (t) => {
  const forbidden = ['enclave', 'indexer', 'proto/gen'].map(under);
  const crossing = allImports.filter((edge) => under('gateway')(edge.from) && forbidden.some((inside) => inside(edge.to)));
  t.deepEqual(crossing.map(show), []);
});

test('no import cycles, type-only imports included', (t) => {
  t.deepEqual(
    importCycles(imports).map((cycle) => cycle.join(' -> ')),
    [],
  );
});

test('every actor kind is defined in actors/kinds/', (t) => {
  const elsewhere = files
    .filter((file) => !under('actors/kinds')(file))
    .flatMap((file) => callsOf(file, 'defineKind').map((line) => `${file}:${line} calls defineKind`));
  t.deepEqual(elsewhere, []);
  t.true(
    files.filter(under('actors/kinds')).some((file) => callsOf(file, 'defineKind').length > 0),
    'the rule finds the kinds it is about',
  );
});
