import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR, compileArtifacts } from '../../../indexer/chain/compile.js';

test('the committed artifacts are exactly what the contracts compile to (else run npm run contracts)', (t) => {
  const compiled = compileArtifacts();
  const committed = readdirSync(ARTIFACTS_DIR)
    .filter((name) => name.endsWith('.ts'))
    .sort();
  t.deepEqual(committed, Object.keys(compiled).sort());
  for (const name of committed) {
    // A boolean, not t.is: a diff of two 20 kB bytecode strings helps nobody.
    t.true(readFileSync(join(ARTIFACTS_DIR, name), 'utf8') === compiled[name], `artifacts/${name} is stale`);
  }
});
