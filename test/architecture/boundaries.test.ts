/**
 * The boundaries of docs/boundaries.md, held by a test: each rule lists every import that
 * crosses it the wrong way, with file, line and specifier, so a failure says what to move.
 */
import test from 'ava';
import { callsOf, type Import, importCycles, importsOf, productionFiles, starExportsOf } from './import-graph.js';

const files = productionFiles();
const imports = new Map(files.map((file) => [file, importsOf(file)]));
const allImports = [...imports.values()].flat();
const under = (folder: string) => (file: string | null) => file?.startsWith(`${folder}/`) ?? false;
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

/** The real clients of outside systems (actors/adapters/<system>/); everything else there is a port or a local stand-in. */
const CONCRETE_CLIENTS = [
  'actors/adapters/chain/viem-relayer-chain.ts',
  'actors/adapters/chain/viem-intents.ts',
  'actors/adapters/chain/viem-deposit-chain.ts',
  'actors/adapters/conversion/http-conversion-provider.ts',
  'actors/adapters/conversion/http-funding-provider.ts',
  'actors/adapters/enclave/enclave-client.ts',
  'actors/adapters/indexer/indexer-client.ts',
  'actors/adapters/mail/smtp-mailer.ts',
  'actors/adapters/rates/http-rate-provider.ts',
];

test('only deploy/ and actors/adapters/ import a concrete client as a value; the rest see its port', (t) => {
  t.deepEqual(
    CONCRETE_CLIENTS.filter((file) => !imports.has(file)),
    [],
    'every listed client exists',
  );
  const wiring = [under('deploy'), under('actors/adapters')];
  const crossing = allImports.filter((edge) => CONCRETE_CLIENTS.includes(edge.to ?? '') && !edge.typeOnly && !wiring.some((inside) => inside(edge.from)));
  t.deepEqual(crossing.map(show), []);
});

/** The folders each top folder may import besides its own (docs/boundaries.md); deploy/ wires everything and may import anything. */
const MAY_IMPORT: Record<string, string[]> = {
  machines: [],
  proto: [],
  actors: ['machines', 'proto'],
  enclave: ['machines', 'proto'],
  indexer: ['machines', 'proto'],
  gateway: ['actors', 'machines', 'proto'],
};

test('each top folder imports only the folders under it: machines and proto, then actors, then the gateway', (t) => {
  const topOf = (file: string) => file.split('/')[0]!;
  const crossing = allImports.filter((edge) => {
    const from = topOf(edge.from);
    const allowed = MAY_IMPORT[from];
    if (!allowed || edge.to === null || topOf(edge.to) === from || allowed.includes(topOf(edge.to))) return false;
    // The chain adapters read the contracts' ABIs where the indexer keeps them.
    return !(under('actors/adapters/chain')(edge.from) && under('indexer/chain')(edge.to));
  });
  t.deepEqual(crossing.map(show), []);
});

test('every entry file lists what it exports: no export * in the tree (generated code aside)', (t) => {
  const generated = (file: string) => under('proto/gen')(file) || under('indexer/chain/artifacts')(file);
  const starred = files.filter((file) => !generated(file)).flatMap((file) => starExportsOf(file).map((line) => `${file}:${line} re-exports with export *`));
  t.deepEqual(starred, []);
});
